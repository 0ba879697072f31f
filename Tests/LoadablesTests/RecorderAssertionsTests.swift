import Loadables
import LoadablesTesting
import XCTest

/// `StateRecorder.expectNoMoreStates(turns:)` and `ProcessPhase`: asserting that nothing more
/// is written, and asserting `SingleProcessState` sequences without their UUIDs and dates.
@MainActor
final class RecorderAssertionsTests: XCTestCase {
  // MARK: - Nothing more is written

  func testNoMoreStatesPassesWhenASupersededLoadAnswersLateAndWritesNothing() async throws {
    @Loadable var numbers: LoadableState<[Int]>
    let gate = LoadablesTesting.Gate<[Int]>()
    let recorder = StateRecorder($numbers)
    defer { recorder.stop() }
    let careless: Task<Void, Never> = $numbers.load { try await gate.passIgnoringCancellation() }
    try await gate.arrival()
    let newer: Task<Void, Never> = $numbers.load { [2] }
    await newer.value
    gate.open([1])  // the superseded load answers now
    await careless.value

    try await recorder.expectNoMoreStates()
    XCTAssertEqual(recorder.states, [.absent, .loading, .loaded([2])])
  }

  func testNoMoreStatesFailsWhenAStateArrivesWithinItsTurns() async throws {
    @Loadable var numbers: LoadableState<[Int]>
    let recorder = StateRecorder($numbers)
    defer { recorder.stop() }
    Task {
      for _ in 0..<5 { await Task.yield() }
      numbers = .loaded([9])  // a late write, a few turns on
    }
    do {
      try await recorder.expectNoMoreStates(turns: 50)
      XCTFail("expectNoMoreStates passed over a late write")
    } catch let error as StateRecorderUnexpectedState {
      XCTAssertTrue(
        error.description.hasPrefix("expected no more states, but one was recorded within "),
        error.description)
      XCTAssertTrue(
        error.description.hasSuffix(": [loaded([9])]; states seen: [absent, loaded([9])]"),
        error.description)
    }
  }

  func testNoMoreStatesRejectsFewerThanOneTurn() async {
    @Loadable var numbers: LoadableState<[Int]>
    let recorder = StateRecorder($numbers)
    defer { recorder.stop() }
    do {
      try await recorder.expectNoMoreStates(turns: 0)
      XCTFail("expectNoMoreStates(turns: 0) passed")
    } catch {
      XCTAssertEqual(
        "\(error)", "expectNoMoreStates(turns:): turns must be at least 1, got 0")
    }
  }

  // MARK: - Process phases

  func testSingleProcessStatesCompareByPhase() async throws {
    @Loadables.Process var saving: SingleProcessState
    let recorder = StateRecorder($saving)
    defer { recorder.stop() }
    await $saving.run {}.value
    await $saving.run { throw TestError(code: 1) }.value

    XCTAssertEqual(
      recorder.states.map(\.phase),
      [.idle, .running, .finished, .running, .failed(TestError(code: 1))])
    let failed = try await recorder.wait(until: { $0.phase.isFailed })
    XCTAssertEqual(failed.phase.description, "failed(LoadablesTests.TestError(code: 1))")
  }

  func testFailedPhasesCompareTheirErrorsAsStatesDo() {
    XCTAssertEqual(ProcessPhase.failed(TestError(code: 1)), .failed(TestError(code: 1)))
    XCTAssertNotEqual(ProcessPhase.failed(TestError(code: 1)), .failed(TestError(code: 2)))
    XCTAssertNotEqual(ProcessPhase.failed(TestError(code: 1)), .failed(OpaqueError()))
    XCTAssertEqual(ProcessPhase.failed(OpaqueError()), .failed(OpaqueError()))
    XCTAssertNotEqual(ProcessPhase.running, .finished)
    XCTAssertEqual(ProcessState<Int>.running(4).phase, .running)
  }
}

extension ProcessPhase {
  fileprivate var isFailed: Bool {
    if case .failed = self { return true }
    return false
  }
}

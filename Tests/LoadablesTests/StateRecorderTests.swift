import Loadables
import LoadablesTesting
import XCTest

@MainActor
final class StateRecorderTests: XCTestCase {
  func testRecordsEveryStateOfAWrapperInOrder() async {
    @Loadable var numbers: LoadableState<[Int]>
    let recorder = StateRecorder($numbers)
    await $numbers.load { yield in
      yield(.loaded([1]))
      yield(.loaded([1, 2]))
    }
    await $numbers.load(silently: true) { throw TestError(code: 1) }
    $numbers.reset()
    numbers = .loaded([9])
    XCTAssertEqual(
      recorder.states,
      [
        .absent, .loading, .loaded([1]), .loaded([1, 2]), .error(TestError(code: 1)), .absent,
        .loaded([9]),
      ]
    )
    recorder.stop()
    numbers = .absent
    XCTAssertEqual(recorder.last, .loaded([9]), "a stopped recorder went on recording")
  }

  func testRecordsBackToBackWritesThatObservationWouldMerge() async {
    let model = NumbersModel()
    let recorder = StateRecorder(model, \.numbers)
    await model.load(\.numbers) { yield in
      for index in 1...5 { yield(.loaded([index])) }
    }
    XCTAssertEqual(recorder.states.count, 7, "states: \(recorder.states)")
    recorder.stop()
  }

  func testRecordsAProcess() async {
    @LoadableProcess var saving: SingleProcessState
    let recorder = StateRecorder($saving)
    await $saving.run {}
    XCTAssertEqual(recorder.states.count, 3)
    XCTAssertTrue(recorder.states[1].isRunning)
    XCTAssertTrue(recorder.last.hasFinished)
    recorder.stop()
  }

  func testWaitReturnsWhenAStateArrives() async throws {
    @Loadable var numbers: LoadableState<[Int]>
    let recorder = StateRecorder($numbers)
    let gate = Gate<[Int]>()
    let task: Task<Void, Never> = $numbers.load { try await gate.pass() }
    try await recorder.wait(until: \.isLoading)
    gate.open([3])
    let state = try await recorder.wait(until: \.isLoaded)
    XCTAssertEqual(state, .loaded([3]))
    await task.value
    recorder.stop()
  }

  func testWaitTimesOutWithAMessageNamingTheStatesSeen() async {
    @Loadable var numbers: LoadableState<[Int]>
    let recorder = StateRecorder($numbers)
    let gate = Gate<[Int]>()
    let task: Task<Void, Never> = $numbers.load { try await gate.pass() }
    do {
      try await recorder.wait(until: \.isLoaded, timeout: .milliseconds(20))
      XCTFail("the wait returned though no state was loaded")
    } catch let timeout as StateRecorderTimeout {
      XCTAssertTrue(
        timeout.description.contains("states seen: [absent, loading]"), timeout.description)
      XCTAssertTrue(timeout.description.contains("last: loading"), timeout.description)
    } catch {
      XCTFail("unexpected error \(error)")
    }
    $numbers.cancel()
    await task.value
    recorder.stop()
  }

  func testWaitRejectsBadInputWithAClearMessage() async {
    @Loadable var numbers: LoadableState<[Int]>
    let recorder = StateRecorder($numbers)
    await assertThrowsMessage(
      try await recorder.wait(forCount: 0), "wait(forCount:): count must be at least 1, got 0")
    await assertThrowsMessage(
      try await recorder.wait(until: \.isAbsent, timeout: .zero),
      "wait: timeout must be positive, got 0.0 seconds")
    recorder.stop()
  }

  func testRecordsAKeyPathLoad() async {
    let model = NumbersModel()
    let recorder = StateRecorder(model, \.numbers)
    await model.load(\.numbers) { [1] }
    XCTAssertEqual(recorder.states, [.absent, .loading, .loaded([1])])
    recorder.stop()
  }
}

/// Asserts that `expression` throws an error whose description is `message`.
@MainActor
func assertThrowsMessage<T>(
  _ expression: @autoclosure () async throws -> T,
  _ message: String,
  file: StaticString = #filePath,
  line: UInt = #line
) async {
  do {
    _ = try await expression()
    XCTFail("expected an error saying \"\(message)\"", file: file, line: line)
  } catch {
    XCTAssertEqual(String(describing: error), message, file: file, line: line)
  }
}

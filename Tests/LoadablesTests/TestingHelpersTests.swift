import Loadables
import LoadablesTesting
import XCTest

/// The helpers `LoadablesTesting` ships beside `StateRecorder`: a gate, a bounded wait for
/// any condition, and recorders for `isRunning`, `progress` and `attempt`.
@MainActor
final class TestingHelpersTests: XCTestCase {
  // MARK: - Gate

  func testAGateHoldsTheLoadUntilTheTestOpensIt() async throws {
    @Loadable var numbers: LoadableState<[Int]>
    let gate = LoadablesTesting.Gate<[Int]>()
    let task: Task<Void, Never> = $numbers.load { try await gate.pass() }
    try await gate.arrival()
    XCTAssertEqual(numbers, .loading)
    XCTAssertEqual(gate.waiting, 1)
    gate.open([1, 2, 3])
    await task.value
    XCTAssertEqual(numbers, .loaded([1, 2, 3]))
    XCTAssertEqual(gate.arrived, 1)
  }

  func testAGateFailedWithAnErrorMakesTheLoadFail() async throws {
    @Loadable var numbers: LoadableState<[Int]>
    let gate = LoadablesTesting.Gate<[Int]>()
    let task: Task<Void, Never> = $numbers.load { try await gate.pass() }
    try await gate.arrival()
    gate.fail(TestError(code: 4))
    await task.value
    XCTAssertEqual(numbers, .error(TestError(code: 4)))
  }

  func testAnArrivalThatNeverComesFailsWithAMessage() async {
    let gate = LoadablesTesting.Gate<Void>()
    do {
      try await gate.arrival(count: 2, timeout: .milliseconds(100))
      XCTFail("arrival returned with nobody at the gate")
    } catch let error as WaitTimeout {
      XCTAssertEqual(
        error.description,
        "Gate.arrival(count: 2): waited 0.1 seconds for 2 arrivals; saw 0 (0 waiting now). "
          + "Did the code under test reach the gate?")
    } catch {
      XCTFail("unexpected \(error)")
    }
  }

  func testAWaitAtTheGateEndsWhenItsTaskIsCancelledUnlessItIgnoresCancellation() async throws {
    let gate = LoadablesTesting.Gate<Int>()
    let polite = Task { try await gate.pass() }
    let careless = Task { try await gate.passIgnoringCancellation() }
    try await gate.arrival(count: 2)
    polite.cancel()
    careless.cancel()
    do {
      _ = try await polite.value
      XCTFail("a cancelled pass returned")
    } catch {
      XCTAssertTrue(error is CancellationError)
    }
    XCTAssertEqual(gate.waiting, 1)
    gate.open(9)
    let value = try await careless.value
    XCTAssertEqual(value, 9)
  }

  // MARK: - waitUntil

  func testWaitUntilReturnsOnceTheConditionHolds() async throws {
    var done = false
    Task { done = true }
    try await waitUntil("the task to run") { done }
    XCTAssertTrue(done)
  }

  func testWaitUntilFailsWithAMessageNamingWhatItWaitedForAndWhatItSaw() async {
    let calls = [1, 2]
    let started = ContinuousClock.now
    do {
      try await waitUntil("three calls", timeout: .milliseconds(100), seen: "calls: \(calls)") {
        calls.count == 3
      }
      XCTFail("waitUntil returned for a condition that never held")
    } catch let error as WaitTimeout {
      XCTAssertEqual(
        error.description,
        "waitUntil: waited 0.1 seconds for three calls; it never held; saw calls: [1, 2]")
    } catch {
      XCTFail("unexpected \(error)")
    }
    XCTAssertLessThan(ContinuousClock.now - started, .seconds(2))
  }

  // MARK: - Recorders

  func testAnIsRunningRecorderSeesTheLoadStartAndEnd() async throws {
    @Loadable var numbers: LoadableState<[Int]>
    let gate = LoadablesTesting.Gate<[Int]>()
    let running = IsRunningRecorder { $numbers.isRunning }
    defer { running.stop() }
    let task: Task<Void, Never> = $numbers.load(silently: true) { try await gate.pass() }
    try await running.wait(until: { $0 })
    gate.open([1])
    await task.value
    try await running.wait(until: { !$0 }, after: 1)
    XCTAssertEqual(running.values, [false, true, false])
  }

  func testAProgressRecorderSeesEveryReportEvenBackToBack() async throws {
    @Loadable var download: LoadableState<String>
    let gate = LoadablesTesting.Gate<Void>()
    let progress = ProgressRecorder { $download.progress }
    defer { progress.stop() }
    let task: Task<Void, Never> = $download.load {
      // Three reports in one go: Observation would merge them, the recorder does not.
      LoadingProgress.report(fraction: 0.25)
      LoadingProgress.report(fraction: 0.5)
      LoadingProgress.report(fraction: 0.75, message: "almost")
      try await gate.pass()
      return "file"
    }
    try await gate.arrival()
    try await progress.wait(forCount: 4)
    XCTAssertEqual(
      progress.values.map { $0?.fraction },
      [nil, 0.25, 0.5, 0.75])
    XCTAssertEqual(progress.last?.message, "almost")
    gate.open()
    await task.value
    try await progress.wait(until: { $0 == nil }, after: 1)
  }

  func testAnAttemptRecorderSeesEachRetryOfAKeyPathLoad() async throws {
    let model = RecordedModel()
    let clock = ManualClock()
    let attempts = AttemptRecorder { model.handle(\.numbers).attempt }
    defer { attempts.stop() }
    var calls = 0
    let task = withLoadClock(clock) {
      model.load(\.numbers, policy: .retry(maxAttempts: 3, backoff: .constant(.seconds(1)))) {
        calls += 1
        if calls < 3 { throw TestError(code: calls) }
        return [calls]
      }
    }
    try await clock.run()
    await task.value
    XCTAssertEqual(model.numbers, .loaded([3]))
    let seen = attempts.values.map { $0.map { "\($0.number)\($0.isWaiting ? " waiting" : "")" } }
    XCTAssertEqual(seen, [nil, "1", "2 waiting", "2", "3 waiting", "3", nil])
  }

  func testARecorderFollowsALoaderObject() async throws {
    let gate = LoadablesTesting.Gate<Int>()
    let loader = BlockLoader<Int> { try await gate.pass() }
    let running = IsRunningRecorder { loader.isRunning }
    defer { running.stop() }
    let load = Task { await loader.load() }
    try await gate.arrival()
    gate.open(1)
    _ = await load.value
    try await running.wait(forCount: 3)
    XCTAssertEqual(running.values, [false, true, false])
  }

  func testARecorderWaitThatTimesOutNamesTheValuesItSaw() async {
    @Loadable var numbers: LoadableState<[Int]>
    let running = IsRunningRecorder { $numbers.isRunning }
    defer { running.stop() }
    do {
      try await running.wait(until: { $0 }, timeout: .milliseconds(100))
      XCTFail("the wait returned with nothing running")
    } catch let error as WaitTimeout {
      XCTAssertEqual(
        error.description,
        "ObservationRecorder.wait: waited 0.1 seconds for a value that satisfies the "
          + "condition; values seen: [false]")
    } catch {
      XCTFail("unexpected \(error)")
    }
  }

  func testAStoppedRecorderKeepsWhatItRecorded() async throws {
    @Loadable var numbers: LoadableState<[Int]>
    let running = IsRunningRecorder { $numbers.isRunning }
    let first: Task<Void, Never> = $numbers.load { [1] }
    await first.value
    running.stop()
    let second: Task<Void, Never> = $numbers.load { [2] }
    await second.value
    XCTAssertEqual(running.values, [false, true, false])
  }
}

@MainActor
private final class RecordedModel: LoadableSupport {
  var numbers: LoadableState<[Int]> = .absent
}

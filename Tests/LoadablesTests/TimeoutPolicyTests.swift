import Loadables
import LoadablesTesting
import XCTest

@MainActor
final class TimeoutPolicyTests: XCTestCase {
  func testABlockThatRunsTooLongEndsWithTimeoutError() async {
    @Loadable var report: LoadableState<String>
    let clock = ManualClock()
    let gate = Gate<Void>()
    let task: Task<Void, Never> = $report.load(policy: .timeout(.seconds(10), clock: clock)) {
      try await gate.pass()
      return "late"
    }
    await clock.sleepers(count: 1)
    await gate.arrival()
    clock.advance(by: .seconds(10))
    await task.value
    XCTAssertEqual(report, .error(TimeoutError()))
    XCTAssertFalse($report.isRunning)
  }

  func testTheTimeoutFiresEvenWhenTheBlockIgnoresCancellation() async {
    @Loadable var report: LoadableState<String>
    let clock = ManualClock()
    let gate = Gate<Void>()
    let task: Task<Void, Never> = $report.load(policy: .timeout(.seconds(1), clock: clock)) {
      try await gate.passIgnoringCancellation()
      return "late"
    }
    await clock.sleepers(count: 1)
    await gate.arrival()
    clock.advance(by: .seconds(1))
    await task.value
    XCTAssertEqual(report, .error(TimeoutError()))
    gate.open()  // the block returns late; nothing may be written
    await Task.yield()
    XCTAssertEqual(report, .error(TimeoutError()))
  }

  func testABlockThatFinishesInTimeWritesItsValueAndStopsTheTimer() async {
    @Loadable var report: LoadableState<String>
    let clock = ManualClock()
    await $report.load(policy: .timeout(.seconds(10), clock: clock)) { "ok" }
    XCTAssertEqual(report, .loaded("ok"))
    XCTAssertEqual(clock.sleeperCount, 0, "the timer outlived the block")
  }

  func testPerAttemptTimeoutInsideRetry() async {
    @Loadable var report: LoadableState<String>
    let clock = ManualClock()
    let gate = Gate<Void>()
    var calls = 0
    let task: Task<Void, Never> = $report.load(
      policy: .retry(maxAttempts: 2, backoff: .immediate, clock: clock)
        .timeout(.seconds(5), clock: clock)
    ) {
      calls += 1
      if calls == 1 { try await gate.pass() }
      return "attempt \(calls)"
    }
    await gate.arrival()
    await clock.sleepers(count: 1)
    clock.advance(by: .seconds(5))
    await task.value
    XCTAssertEqual(report, .loaded("attempt 2"))
  }

  func testCancellingTheLoadCancelsTheRaceAtOnce() async {
    @Loadable var report: LoadableState<String>
    let clock = ManualClock()
    let gate = Gate<Void>()
    let task: Task<Void, Never> = $report.load(policy: .timeout(.seconds(10), clock: clock)) {
      try await gate.passIgnoringCancellation()
      return "late"
    }
    await gate.arrival()
    $report.cancel()
    await task.value
    XCTAssertEqual(report, .loading, "cancel leaves the state as it is")
    XCTAssertFalse($report.isRunning)
    gate.open()
  }
}

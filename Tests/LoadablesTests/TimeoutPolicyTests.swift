import Loadables
import LoadablesTesting
import XCTest

@MainActor
final class TimeoutPolicyTests: XCTestCase {
  func testABlockThatRunsTooLongEndsWithTimeoutError() async throws {
    @Loadable var report: LoadableState<String>
    let clock = ManualClock()
    let gate = Gate<Void>()
    let task: Task<Void, Never> = $report.load(policy: .timeout(.seconds(10), clock: clock)) {
      try await gate.pass()
      return "late"
    }
    try await clock.sleepers(count: 1)
    await gate.arrival()
    clock.advance(by: .seconds(10))
    await task.value
    XCTAssertEqual(report, .error(TimeoutError()))
    XCTAssertFalse($report.isRunning)
  }

  func testTheTimeoutFiresEvenWhenTheBlockIgnoresCancellation() async throws {
    @Loadable var report: LoadableState<String>
    let clock = ManualClock()
    let gate = Gate<Void>()
    let task: Task<Void, Never> = $report.load(policy: .timeout(.seconds(1), clock: clock)) {
      try await gate.passIgnoringCancellation()
      return "late"
    }
    try await clock.sleepers(count: 1)
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

  func testPerAttemptTimeoutInsideRetry() async throws {
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
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(5))
    await task.value
    XCTAssertEqual(report, .loaded("attempt 2"))
  }

  func testCancellingTheLoadRestoresTheStateAtOnceAndItsTaskEndsWithTheBlock() async {
    // Cancelling cancels the race: the state and `isRunning` change at once, the timer
    // goes, and the load's task ends once its block has stopped (here, a block that ignores
    // cancellation and returns late), as it does without a policy. Its late value is
    // dropped.
    @Loadable var report: LoadableState<String>
    let clock = ManualClock()
    let gate = Gate<Void>()
    let task: Task<Void, Never> = $report.load(policy: .timeout(.seconds(10), clock: clock)) {
      try await gate.passIgnoringCancellation()
      return "late"
    }
    await gate.arrival()
    $report.cancel()
    XCTAssertEqual(report, .absent, "cancel() must bring back what .loading replaced")
    XCTAssertFalse($report.isRunning)
    gate.open()
    await task.value
    XCTAssertEqual(report, .absent, "a cancelled load's late value was written")
    XCTAssertEqual(clock.sleeperCount, 0, "the timer outlived the cancelled race")
  }

  func testAtTheDeadlineTheBlockIsCancelled() async throws {
    @Loadable var report: LoadableState<String>
    let clock = ManualClock()
    let gate = Gate<Void>()
    var blockSaw: (any Error)?
    let task: Task<Void, Never> = $report.load(policy: .timeout(.seconds(3), clock: clock)) {
      do {
        try await gate.pass()
      } catch {
        blockSaw = error
        throw error
      }
      return "late"
    }
    await gate.arrival()
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(2))
    XCTAssertNil(blockSaw, "the block was cancelled before the deadline")
    XCTAssertEqual(report, .loading)
    clock.advance(by: .seconds(1))
    await task.value
    // The block runs in a task of its own; give it the turn in which it sees its cancellation.
    for _ in 0..<1_000 where blockSaw == nil { await Task.yield() }
    XCTAssertTrue(
      blockSaw is CancellationError, "the block was not cancelled: \(String(describing: blockSaw))")
    XCTAssertEqual(report, .error(TimeoutError()))
  }

  func testTheErrorIsATimeoutErrorOnAnAwaitedLoadToo() async throws {
    @Loadable var report: LoadableState<String>
    let clock = ManualClock()
    let gate = Gate<Void>()
    let caller = Task { @MainActor in
      await $report.load(policy: .timeout(.seconds(1), clock: clock)) {
        try await gate.passIgnoringCancellation()
        return "late"
      }
    }
    await gate.arrival()
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(1))
    await caller.value  // returns at the deadline, though the block still waits
    XCTAssertEqual(report, .error(TimeoutError()))
    XCTAssertEqual(gate.waiting, 1, "the block was expected to still be waiting")
    gate.open()
  }

  func testABlockThatFailsInTimeWritesItsOwnError() async {
    @Loadable var report: LoadableState<String>
    let clock = ManualClock()
    await $report.load(policy: .timeout(.seconds(10), clock: clock)) { throw TestError(code: 8) }
    XCTAssertEqual(report, .error(TestError(code: 8)))
    XCTAssertEqual(clock.sleeperCount, 0)
  }

  /// Inside a retry, each attempt gets the whole limit: two attempts of 4 s each pass a 5 s
  /// limit. Outside it, the attempts share the limit, which runs out during the second.
  func testPositionDecidesWhetherTheLimitIsPerAttemptOrOverall() async throws {
    /// Runs two attempts of 4 s (the first fails) and returns the state at 5 s and at 8 s.
    func run(
      _ policy: (ManualClock) -> LoadPolicy<String>
    ) async throws -> (atFive: LoadableState<String>, atEight: LoadableState<String>) {
      @Loadable var report: LoadableState<String>
      let clock = ManualClock()
      var calls = 0
      let task: Task<Void, Never> = $report.load(policy: policy(clock)) {
        calls += 1
        try await clock.sleep(for: .seconds(4))
        if calls == 1 { throw TestError(code: 1) }
        return "attempt \(calls)"
      }
      try await clock.sleepers(count: 2)  // a timer and attempt 1
      clock.advance(by: .seconds(4))
      for _ in 0..<1_000 where calls < 2 { await Task.yield() }
      try await clock.sleepers(count: 2)  // a timer and attempt 2
      clock.advance(by: .seconds(1))
      for _ in 0..<1_000 where $report.isRunning { await Task.yield() }
      let atFive = report
      clock.advance(by: .seconds(3))
      await task.value
      return (atFive, report)
    }
    let perAttempt = try await run { clock in
      .retry(maxAttempts: 2, backoff: .immediate, clock: clock).timeout(.seconds(5), clock: clock)
    }
    XCTAssertEqual(perAttempt.atFive, .loading, "attempt 2 was cut by attempt 1's limit")
    XCTAssertEqual(perAttempt.atEight, .loaded("attempt 2"))
    let overall = try await run { clock in
      .timeout(.seconds(5), clock: clock).retry(maxAttempts: 2, backoff: .immediate, clock: clock)
    }
    XCTAssertEqual(overall.atFive, .error(TimeoutError()), "the attempts did not share the limit")
    XCTAssertEqual(overall.atEight, .error(TimeoutError()))
  }
}

import Foundation
import Loadables
import LoadablesTesting
import XCTest

@MainActor
final class RetryPolicyTests: XCTestCase {
  func testFailedAttemptsDoNotFlashAnErrorAndTheRetrySucceeds() async throws {
    @Loadable var feed: LoadableState<[Int]>
    let recorder = StateRecorder($feed)
    let clock = ManualClock()
    var calls = 0
    let task: Task<Void, Never> = $feed.load(
      policy: .retry(maxAttempts: 3, backoff: .constant(.seconds(1)), clock: clock)
    ) {
      calls += 1
      if calls < 3 { throw TestError(code: calls) }
      return [calls]
    }
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(1))
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(1))
    await task.value
    XCTAssertEqual(calls, 3)
    XCTAssertEqual(recorder.states, [.absent, .loading, .loaded([3])])
    recorder.stop()
  }

  func testTheAttemptIsVisibleWhileTheRetryWaits() async throws {
    @Loadable var feed: LoadableState<[Int]>
    let clock = ManualClock()
    XCTAssertNil($feed.attempt)
    let gate = Gate<Void>()
    var calls = 0
    let task: Task<Void, Never> = $feed.load(
      policy: .retry(maxAttempts: 3, backoff: .constant(.seconds(2)), clock: clock)
    ) {
      calls += 1
      if calls == 1 { throw TestError(code: 1) }
      try await gate.pass()
      return [calls]
    }
    try await clock.sleepers(count: 1)
    let waiting = try XCTUnwrap($feed.attempt)
    XCTAssertEqual(waiting.number, 2)
    XCTAssertEqual(waiting.maxAttempts, 3)
    XCTAssertEqual(waiting.delay, .seconds(2))
    XCTAssertEqual(waiting.lastError as? TestError, TestError(code: 1))
    XCTAssertTrue(waiting.isWaiting)
    XCTAssertEqual(feed, .loading)
    clock.advance(by: .seconds(2))
    await gate.arrival()
    let running = try XCTUnwrap($feed.attempt)
    XCTAssertEqual(running.number, 2)
    XCTAssertFalse(running.isWaiting)
    gate.open()
    await task.value
    XCTAssertNil($feed.attempt, "the attempt outlived its load")
    XCTAssertEqual(feed, .loaded([2]))
  }

  func testShowsFailedAttemptsWritesEachErrorThenLoadingAgain() async throws {
    @Loadable var feed: LoadableState<[Int]>
    let recorder = StateRecorder($feed)
    let clock = ManualClock()
    var calls = 0
    let task: Task<Void, Never> = $feed.load(
      policy: .retry(
        maxAttempts: 2, backoff: .constant(.seconds(1)), showsFailedAttempts: true, clock: clock)
    ) {
      calls += 1
      if calls == 1 { throw TestError(code: 1) }
      return [2]
    }
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(1))
    await task.value
    XCTAssertEqual(
      recorder.states, [.absent, .loading, .error(TestError(code: 1)), .loading, .loaded([2])])
    recorder.stop()
  }

  func testTheLastFailureIsWrittenAfterMaxAttempts() async {
    @Loadable var feed: LoadableState<[Int]>
    var calls = 0
    await $feed.load(policy: .retry(maxAttempts: 3, backoff: .immediate)) {
      calls += 1
      throw TestError(code: calls)
    }
    XCTAssertEqual(calls, 3)
    XCTAssertEqual(feed, .error(TestError(code: 3)))
  }

  func testTheFilterDecidesWhichErrorsAreRetried() async {
    @Loadable var feed: LoadableState<[Int]>
    var calls = 0
    await $feed.load(
      policy: .retry(maxAttempts: 5, backoff: .immediate, when: { ($0 as? TestError)?.code != 2 })
    ) {
      calls += 1
      throw TestError(code: calls)
    }
    XCTAssertEqual(calls, 2, "error 2 must not be retried")
    XCTAssertEqual(feed, .error(TestError(code: 2)))
  }

  func testRetryAfterReplacesTheBackoff() async throws {
    struct Throttled: Error { let retryAfter: Duration }
    @Loadable var feed: LoadableState<[Int]>
    let clock = ManualClock()
    var calls = 0
    let task: Task<Void, Never> = $feed.load(
      policy: .retry(
        maxAttempts: 2, backoff: .constant(.seconds(1)),
        retryAfter: { ($0 as? Throttled)?.retryAfter }, clock: clock)
    ) {
      calls += 1
      if calls == 1 { throw Throttled(retryAfter: .seconds(7)) }
      return [1]
    }
    try await clock.sleepers(count: 1)
    XCTAssertEqual($feed.attempt?.delay, .seconds(7))
    clock.advance(by: .seconds(6))
    XCTAssertEqual(calls, 1, "retried before the server's retry-after")
    clock.advance(by: .seconds(1))
    await task.value
    XCTAssertEqual(calls, 2)
  }

  func testControlErrorsAndCancellationAreNeverRetried() async {
    @Loadable var feed: LoadableState<[Int]> = .loaded([0])
    var calls = 0
    await $feed.load(policy: .retry(maxAttempts: 3, backoff: .immediate)) {
      calls += 1
      throw CancelLoadable()
    }
    XCTAssertEqual(calls, 1)
    XCTAssertEqual(feed, .loaded([0]), "CancelLoadable must bring back what .loading replaced")
    await $feed.load(policy: .retry(maxAttempts: 3, backoff: .immediate)) {
      calls += 1
      throw ResetLoadable()
    }
    XCTAssertEqual(calls, 2)
    XCTAssertEqual(feed, .absent)
  }

  func testANewerLoadCancelsTheRetryWhileItWaits() async throws {
    @Loadable var feed: LoadableState<[Int]>
    let clock = ManualClock()
    var calls = 0
    let first: Task<Void, Never> = $feed.load(
      policy: .retry(maxAttempts: 3, backoff: .constant(.seconds(1)), clock: clock)
    ) {
      calls += 1
      throw TestError()
    }
    try await clock.sleepers(count: 1)
    let second: Task<Void, Never> = $feed.load { [9] }
    await first.value
    await second.value
    clock.advance(by: .seconds(5))
    XCTAssertEqual(calls, 1, "a superseded retry ran again")
    XCTAssertEqual(feed, .loaded([9]))
    XCTAssertEqual(clock.sleeperCount, 0)
  }

  func testEachRetryWaitsTheBackoffsDelayForItsNumber() async throws {
    @Loadable var feed: LoadableState<[Int]>
    let clock = ManualClock()
    var calls = 0
    let task: Task<Void, Never> = $feed.load(
      policy: .retry(
        maxAttempts: 3, backoff: .linear(initial: .seconds(1), increment: .seconds(2)),
        clock: clock)
    ) {
      calls += 1
      if calls < 3 { throw TestError(code: calls) }
      return [calls]
    }
    try await clock.sleepers(count: 1)
    XCTAssertEqual($feed.attempt?.delay, .seconds(1))
    clock.advance(by: .seconds(1))
    try await clock.sleepers(count: 1)
    XCTAssertEqual(calls, 2)
    XCTAssertEqual($feed.attempt?.number, 3)
    XCTAssertEqual($feed.attempt?.delay, .seconds(3), "retry 2 of a linear backoff waits 1 s + 2 s")
    clock.advance(by: .seconds(2))
    XCTAssertEqual(calls, 2, "the third attempt ran before its backoff ended")
    clock.advance(by: .seconds(1))
    await task.value
    XCTAssertEqual(calls, 3)
    XCTAssertEqual(feed, .loaded([3]))
  }

  func testTheBlockSeesTheNumberOfTheAttemptItRuns() async {
    @Loadable var feed: LoadableState<[Int]>
    var seen: [String] = []
    await $feed.load(policy: .retry(maxAttempts: 3, backoff: .immediate, clock: ManualClock())) {
      seen.append($feed.attempt.map(String.init(describing:)) ?? "nil")
      if seen.count < 3 { throw TestError(code: seen.count) }
      return [seen.count]
    }
    XCTAssertEqual(seen, ["attempt 1 of 3", "attempt 2 of 3", "attempt 3 of 3"])
    XCTAssertNil($feed.attempt)
  }

  func testAttemptChangesWakeObservers() async throws {
    @Loadable var feed: LoadableState<[Int]>
    let clock = ManualClock()
    let observer = ChangeCounter { _ = $feed.attempt }
    var calls = 0
    let task: Task<Void, Never> = $feed.load(
      policy: .retry(maxAttempts: 2, backoff: .constant(.seconds(1)), clock: clock)
    ) {
      calls += 1
      if calls == 1 { throw TestError() }
      return [calls]
    }
    try await clock.sleepers(count: 1)
    // Attempt 1 running, then attempt 2 waiting.
    XCTAssertGreaterThanOrEqual(observer.count, 2, "an observer of attempt was not woken")
    let beforeRetry = observer.count
    clock.advance(by: .seconds(1))
    await task.value
    XCTAssertGreaterThan(observer.count, beforeRetry, "attempt 2 running, then nil, not observed")
    XCTAssertNil($feed.attempt)
  }

  func testANegativeRetryAfterCountsAsZero() async throws {
    @Loadable var feed: LoadableState<[Int]>
    let clock = ManualClock()
    var calls = 0
    // The clock never moves: the retry must not wait on it at all.
    let task: Task<Void, Never> = $feed.load(
      policy: .retry(
        maxAttempts: 2, backoff: .constant(.seconds(60)), retryAfter: { _ in .seconds(-5) },
        clock: clock)
    ) {
      calls += 1
      if calls == 1 { throw TestError() }
      return [calls]
    }
    await yieldUntil { !$feed.isRunning }
    XCTAssertEqual(clock.sleeperCount, 0, "the retry waited on the clock")
    XCTAssertEqual(calls, 2)
    XCTAssertEqual(feed, .loaded([2]))
    $feed.cancel()
    await task.value
  }

  func testANegativeRetryAfterIsShownAndWaitedAsZero() async throws {
    @Loadable var feed: LoadableState<[Int]>
    let clock = RecordingClock()
    var calls = 0
    var attemptsSeen: [RetryAttempt] = []
    let observer = ChangeCounter { if let attempt = $feed.attempt { attemptsSeen.append(attempt) } }
    let task: Task<Void, Never> = $feed.load(
      policy: .retry(
        maxAttempts: 2, backoff: .constant(.seconds(60)), retryAfter: { _ in .seconds(-5) },
        clock: clock)
    ) {
      calls += 1
      if calls == 1 { throw TestError() }
      return [calls]
    }
    await yieldUntil { !$feed.isRunning }
    $feed.cancel()
    await task.value
    XCTAssertEqual(clock.requested, [.zero], "the retry asked the clock for a negative wait")
    XCTAssertGreaterThan(observer.count, 0)
    XCTAssertTrue(attemptsSeen.contains { $0.delay == .zero }, "\(attemptsSeen)")
    XCTAssertFalse(attemptsSeen.contains { ($0.delay ?? .zero) < .zero }, "\(attemptsSeen)")
  }

  func testRetryAfterReturningNilKeepsTheBackoff() async throws {
    @Loadable var feed: LoadableState<[Int]>
    let clock = ManualClock()
    var calls = 0
    let task: Task<Void, Never> = $feed.load(
      policy: .retry(
        maxAttempts: 2, backoff: .constant(.seconds(3)), retryAfter: { _ in nil }, clock: clock)
    ) {
      calls += 1
      if calls == 1 { throw TestError() }
      return [calls]
    }
    try await clock.sleepers(count: 1)
    XCTAssertEqual($feed.attempt?.delay, .seconds(3))
    clock.advance(by: .seconds(3))
    await task.value
    XCTAssertEqual(calls, 2)
  }

  func testAFilteredOutErrorEndsTheLoadWithoutWaiting() async {
    @Loadable var feed: LoadableState<[Int]>
    let clock = ManualClock()
    var calls = 0
    let task: Task<Void, Never> = $feed.load(
      policy: .retry(
        maxAttempts: 3, backoff: .constant(.seconds(1)), when: { $0 is TestError }, clock: clock)
    ) {
      calls += 1
      throw OpaqueError()
    }
    await yieldUntil { !$feed.isRunning }
    XCTAssertEqual(clock.sleeperCount, 0, "an error the filter refused was retried")
    $feed.cancel()
    await task.value
    XCTAssertEqual(calls, 1)
    guard case .error(let error) = feed else { return XCTFail("got \(feed)") }
    XCTAssertTrue(error is OpaqueError)
  }

  func testOneAttemptMeansNoRetry() async {
    @Loadable var feed: LoadableState<[Int]>
    let clock = ManualClock()
    var calls = 0
    let task: Task<Void, Never> = $feed.load(policy: .retry(maxAttempts: 1, clock: clock)) {
      calls += 1
      throw TestError(code: calls)
    }
    await yieldUntil { !$feed.isRunning }
    XCTAssertEqual(clock.sleeperCount, 0, "a single attempt waited to retry")
    $feed.cancel()
    await task.value
    XCTAssertEqual(calls, 1)
    XCTAssertEqual(feed, .error(TestError(code: 1)))
  }

  func testASilentRetryNeverWritesLoadingBetweenAttempts() async throws {
    @Loadable var feed: LoadableState<[Int]> = .loaded([0])
    let recorder = StateRecorder($feed)
    var calls = 0
    await $feed.load(
      silently: true, policy: .retry(maxAttempts: 3, backoff: .immediate, clock: ManualClock())
    ) {
      calls += 1
      if calls < 3 { throw TestError(code: calls) }
      return [calls]
    }
    XCTAssertEqual(recorder.states, [.loaded([0]), .loaded([3])])
    recorder.stop()
  }

  func testASilentRetryThatShowsFailedAttemptsWritesOnlyTheErrors() async throws {
    @Loadable var feed: LoadableState<[Int]> = .loaded([0])
    let recorder = StateRecorder($feed)
    var calls = 0
    await $feed.load(
      silently: true,
      policy: .retry(
        maxAttempts: 3, backoff: .immediate, showsFailedAttempts: true, clock: ManualClock())
    ) {
      calls += 1
      if calls < 3 { throw TestError(code: calls) }
      return [calls]
    }
    XCTAssertEqual(
      recorder.states,
      [.loaded([0]), .error(TestError(code: 1)), .error(TestError(code: 2)), .loaded([3])])
    recorder.stop()
  }

  func testAProcessShowsFailedAttemptsAsFailedThenRunningAgain() async throws {
    enum Job: Equatable, Sendable { case save }
    @LoadableProcess var saving: ProcessState<Job>
    let recorder = StateRecorder($saving)
    var calls = 0
    await $saving.run(
      .save,
      policy: .retry(
        maxAttempts: 3, backoff: .immediate, showsFailedAttempts: true, clock: ManualClock())
    ) {
      calls += 1
      if calls < 3 { throw TestError(code: calls) }
    }
    XCTAssertEqual(
      recorder.states,
      [
        .idle, .running(.save), .failed(process: .save, error: TestError(code: 1)),
        .running(.save), .failed(process: .save, error: TestError(code: 2)), .running(.save),
        .finished(.save),
      ])
    recorder.stop()
  }

  func testAProcessHidesFailedAttemptsByDefault() async throws {
    @LoadableProcess var saving: SingleProcessState
    let recorder = StateRecorder($saving)
    var calls = 0
    await $saving.run(policy: .retry(maxAttempts: 2, backoff: .immediate, clock: ManualClock())) {
      calls += 1
      if calls < 2 { throw TestError(code: calls) }
    }
    XCTAssertEqual(recorder.states.count, 3, "\(recorder.states)")
    XCTAssertTrue(recorder.states[1].isRunning)
    XCTAssertTrue(recorder.states[2].hasFinished)
    recorder.stop()
  }

  func testAFailedLoadClearsTheAttempt() async {
    @Loadable var feed: LoadableState<[Int]>
    await $feed.load(policy: .retry(maxAttempts: 2, backoff: .immediate, clock: ManualClock())) {
      throw TestError()
    }
    XCTAssertNil($feed.attempt)
    XCTAssertEqual(feed, .error(TestError()))
  }
}

/// A manual clock that records every wait asked of it, measured from the time of asking.
private final class RecordingClock: Clock, @unchecked Sendable {
  // Safe to share: `waits` is read and written only while holding `lock`.
  private let base = ManualClock()
  private let lock = NSLock()
  private var waits: [Duration] = []

  var now: ManualClock.Instant { base.now }
  var minimumResolution: Duration { .zero }
  var requested: [Duration] { lock.withLock { waits } }

  func sleep(until deadline: ManualClock.Instant, tolerance: Duration?) async throws {
    let wait = base.now.duration(to: deadline)
    lock.withLock { waits.append(wait) }
    try await base.sleep(until: deadline, tolerance: tolerance)
  }
}

/// A retry on a manual clock wakes when the test advances by exactly the documented delay.
@MainActor
final class RetryExactDelayTests: XCTestCase {
  func testAdvancingByEachDocumentedDelayWakesEachRetry() async throws {
    @Loadable var feed: LoadableState<Int>
    let clock = ManualClock()
    var calls = 0
    let task: Task<Void, Never> = $feed.load(
      policy: .retry(
        maxAttempts: 5, backoff: .exponential(initial: .milliseconds(200), jitter: .none),
        clock: clock)
    ) {
      calls += 1
      if calls < 5 { throw TestError(code: calls) }
      return calls
    }
    for (retry, delay) in [200, 400, 800, 1600].map(Duration.milliseconds).enumerated() {
      try await waitUntil("retry \(retry + 1) to wait", seen: "\(calls) calls") {
        calls == retry + 1 && clock.sleeperCount == 1
      }
      XCTAssertEqual($feed.attempt?.delay, delay)
      clock.advance(by: delay)
      try await waitUntil(
        "attempt \(retry + 2) after advancing \(delay)",
        timeout: .seconds(1),
        seen: "\(calls) calls, sleepers at \(clock.sleeperDeadlines), clock at \(clock.now.offset)"
      ) { calls == retry + 2 }
    }
    await task.value
    XCTAssertEqual(feed, .loaded(5))
  }
}

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
    await clock.sleepers(count: 1)
    clock.advance(by: .seconds(1))
    await clock.sleepers(count: 1)
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
    await clock.sleepers(count: 1)
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
    await clock.sleepers(count: 1)
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
    await clock.sleepers(count: 1)
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
    XCTAssertEqual(feed, .loading)
    await $feed.load(policy: .retry(maxAttempts: 3, backoff: .immediate)) {
      calls += 1
      throw ResetLoadable()
    }
    XCTAssertEqual(calls, 2)
    XCTAssertEqual(feed, .absent)
  }

  func testANewerLoadCancelsTheRetryWhileItWaits() async {
    @Loadable var feed: LoadableState<[Int]>
    let clock = ManualClock()
    var calls = 0
    let first: Task<Void, Never> = $feed.load(
      policy: .retry(maxAttempts: 3, backoff: .constant(.seconds(1)), clock: clock)
    ) {
      calls += 1
      throw TestError()
    }
    await clock.sleepers(count: 1)
    let second: Task<Void, Never> = $feed.load { [9] }
    await first.value
    await second.value
    clock.advance(by: .seconds(5))
    XCTAssertEqual(calls, 1, "a superseded retry ran again")
    XCTAssertEqual(feed, .loaded([9]))
    XCTAssertEqual(clock.sleeperCount, 0)
  }
}

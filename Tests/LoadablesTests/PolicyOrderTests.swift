import Loadables
import LoadablesTesting
import XCTest

@MainActor
final class PolicyOrderTests: XCTestCase {
  func testPoliciesApplyInTheOrderWrittenOutermostFirst() async {
    var trace: [String] = []
    func step(_ name: String) -> LoadPolicy<Int> {
      .around(name) { operation in
        trace.append("enter \(name)")
        defer { trace.append("leave \(name)") }
        return try await operation()
      }
    }
    let policy = step("a").then(step("b")).then(step("c"))
    XCTAssertEqual(policy.description, "a → b → c")
    @Loadable var value: LoadableState<Int>
    await $value.load(policy: policy) {
      trace.append("block")
      return 1
    }
    XCTAssertEqual(
      trace, ["enter a", "enter b", "enter c", "block", "leave c", "leave b", "leave a"])
  }

  func testTimeoutOutsideRetryLimitsAllAttemptsTogether() async throws {
    @Loadable var value: LoadableState<Int>
    let clock = ManualClock()
    var calls = 0
    let task: Task<Void, Never> = $value.load(
      policy: .timeout(.seconds(10), clock: clock)
        .retry(maxAttempts: 5, backoff: .constant(.seconds(4)), clock: clock)
    ) {
      calls += 1
      throw TestError(code: calls)
    }
    // Attempt 1 fails at 0 s, 2 at 4 s, 3 at 8 s; the retry's wait until 12 s is cut at 10 s.
    for _ in 0..<2 {
      try await clock.sleepers(count: 2)
      clock.advance(by: .seconds(4))
    }
    try await clock.sleepers(count: 2)
    clock.advance(by: .seconds(2))
    await task.value
    XCTAssertEqual(calls, 3)
    XCTAssertEqual(value, .error(TimeoutError()))
  }

  func testALimitOutsideARetryHoldsItsPermitThroughTheBackoff() async throws {
    let limiter = ConcurrencyLimiter(limit: 1)
    let clock = ManualClock()
    let permitDuringBackoff = try await runningCountDuringBackoff(
      .limit(limiter).retry(maxAttempts: 2, backoff: .constant(.seconds(1)), clock: clock),
      limiter: limiter, clock: clock)
    XCTAssertEqual(permitDuringBackoff, 1, "one permit must cover every attempt")
  }

  func testALimitInsideARetryTakesAPermitPerAttempt() async throws {
    let limiter = ConcurrencyLimiter(limit: 1)
    let clock = ManualClock()
    let permitDuringBackoff = try await runningCountDuringBackoff(
      .retry(maxAttempts: 2, backoff: .constant(.seconds(1)), clock: clock).limit(limiter),
      limiter: limiter, clock: clock)
    XCTAssertEqual(permitDuringBackoff, 0, "the permit must be given back between attempts")
  }

  /// Runs a load whose first attempt fails under `policy`, and returns how many permits
  /// `limiter` had out while the retry waited.
  private func runningCountDuringBackoff(
    _ policy: LoadPolicy<Int>, limiter: ConcurrencyLimiter, clock: ManualClock
  ) async throws -> Int {
    @Loadable var value: LoadableState<Int>
    var calls = 0
    let task: Task<Void, Never> = $value.load(policy: policy) {
      calls += 1
      if calls == 1 { throw TestError() }
      return calls
    }
    try await clock.sleepers(count: 1)
    let during = limiter.runningCount
    clock.advance(by: .seconds(1))
    await task.value
    XCTAssertEqual(value, .loaded(2))
    XCTAssertEqual(limiter.runningCount, 0)
    return during
  }

  func testADebounceOutsideARetryWaitsOnceAndInsideItWaitsPerAttempt() async {
    /// How many debounce waits a load of three attempts (two failing) makes.
    func waits(_ policy: (ManualClock) -> LoadPolicy<Int>) async -> Int {
      @Loadable var value: LoadableState<Int>
      let clock = ManualClock()
      var calls = 0
      let task: Task<Void, Never> = $value.load(policy: policy(clock)) {
        calls += 1
        if calls < 3 { throw TestError(code: calls) }
        return calls
      }
      var waits = 0
      while calls < 3 {
        await yieldUntil { clock.sleeperCount >= 1 || calls >= 3 }
        if clock.sleeperCount == 0 { break }
        waits += 1
        clock.advance(by: .seconds(1))
        for _ in 0..<1_000 where clock.sleeperCount == 0 && calls < 3 { await Task.yield() }
      }
      await task.value
      XCTAssertEqual(value, .loaded(3))
      return waits
    }
    let outside = await waits { clock in
      .debounce(for: .seconds(1), clock: clock).retry(
        maxAttempts: 3, backoff: .immediate, clock: clock)
    }
    let inside = await waits { clock in
      .retry(maxAttempts: 3, backoff: .immediate, clock: clock).debounce(
        for: .seconds(1), clock: clock)
    }
    XCTAssertEqual(outside, 1)
    XCTAssertEqual(inside, 3)
  }

  func testACacheShowsItsValueAtTheStartWhereverItIsWritten() async {
    let clock = ManualClock()
    let cache = LoadCache<Int, String>(timeToLive: .seconds(10), clock: clock)
    cache.insert("stale", for: 1)
    clock.advance(by: .seconds(20))
    @Loadable var value: LoadableState<String>
    let recorder = StateRecorder($value)
    let gate = Gate<Void>()
    let task: Task<Void, Never> = $value.load(
      policy: .debounce(for: .seconds(1), clock: clock).retry(
        maxAttempts: 2, backoff: .immediate, clock: clock
      ).cache(cache, key: 1)
    ) {
      try await gate.pass()
      return "refreshed"
    }
    XCTAssertEqual(value, .loaded("stale"), "the cache written last did not show at the start")
    await yieldUntil { clock.sleeperCount >= 1 || gate.arrived > 0 }
    XCTAssertEqual(clock.sleeperCount, 1, "the debounce did not wait")
    clock.advance(by: .seconds(1))
    await gate.arrival()
    gate.open()
    await task.value
    XCTAssertEqual(recorder.states, [.absent, .loaded("stale"), .loaded("refreshed")])
    XCTAssertEqual(cache.value(for: 1), "refreshed")
    recorder.stop()
  }

  func testACacheOutsideARetryStoresTheValueOfTheLastAttempt() async {
    let cache = LoadCache<Int, String>(timeToLive: .seconds(60), clock: ManualClock())
    @Loadable var value: LoadableState<String>
    var calls = 0
    await $value.load(
      policy: .cache(cache, key: 1).retry(maxAttempts: 3, backoff: .immediate, clock: ManualClock())
    ) {
      calls += 1
      if calls < 3 { throw TestError(code: calls) }
      return "attempt \(calls)"
    }
    XCTAssertEqual(cache.value(for: 1), "attempt 3")
  }

  /// All six policies in one expression, applied in the order written: the debounce waits,
  /// the limiter lets the load in, the retry makes a second attempt, each attempt timed, the
  /// cache stores the value that the shared fetch returns.
  func testAllSixPoliciesComposeInOneExpression() async throws {
    let clock = ManualClock()
    let limiter = ConcurrencyLimiter(limit: 2)
    let cache = LoadCache<Int, String>(timeToLive: .seconds(60), clock: clock)
    let requests = Deduplicator<Int, String>()
    let policy = LoadPolicy<String>
      .debounce(for: .milliseconds(300), clock: clock)
      .limit(limiter)
      .retry(maxAttempts: 3, backoff: .constant(.seconds(1), jitter: .none), clock: clock)
      .timeout(.seconds(5), clock: clock)
      .cache(cache, key: 1)
      .dedupe(requests, key: 1)
    XCTAssertEqual(
      policy.description,
      "debounce(0.3 seconds) → limit(2) → retry(maxAttempts: 3, backoff: constant(1.0 seconds))"
        + " → timeout(5.0 seconds) → cache(key: 1) → dedupe(key: 1)")
    @Loadable var value: LoadableState<String>
    var calls = 0
    let task: Task<Void, Never> = $value.load(policy: policy) {
      calls += 1
      if calls == 1 { throw TestError(code: 1) }
      return "value \(calls)"
    }
    await yieldUntil { clock.sleeperCount >= 1 || calls > 0 }  // the debounce
    XCTAssertEqual(calls, 0, "the block ran before the debounce")
    clock.advance(by: .milliseconds(300))
    for _ in 0..<1_000 where calls < 1 || $value.attempt?.isWaiting != true { await Task.yield() }
    XCTAssertEqual($value.attempt?.number, 2)
    XCTAssertEqual(limiter.runningCount, 1, "the permit is held through the retry")
    try await clock.sleepers(count: 1)  // the backoff
    clock.advance(by: .seconds(1))
    await yieldUntil { !$value.isRunning }
    $value.cancel()
    await task.value
    XCTAssertEqual(value, .loaded("value 2"))
    XCTAssertEqual(cache.value(for: 1), "value 2")
    XCTAssertEqual(limiter.runningCount, 0)
    XCTAssertEqual(requests.inFlightCount, 0)
    XCTAssertEqual(clock.sleeperCount, 0, "a timer outlived the load")
    // The cached value now completes the same load at once, before any debounce.
    guard cache.value(for: 1) != nil else { return }
    let again: Task<Void, Never> = $value.load(policy: policy) { "never" }
    XCTAssertFalse($value.isRunning, "a cached value did not complete the load at once")
    $value.cancel()
    await again.value
    XCTAssertEqual(value, .loaded("value 2"))
    XCTAssertEqual(calls, 2)
  }
}

import Loadables
import LoadablesTesting
import XCTest

@MainActor
final class DebouncePolicyTests: XCTestCase {
  func testOnlyTheLastLoadOfABurstRuns() async {
    @Loadable var results: LoadableState<String>
    let clock = ManualClock()
    var searched: [String] = []
    var tasks: [Task<Void, Never>] = []
    for query in ["s", "sw", "swi"] {
      tasks.append(
        $results.load(policy: .debounce(for: .milliseconds(300), clock: clock)) {
          searched.append(query)
          return query
        })
      await clock.sleepers(count: 1)
      clock.advance(by: .milliseconds(100))
    }
    XCTAssertEqual(searched, [], "a debounced load ran before the interval")
    clock.advance(by: .milliseconds(200))
    for task in tasks { await task.value }
    XCTAssertEqual(searched, ["swi"])
    XCTAssertEqual(results, .loaded("swi"))
  }

  func testALeadingDebouncerRunsTheFirstCallAtOnce() async {
    @Loadable var results: LoadableState<String>
    let clock = ManualClock()
    let debouncer = Debouncer(for: .seconds(1), leading: true, clock: clock)
    await $results.load(policy: .debounce(debouncer)) { "first" }
    XCTAssertEqual(results, .loaded("first"))
    let second: Task<Void, Never> = $results.load(policy: .debounce(debouncer)) { "second" }
    await clock.sleepers(count: 1)
    XCTAssertEqual(results, .loading, "a call within the interval must wait")
    clock.advance(by: .seconds(1))
    await second.value
    XCTAssertEqual(results, .loaded("second"))
    clock.advance(by: .seconds(5))
    await $results.load(policy: .debounce(debouncer)) { "after quiet" }
    XCTAssertEqual(results, .loaded("after quiet"))
  }
}

@MainActor
final class CachePolicyTests: XCTestCase {
  func testAFreshValueIsShownAtOnceWithoutFetching() async {
    let clock = ManualClock()
    let cache = LoadCache<Int, String>(timeToLive: .seconds(60), clock: clock)
    @Loadable var profile: LoadableState<String>
    var fetches = 0
    await $profile.load(policy: .cache(cache, key: 1)) {
      fetches += 1
      return "Ada"
    }
    let recorder = StateRecorder($profile)
    $profile.reset()
    let _: Task<Void, Never> = $profile.load(policy: .cache(cache, key: 1)) {
      fetches += 1
      return "new"
    }
    XCTAssertEqual(profile, .loaded("Ada"), "the cached value must show synchronously")
    XCTAssertFalse($profile.isRunning)
    XCTAssertEqual(fetches, 1)
    XCTAssertEqual(recorder.states, [.loaded("Ada"), .absent, .loaded("Ada")])
    recorder.stop()
  }

  func testAStaleValueShowsAtOnceThenRefreshesSilently() async throws {
    let clock = ManualClock()
    let cache = LoadCache<Int, String>(timeToLive: .seconds(60), clock: clock)
    cache.insert("old", for: 1)
    clock.advance(by: .seconds(61))
    @Loadable var profile: LoadableState<String>
    let recorder = StateRecorder($profile)
    let gate = Gate<String>()
    let task: Task<Void, Never> = $profile.load(policy: .cache(cache, key: 1)) {
      try await gate.pass()
    }
    XCTAssertEqual(profile, .loaded("old"))
    XCTAssertTrue($profile.isRunning)
    gate.open("new")
    await task.value
    XCTAssertEqual(recorder.states, [.absent, .loaded("old"), .loaded("new")])
    XCTAssertEqual(cache.entry(for: 1)?.freshness, .fresh)
    XCTAssertEqual(cache.value(for: 1), "new")
    recorder.stop()
  }

  func testAnExpiredValueIsDroppedAndTheLoadShowsLoading() async {
    let clock = ManualClock()
    let cache = LoadCache<Int, String>(
      timeToLive: .seconds(10), staleWhileRevalidate: .seconds(10), clock: clock)
    cache.insert("old", for: 1)
    clock.advance(by: .seconds(20))
    @Loadable var profile: LoadableState<String>
    let recorder = StateRecorder($profile)
    await $profile.load(policy: .cache(cache, key: 1)) { "new" }
    XCTAssertEqual(recorder.states, [.absent, .loading, .loaded("new")])
    recorder.stop()
  }

  func testInvalidationMakesTheNextLoadRefreshAndDropsAnOlderFetch() async {
    let clock = ManualClock()
    let cache = LoadCache<Int, String>(timeToLive: .seconds(60), clock: clock)
    cache.insert("v1", for: 1)
    cache.invalidate(1)
    XCTAssertEqual(cache.entry(for: 1)?.freshness, .stale)
    @Loadable var profile: LoadableState<String>
    let gate = Gate<String>()
    let task: Task<Void, Never> = $profile.load(policy: .cache(cache, key: 1)) {
      try await gate.pass()
    }
    await gate.arrival()
    cache.invalidate(1)  // something changed while the fetch ran
    gate.open("v2 (fetched before the change)")
    await task.value
    XCTAssertEqual(profile, .loaded("v2 (fetched before the change)"))
    XCTAssertEqual(cache.value(for: 1), "v1", "an older fetch overwrote a newer invalidation")
  }

  func testTheLeastRecentlyUsedEntryIsEvicted() {
    let cache = LoadCache<Int, String>(
      timeToLive: .seconds(60), maxEntries: 2, clock: ManualClock())
    cache.insert("a", for: 1)
    cache.insert("b", for: 2)
    _ = cache.value(for: 1)  // 1 is now the most recently used
    cache.insert("c", for: 3)
    XCTAssertEqual(cache.count, 2)
    XCTAssertEqual(cache.value(for: 1), "a")
    XCTAssertNil(cache.value(for: 2))
    XCTAssertEqual(cache.value(for: 3), "c")
  }
}

@MainActor
final class DedupePolicyTests: XCTestCase {
  func testConcurrentLoadsOfOneKeyShareOneFetch() async {
    let requests = Deduplicator<Int, String>()
    @Loadable var first: LoadableState<String>
    @Loadable var second: LoadableState<String>
    let gate = Gate<String>()
    var fetches = 0
    let a: Task<Void, Never> = $first.load(policy: .dedupe(requests, key: 7)) {
      fetches += 1
      return try await gate.pass()
    }
    await gate.arrival()
    let b: Task<Void, Never> = $second.load(policy: .dedupe(requests, key: 7)) {
      fetches += 1
      return "second fetch"
    }
    while requests.callerCount(for: 7) < 2 { await Task.yield() }
    gate.open("shared")
    await a.value
    await b.value
    XCTAssertEqual(fetches, 1)
    XCTAssertEqual(first, .loaded("shared"))
    XCTAssertEqual(second, .loaded("shared"))
    XCTAssertEqual(requests.inFlightCount, 0)
  }

  func testCancellingOneCallerLeavesTheFetchForTheOthers() async {
    let requests = Deduplicator<Int, String>()
    @Loadable var first: LoadableState<String>
    @Loadable var second: LoadableState<String>
    let gate = Gate<String>()
    let a: Task<Void, Never> = $first.load(policy: .dedupe(requests, key: 7)) {
      try await gate.pass()
    }
    await gate.arrival()
    let b: Task<Void, Never> = $second.load(policy: .dedupe(requests, key: 7)) { "unused" }
    while requests.callerCount(for: 7) < 2 { await Task.yield() }
    $first.cancel()
    await a.value
    XCTAssertEqual(requests.callerCount(for: 7), 1)
    gate.open("shared")
    await b.value
    XCTAssertEqual(second, .loaded("shared"))
    XCTAssertEqual(first, .loading, "the cancelled caller wrote")
  }

  func testCancellingEveryCallerCancelsTheFetch() async {
    let requests = Deduplicator<Int, String>()
    @Loadable var first: LoadableState<String>
    let gate = Gate<String>()
    let fetchEnded = Gate<Void>()
    let a: Task<Void, Never> = $first.load(policy: .dedupe(requests, key: 7)) {
      do {
        return try await gate.pass()
      } catch {
        fetchEnded.open()
        throw error
      }
    }
    await gate.arrival()
    $first.cancel()
    await a.value
    _ = try? await fetchEnded.pass()  // returns once the shared fetch saw its cancellation
    XCTAssertEqual(requests.inFlightCount, 0)
  }
}

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

  func testTimeoutOutsideRetryLimitsAllAttemptsTogether() async {
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
      await clock.sleepers(count: 2)
      clock.advance(by: .seconds(4))
    }
    await clock.sleepers(count: 2)
    clock.advance(by: .seconds(2))
    await task.value
    XCTAssertEqual(calls, 3)
    XCTAssertEqual(value, .error(TimeoutError()))
  }
}

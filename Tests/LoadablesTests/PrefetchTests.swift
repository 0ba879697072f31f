import Loadables
import LoadablesTesting
import XCTest

/// Prefetching shared entries at a low priority, and a screen's load that joins a prefetch
/// waiting in a limiter.
@MainActor
final class PrefetchTests: XCTestCase {
  // MARK: - When a prefetch fetches

  func testAPrefetchFetchesAnEntryWithNoValueAndALaterLoadUsesIt() async throws {
    let store = LoaderStore()
    let server = CountingServer()
    let gate = Gate<String>()
    let post = store.prefetch(for: ["posts", 1], staleTime: .seconds(60)) {
      try await server.answer(gate)
    }
    XCTAssertTrue(post.isRunning)
    XCTAssertEqual(post.state, .loading, "an entry with no value shows its prefetch runs")
    gate.open("hello")
    let state = await post.load()  // joins the prefetch
    XCTAssertEqual(state, .loaded("hello"))
    await post.load()  // fresh: nothing fetched
    XCTAssertEqual(server.calls, 1)
    XCTAssertTrue(store.existingLoader(for: ["posts", 1], as: String.self) === post)
  }

  func testADefinitionIsPrefetchedByTheStoreAndTheScreenReadsTheSameEntry() async throws {
    struct Greeting: LoadDefinition {
      let gate: Gate<String>
      var key: LoadKey { ["greeting"] }
      var staleTime: Duration? { .seconds(60) }
      func fetch() async throws -> String { try await gate.pass() }
    }
    let store = LoaderStore()
    let gate = Gate<String>()
    let warmed = store.prefetch(Greeting(gate: gate), ifOlderThan: .seconds(30))
    XCTAssertTrue(warmed.isRunning, "the prefetch did not start a fetch")
    await gate.arrival()
    let screen = store.loader(for: Greeting(gate: gate))
    XCTAssertTrue(screen === warmed)
    gate.open("hello")
    let state = await screen.load()
    XCTAssertEqual(state, .loaded("hello"))
    XCTAssertEqual(gate.arrived, 1, "the screen fetched again")
    store.prefetch(Greeting(gate: gate), ifOlderThan: .seconds(30))
    XCTAssertFalse(warmed.isRunning, "a fresh value was prefetched again")
  }

  func testAPrefetchSkipsAValueYoungerThanTheAgeAndRefreshesAnOlderOneSilently() async throws {
    let clock = ManualClock()
    let store = LoaderStore(clock: clock)
    let server = CountingServer()
    let gate = Gate<String>()
    let next = NextGate()
    let post = store.loader(for: ["posts", 1], staleTime: .seconds(60)) {
      try await server.answer(next.gate, "v1")
    }
    await post.load()
    XCTAssertEqual(post.state, .loaded("v1"))

    clock.advance(by: .seconds(29))
    XCTAssertFalse(post.prefetch(ifOlderThan: .seconds(30)), "a recent value was fetched again")
    XCTAssertFalse(post.isRunning)

    clock.advance(by: .seconds(1))
    // Fresh for the entry (its stale time is a minute), but older than the prefetch allows.
    XCTAssertFalse(post.isStale)
    next.gate = gate
    XCTAssertTrue(post.prefetch(ifOlderThan: .seconds(30)))
    XCTAssertTrue(post.isRunning)
    await gate.arrival()
    XCTAssertEqual(post.state, .loaded("v1"), "the prefetch blanked the value")
    gate.open("v2")
    await post.load()
    XCTAssertEqual(post.state, .loaded("v2"))
    XCTAssertEqual(server.calls, 2)
  }

  func testWithoutAnAgeAPrefetchFetchesOnlyAStaleEntry() async {
    let clock = ManualClock()
    let store = LoaderStore(clock: clock)
    let server = CountingServer()
    let post = store.loader(for: ["posts", 1], staleTime: .seconds(60)) {
      try await server.answer(nil, "v\(server.calls + 1)")
    }
    await post.load()
    clock.advance(by: .seconds(59))
    XCTAssertFalse(post.prefetch())
    clock.advance(by: .seconds(1))
    XCTAssertTrue(post.prefetch())
    await post.load()
    XCTAssertEqual(post.state, .loaded("v2"))
    XCTAssertEqual(server.calls, 2)
  }

  func testAnInvalidatedEntryIsPrefetchedWhateverItsAge() async {
    let store = LoaderStore(clock: ManualClock())
    let server = CountingServer()
    let post = store.loader(for: ["posts", 1], staleTime: .seconds(60)) {
      try await server.answer(nil, "v\(server.calls + 1)")
    }
    await post.load()
    XCTAssertFalse(post.prefetch(ifOlderThan: .seconds(30)))
    store.invalidate(["posts"])
    XCTAssertTrue(post.prefetch(ifOlderThan: .seconds(30)))
    await post.load()
    XCTAssertEqual(post.state, .loaded("v2"))
  }

  func testAPrefetchDoesNothingWhileAFetchRuns() async {
    let store = LoaderStore()
    let server = CountingServer()
    let gate = Gate<String>()
    let post = store.loader(for: ["posts", 1]) { try await server.answer(gate) }
    let screen = Task { await post.load() }
    await gate.arrival()
    XCTAssertFalse(post.prefetch(ifOlderThan: .zero))
    let again = store.prefetch(for: ["posts", 1], ifOlderThan: .zero) { "never" }
    XCTAssertTrue(again === post)
    gate.open("v")
    _ = await screen.value
    XCTAssertEqual(post.state, .loaded("v"))
    XCTAssertEqual(server.calls, 1)
  }

  // MARK: - Priority in a limiter

  /// Loads a shared entry under `limiter` whose fetch records its name in `order`.
  private func entry(
    _ name: String, in store: LoaderStore, _ limiter: ConcurrencyLimiter,
    order: @escaping @MainActor (String) -> Void
  ) -> SharedLoader<String> {
    store.loader(for: [name], staleTime: .seconds(3600), policy: .limit(limiter)) {
      order(name)
      return name
    }
  }

  /// Holds `limiter`'s one permit until the returned gate opens, in a load of `holder`
  /// (which the caller keeps: a wrapper that goes away cancels its load).
  private func hold(_ limiter: ConcurrencyLimiter, in holder: Loadable<Int>) async -> (
    Gate<Void>, Task<Void, Never>
  ) {
    let gate = Gate<Void>()
    let task: Task<Void, Never> = holder.projectedValue.load(policy: .limit(limiter)) {
      try await gate.pass()
      return 0
    }
    await gate.arrival()
    return (gate, task)
  }

  func testPrefetchesWaitBehindScreensLoads() async {
    let limiter = ConcurrencyLimiter(limit: 1)
    let store = LoaderStore()
    var order: [String] = []
    let record: @MainActor (String) -> Void = { order.append($0) }
    let holder = Loadable<Int>()
    let (gate, holding) = await hold(limiter, in: holder)
    let later = entry("later", in: store, limiter, order: record)
    let visible = entry("visible", in: store, limiter, order: record)
    let opened = entry("opened", in: store, limiter, order: record)
    XCTAssertTrue(later.prefetch())
    XCTAssertTrue(visible.prefetch(priority: .visible))
    let screen = Task { await opened.load() }
    await yieldUntil { limiter.waitingCount == 3 }
    XCTAssertEqual(limiter.waitingCount, 3)
    gate.open()
    await holding.value
    _ = await screen.value
    await later.load()
    await visible.load()
    XCTAssertEqual(order, ["opened", "visible", "later"])
  }

  /// The screen opens the second of two waiting prefetches: it joins that prefetch, which
  /// is served first, at the screen's priority, and fetched once.
  func testAScreenJoiningAWaitingPrefetchIsServedAtItsOwnPriority() async {
    let limiter = ConcurrencyLimiter(limit: 1)
    let store = LoaderStore()
    var order: [String] = []
    let record: @MainActor (String) -> Void = { order.append($0) }
    let holder = Loadable<Int>()
    let (gate, holding) = await hold(limiter, in: holder)
    let first = entry("first", in: store, limiter, order: record)
    let second = entry("second", in: store, limiter, order: record)
    XCTAssertTrue(first.prefetch())
    XCTAssertTrue(second.prefetch())
    await yieldUntil { limiter.waitingCount == 2 }
    var joined = false
    let screen = Task {
      joined = true  // then, with no suspension in between, the load joins the prefetch
      return await second.load()
    }
    await yieldUntil { joined }
    XCTAssertEqual(limiter.waitingCount, 2, "the screen waits in the prefetch's place")
    gate.open()
    await holding.value
    let shown = await screen.value
    await first.load()
    XCTAssertEqual(shown, .loaded("second"))
    XCTAssertEqual(order, ["second", "first"], "the prefetch held up the screen")
  }

  /// A fetch started by a load inside a lower-priority scope is raised the same way when a
  /// user-initiated load joins it.
  func testAUserInitiatedLoadRaisesAFetchStartedAtALowerPriority() async {
    let limiter = ConcurrencyLimiter(limit: 1)
    let store = LoaderStore()
    var order: [String] = []
    let record: @MainActor (String) -> Void = { order.append($0) }
    let holder = Loadable<Int>()
    let (gate, holding) = await hold(limiter, in: holder)
    let row = entry("row", in: store, limiter, order: record)
    let other = entry("other", in: store, limiter, order: record)
    let rows = Task { await withLoadPriority(.visible) { _ = await other.load() } }
    await yieldUntil { limiter.waitingCount == 1 }
    let scrolled = Task { await withLoadPriority(.visible) { _ = await row.load() } }
    await yieldUntil { limiter.waitingCount == 2 }
    var joined = false
    let tapped = Task {
      joined = true
      return await row.load()  // joins and raises "row" past "other"
    }
    await yieldUntil { joined }
    gate.open()
    await holding.value
    _ = await [rows.value, scrolled.value]
    _ = await tapped.value
    XCTAssertEqual(order, ["row", "other"])
  }

  /// The raise lasts for the rest of the fetch: a retry's next attempt waits at the raised
  /// priority too.
  func testARaisedPrefetchRetriesAtTheRaisedPriority() async throws {
    let clock = ManualClock()
    let limiter = ConcurrencyLimiter(limit: 1)
    let store = LoaderStore()
    var order: [String] = []
    let attempt = Gate<Void>()
    var attempts = 0
    let post = store.loader(
      for: ["post"],
      policy: .retry(maxAttempts: 2, backoff: .constant(.seconds(1)), clock: clock).limit(limiter)
    ) { () -> String in
      attempts += 1
      if attempts == 1 {
        try await attempt.pass()
        throw TestError()
      }
      order.append("post")
      return "post"
    }
    let other = entry("other", in: store, limiter, order: { order.append($0) })
    XCTAssertTrue(post.prefetch())
    await attempt.arrival()  // the first attempt holds the permit
    var joined = false
    let screen = Task {
      joined = true
      return await post.load()
    }
    await yieldUntil { joined }
    attempt.fail(TestError())  // the first attempt fails and gives its permit back
    try await clock.sleepers(count: 1)  // the retry waits out its backoff
    let holder = Loadable<Int>()
    let (gate, holding) = await hold(limiter, in: holder)
    XCTAssertTrue(other.prefetch())
    await yieldUntil { limiter.waitingCount == 1 }
    clock.advance(by: .seconds(1))  // the second attempt waits for a permit: behind "other"?
    await yieldUntil { limiter.waitingCount == 2 }
    XCTAssertEqual(limiter.waitingCount, 2)
    gate.open()
    await holding.value
    let shown = await screen.value
    await other.load()
    XCTAssertEqual(shown, .loaded("post"))
    XCTAssertEqual(order, ["post", "other"], "the retry waited at the prefetch's priority")
  }

  // MARK: - Leaving the line

  func testCancellingAWaitingPrefetchLeavesNoPermitTaken() async {
    let limiter = ConcurrencyLimiter(limit: 1)
    let store = LoaderStore()
    var order: [String] = []
    let holder = Loadable<Int>()
    let (gate, holding) = await hold(limiter, in: holder)
    let post = entry("post", in: store, limiter, order: { order.append($0) })
    XCTAssertTrue(post.prefetch())
    await yieldUntil { limiter.waitingCount == 1 }
    post.cancel()
    await yieldUntil { limiter.waitingCount == 0 && !post.isRunning }
    XCTAssertEqual(limiter.waitingCount, 0)
    XCTAssertFalse(post.isRunning)
    XCTAssertEqual(post.state, .absent, "a cancelled prefetch left .loading on screen")
    gate.open()
    await holding.value
    XCTAssertEqual(limiter.runningCount, 0)
    XCTAssertEqual(order, [])
    await post.load()  // the permit is free: runs at once
    XCTAssertEqual(post.state, .loaded("post"))
  }

  /// A refresh does not join a waiting prefetch: it supersedes it, and the prefetch's wait
  /// leaves the line.
  func testARefreshSupersedesAWaitingPrefetch() async {
    let limiter = ConcurrencyLimiter(limit: 1)
    let store = LoaderStore()
    var order: [String] = []
    let holder = Loadable<Int>()
    let (gate, holding) = await hold(limiter, in: holder)
    let post = entry("post", in: store, limiter, order: { order.append($0) })
    XCTAssertTrue(post.prefetch())
    await yieldUntil { limiter.waitingCount == 1 }
    var started = false
    let screen = Task {
      started = true
      return await post.refresh()
    }
    await yieldUntil { started }
    await yieldUntil { limiter.waitingCount == 1 }
    gate.open()
    await holding.value
    let shown = await screen.value
    XCTAssertEqual(shown, .loaded("post"))
    XCTAssertEqual(order, ["post"], "the superseded prefetch ran too")
    XCTAssertEqual(limiter.runningCount, 0)
    XCTAssertEqual(limiter.waitingCount, 0)
  }
}

/// The gate the next fetch waits at; none until a test sets one.
@MainActor
private final class NextGate {
  var gate: Gate<String>?
}

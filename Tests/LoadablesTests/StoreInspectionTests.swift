import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// What an inspector reads of a store and does to it, through the public API: the snapshot
/// of its entries and outbox, the exact-key actions, a failure armed for the next fetch, and
/// pretending to be offline.
@MainActor
final class StoreInspectionTests: XCTestCase {
  struct Boom: Error, Equatable {}

  private let start = Date(timeIntervalSince1970: 1_000_000)

  func testASnapshotShowsEachEntrysStateFreshnessAndWhyItIsStale() async throws {
    let clock = ManualClock()
    let store = LoaderStore(clock: clock, startDate: start)
    let post = store.loader(for: ["posts", 1], staleTime: .seconds(60)) { "Hello" }
    let other = store.loader(for: ["posts", 2], staleTime: .seconds(60)) { "World" }
    _ = store.loader(for: ["empty"]) { 0 }
    await post.load()
    await other.load()
    let token = post.observe()
    defer { token.end() }
    store.invalidate(["posts", 2], matching: .exact)
    var snapshot = store.snapshot()
    XCTAssertEqual(snapshot.entries.map(\.key), [["empty"], ["posts", 1], ["posts", 2]])
    let one = try XCTUnwrap(snapshot.entry(["posts", 1]))
    XCTAssertEqual(one.phase, .loaded)
    XCTAssertEqual(one.kind, .value)
    XCTAssertEqual(one.valueType, "String")
    XCTAssertEqual(one.valueSummary, "Hello")
    XCTAssertEqual(one.observerCount, 1)
    XCTAssertEqual(one.staleness, .fresh)
    XCTAssertEqual(one.fetchedAt, start)
    XCTAssertEqual(one.staleAt, start.addingTimeInterval(60))
    XCTAssertFalse(one.isRunning)
    XCTAssertEqual(snapshot.entry(["posts", 2])?.staleness, .invalidated)
    XCTAssertEqual(snapshot.entry(["empty"])?.staleness, .noValue)
    XCTAssertEqual(snapshot.entry(["empty"])?.phase, .absent)

    token.end()
    clock.advance(by: .seconds(61))
    snapshot = store.snapshot()
    XCTAssertEqual(snapshot.entry(["posts", 1])?.staleness, .aged)
    XCTAssertNil(snapshot.entry(["posts", 1])?.staleAt)
    XCTAssertEqual(snapshot.date, start.addingTimeInterval(61))
    XCTAssertNil(snapshot.isOnline, "a store without a connectivity says nothing about it")
  }

  func testASnapshotShowsARunningFetchItsAttemptAndProgress() async throws {
    let store = LoaderStore()
    let gate = Gate<Int>()
    let entry = store.loader(for: ["slow"], policy: .retry(maxAttempts: 2, backoff: .immediate)) {
      LoadingProgress.report(fraction: 0.5)
      return try await gate.pass()
    }
    let load = Task { await entry.load() }
    await gate.arrival()
    let running = try XCTUnwrap(store.snapshot().entry(["slow"]))
    XCTAssertTrue(running.isRunning)
    XCTAssertFalse(running.isRefreshing)
    XCTAssertEqual(running.phase, .loading)
    XCTAssertEqual(running.attempt?.number, 1)
    XCTAssertEqual(running.progress?.fraction, 0.5)
    XCTAssertEqual(store.snapshot().runningCount, 1)
    gate.open(7)
    _ = await load.value
    XCTAssertEqual(store.snapshot().entry(["slow"])?.valueSummary, "7")
  }

  func testTheNextFetchFailsOnceThroughTheEngineThenFetchesAsUsual() async throws {
    let store = LoaderStore()
    var calls = 0
    let entry = store.loader(for: ["feed"], staleTime: .zero) { () -> Int in
      calls += 1
      return calls
    }
    let recorder = LoadEventRecorder { $0.subject == .entry(["feed"]) }
    defer { recorder.stop() }
    XCTAssertTrue(store.failNextFetch(of: ["feed"], with: Boom()))
    XCTAssertEqual(store.snapshot().entry(["feed"])?.failsNextFetch, true)
    let failed = await entry.load()
    XCTAssertEqual(failed.error as? Boom, Boom())
    XCTAssertEqual(calls, 0, "the app's fetch did not run")
    XCTAssertEqual(recorder.events.map(\.kind), [.started, .failed])
    XCTAssertEqual(store.snapshot().entry(["feed"])?.failsNextFetch, false)
    let loaded = await entry.load()
    XCTAssertEqual(loaded, .loaded(1), "only the next fetch fails")
    XCTAssertFalse(store.failNextFetch(of: ["nothing"]))
  }

  func testAFailedRefreshKeepsTheValueWhenThePolicySaysSo() async throws {
    let store = LoaderStore()
    let entry = store.loader(for: ["kept"], policy: .keepValueOnFailure()) { 5 }
    await entry.load()
    store.failNextFetch(of: ["kept"])
    await entry.refresh()
    XCTAssertEqual(entry.state, .loaded(5))
    XCTAssertEqual(entry.refreshError as? SimulatedFailure, SimulatedFailure())
    let snapshot = try XCTUnwrap(store.snapshot().entry(["kept"]))
    XCTAssertEqual(snapshot.phase, .loaded)
    XCTAssertEqual(snapshot.error as? SimulatedFailure, SimulatedFailure())
  }

  func testAnEntryThatNeverGoesStaleShowsItsStaleTimeAsAskedAndStaysFresh() async throws {
    let clock = ManualClock()
    let store = LoaderStore(clock: clock)
    let forever = Duration.seconds(Int64.max)
    let entry = store.loader(for: ["forever"], staleTime: forever) { 7 }
    await entry.load()
    clock.advance(by: .seconds(1_000_000_000))
    XCTAssertFalse(entry.isStale, "a value went stale before its stale time")
    let snapshot = try XCTUnwrap(store.snapshot().entry(["forever"]))
    XCTAssertEqual(snapshot.staleTime, forever)
    XCTAssertEqual(snapshot.staleness, .fresh)
    XCTAssertEqual(entry.settings.staleTime, forever)
  }

  func testExactKeyActionsLeaveLongerKeysAlone() async throws {
    let store = LoaderStore()
    var fetches = 0
    let parent = store.loader(for: ["posts"], staleTime: .seconds(60)) { () -> Int in
      fetches += 1
      return fetches
    }
    let child = store.loader(for: ["posts", 1], staleTime: .seconds(60)) { 100 }
    await parent.load()
    await child.load()
    XCTAssertEqual(store.invalidate(["posts"], matching: .exact), 1)
    XCTAssertTrue(parent.isStale)
    XCTAssertFalse(child.isStale)

    XCTAssertEqual(store.refresh(["posts"], matching: .exact), 1)
    await parent.load()
    XCTAssertEqual(parent.state, .loaded(2))

    XCTAssertEqual(store.reset(["posts"], matching: .exact).entryCount, 1)
    XCTAssertEqual(parent.state, .absent)
    XCTAssertEqual(child.state, .loaded(100))

    XCTAssertEqual(store.remove(["posts"], matching: .exact).entryCount, 1)
    XCTAssertEqual(store.keys, [["posts", 1]])
    XCTAssertEqual(store.remove(["posts"], matching: .exact).entryCount, 0)
    XCTAssertEqual(store.invalidate(["posts"], matching: .exact), 0)
    XCTAssertEqual(store.refresh(["posts"], matching: .exact), 0)
  }

  func testAPrefixNamesTheKeyAndEveryLongerKeyUnderIt() async throws {
    let store = LoaderStore()
    var fetches = 0
    let parent = store.loader(for: ["posts"], staleTime: .seconds(60)) { () -> Int in
      fetches += 1
      return fetches
    }
    let child = store.loader(for: ["posts", 1], staleTime: .seconds(60)) { () -> Int in
      fetches += 1
      return 100 + fetches
    }
    let other = store.loader(for: ["users"], staleTime: .seconds(60)) { 7 }
    await parent.load()
    await child.load()
    await other.load()
    XCTAssertEqual(store.invalidate(["posts"]), 2, "the prefix is the default")
    XCTAssertTrue(parent.isStale)
    XCTAssertTrue(child.isStale)
    XCTAssertFalse(other.isStale)

    XCTAssertEqual(store.refresh(["posts"]), 2)
    await parent.load()
    await child.load()
    XCTAssertEqual(fetches, 4, "both entries under the prefix fetched again, once each")
    XCTAssertEqual(other.state, .loaded(7))

    XCTAssertEqual(store.reset(["posts"]).entryCount, 2)
    XCTAssertEqual(parent.state, .absent)
    XCTAssertEqual(child.state, .absent)
    XCTAssertEqual(store.remove(["posts"]).entryCount, 2)
    XCTAssertEqual(store.keys, [["users"]])
  }

  func testPretendingOfflineMakesWaitingFetchesWaitAndTurnsBack() async throws {
    let connectivity = Connectivity(isOnline: true)
    let store = LoaderStore(connectivity: connectivity)
    let waits = store.loader(for: ["remote"]) { 1 }
    let local = store.loader(for: ["local"], waitsForNetwork: false) { 2 }
    store.isSimulatingOffline = true
    XCTAssertTrue(store.isSimulatingOffline)
    XCTAssertFalse(connectivity.isOnline)
    XCTAssertEqual(store.snapshot().isOnline, false)
    let local2 = await local.load()
    XCTAssertEqual(local2, .loaded(2), "an entry that needs no network fetches")
    let load = Task { await waits.load() }
    try await connectivity.waiters(count: 1)
    XCTAssertEqual(store.snapshot().entry(["remote"])?.isWaitingForNetwork, true)
    connectivity.update(isOnline: true)
    XCTAssertFalse(connectivity.isOnline, "the source's report does not end the pretence")
    store.isSimulatingOffline = false
    XCTAssertTrue(connectivity.isOnline)
    let loaded = await load.value
    XCTAssertEqual(loaded, .loaded(1))
  }

  func testPretendingOfflineRestoresWhatTheSourceLastReported() {
    let connectivity = Connectivity(isOnline: true)
    let store = LoaderStore(connectivity: connectivity)
    store.isSimulatingOffline = true
    connectivity.update(isOnline: false)
    store.isSimulatingOffline = false
    XCTAssertFalse(connectivity.isOnline, "the source said offline meanwhile")
  }

  func testAStoreWithoutConnectivityFailsFetchesWhilePretendingOffline() async {
    let store = LoaderStore()
    let entry = store.loader(for: ["nowhere"]) { 3 }
    store.isSimulatingOffline = true
    let state = await entry.load()
    XCTAssertEqual(state.error as? SimulatedFailure, .offline)
    store.isSimulatingOffline = false
    XCTAssertFalse(store.isSimulatingOffline)
    let refreshed = await entry.refresh()
    XCTAssertEqual(refreshed, .loaded(3))
  }

  func testAPagedEntryShowsItsKindItemsAndNextPage() async throws {
    let store = LoaderStore()
    let source = PagedSource<Int, Int>(first: 0) { cursor in
      Page(items: [cursor, cursor + 1], next: cursor < 2 ? cursor + 2 : nil)
    }
    let feed = store.pagedLoader(for: ["feed"], source: source)
    await feed.load()
    let snapshot = try XCTUnwrap(store.snapshot().entry(["feed"]))
    XCTAssertEqual(snapshot.kind, .paged)
    XCTAssertEqual(snapshot.phase, .loaded)
    XCTAssertEqual(snapshot.valueSummary, "2 items in 1 page")
    XCTAssertEqual(snapshot.nextPage, "idle")
  }
}

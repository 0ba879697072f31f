import Foundation
import Loadables
import LoadablesInspector
import LoadablesTesting
import XCTest

/// The inspector's model through its public API: the snapshot it keeps, the events it keeps
/// for the store's entries, its answer to "why is this entry stale, and who fetched it
/// last?", its actions, and its text.
///
/// The event stream is process-wide: each test uses keys of its own.
@MainActor
final class StoreInspectorTests: XCTestCase {
  struct Boom: Error, Equatable {}

  private let start = Date(timeIntervalSince1970: 1_000_000)

  func testItKeepsTheLoadEventsOfTheStoresEntriesOnly() async {
    let store = LoaderStore()
    let inspector = StoreInspector(store: store, historyLimit: 3)
    defer { inspector.stopListening() }
    XCTAssertTrue(inspector.isListening)
    let entry = store.loader(for: ["inspector.keeps", 1], staleTime: .zero) { 1 }
    await entry.load()
    await entry.load()
    // An entry of another store, and a property's load, are not this store's.
    let elsewhere = LoaderStore()
    await elsewhere.loader(for: ["inspector.keeps", "other"]) { 2 }.load()
    inspector.refresh()
    XCTAssertEqual(
      inspector.history(of: ["inspector.keeps", 1]).map(\.kind),
      [.finished, .started, .finished],
      "the oldest event went: three are kept")
    XCTAssertTrue(inspector.history(of: ["inspector.keeps", "other"]).isEmpty)
    XCTAssertEqual(inspector.entry(["inspector.keeps", 1])?.valueSummary, "1")
    XCTAssertEqual(inspector.explain(["inspector.keeps", 1]).lastFetch?.isSilent, true)
  }

  func testAnotherStoresEntryOfTheSameKeyNeverMixesIn() async {
    let store = LoaderStore()
    let other = LoaderStore()
    let inspector = StoreInspector(store: store)
    defer { inspector.stopListening() }
    let key: LoadKey = ["inspector.two-stores", 1]
    await store.loader(for: key) { 1 }.load()
    await other.loader(for: key) { 2 }.load()
    await other.loader(for: key) { 2 }.refresh()
    inspector.refresh()
    XCTAssertEqual(
      inspector.history(of: key).map(\.kind), [.entryMade, .started, .finished],
      "the other store's events of the same key mixed in")
    XCTAssertTrue(inspector.history(of: key).allSatisfy { $0.isFrom(store) })
  }

  /// The "Debugging Loads" article's inspector example, as written there.
  func testTheDebuggingLoadsArticlesExample() async {
    let appStore = LoaderStore()
    let inspector = StoreInspector(store: appStore)  // listens from now on
    defer { inspector.stopListening() }
    await appStore.loader(for: ["posts", 42]) { "Trains run on time" }.load()
    inspector.refresh()

    // In a debug menu: why is this entry stale, and who fetched it last?
    let explained = inspector.explain(["posts", 42]).lines(now: Date()).joined(separator: "\n")
    // Every entry, as a table.
    let table = inspector.renderTable()

    XCTAssertTrue(explained.contains("last fetch: finished"), explained)
    XCTAssertTrue(table.contains(#"["posts", 42]"#), table)
  }

  func testItExplainsWhyAnEntryIsStaleAndWhoFetchedItLast() throws {
    let clock = ManualClock()
    let store = LoaderStore(clock: clock, startDate: start)
    let key: LoadKey = ["inspector.explain"]
    let entry = store.loader(for: key, staleTime: .seconds(60)) { "Hello" }
    _ = entry
    let inspector = StoreInspector(store: store, listening: false)
    let subject = LoadSubject.entry(key)
    inspector.receive(
      LoadEvent(kind: .started, subject: subject, date: start, sequence: 1))
    inspector.receive(
      LoadEvent(
        kind: .finished, subject: subject, isSilent: true, attempt: 2,
        duration: .milliseconds(210), date: start.addingTimeInterval(0.21), sequence: 2))
    inspector.receive(
      LoadEvent(
        kind: .entryInvalidated, subject: subject, detail: "posts changed",
        date: start.addingTimeInterval(3), sequence: 3))
    store.invalidate(key, matching: .exact)
    inspector.refresh()
    let why = inspector.explain(key)
    XCTAssertEqual(why.staleness, .noValue, "the entry never loaded in this store")
    XCTAssertEqual(why.lastFetch?.attempt, 2)
    XCTAssertEqual(why.lastInvalidation?.detail, "posts changed")
    XCTAssertEqual(
      why.lines(now: start.addingTimeInterval(5)),
      [
        "stale: no value yet",
        "last fetch: finished 4.79 s ago after 0.21 s (attempt 2, silent)",
      ])
  }

  func testItExplainsAnInvalidatedAndAnAgedValue() async {
    let clock = ManualClock()
    let store = LoaderStore(clock: clock, startDate: start)
    let key: LoadKey = ["inspector.aged"]
    let entry = store.loader(for: key, staleTime: .seconds(60)) { 1 }
    await entry.load()
    let inspector = StoreInspector(store: store, listening: false)
    XCTAssertEqual(
      inspector.explain(key).lines(now: start),
      ["fresh for 60.00 s more", "last fetch: just now (before the inspector listened)"])
    clock.advance(by: .seconds(90))
    inspector.refresh()
    XCTAssertEqual(
      inspector.explain(key).lines(now: start.addingTimeInterval(90)).first,
      "stale: aged, fetched 90.00 s ago, stale time 60.00 s")
    inspector.invalidate(key)
    inspector.receive(
      LoadEvent(
        kind: .entryInvalidated, subject: .entry(key), date: start.addingTimeInterval(89)))
    inspector.refresh()
    XCTAssertEqual(
      inspector.explain(key).lines(now: start.addingTimeInterval(90)).first,
      "stale: invalidated 1.00 s ago")
  }

  func testItsActionsReachTheStore() async throws {
    let connectivity = Connectivity(isOnline: true)
    let store = LoaderStore(connectivity: connectivity)
    let key: LoadKey = ["inspector.actions"]
    var fetches = 0
    let entry = store.loader(for: key, waitsForNetwork: false) { () -> Int in
      fetches += 1
      return fetches
    }
    await entry.load()
    let inspector = StoreInspector(store: store, listening: false)
    inspector.failNextFetch(of: key, with: Boom())
    XCTAssertEqual(inspector.entry(key)?.failsNextFetch, true)
    inspector.refresh(key)
    _ = await entry.load()
    XCTAssertEqual(entry.state.error as? Boom, Boom())
    inspector.refresh()
    XCTAssertEqual(inspector.entry(key)?.phase, .error)

    inspector.isSimulatingOffline = true
    XCTAssertTrue(inspector.isSimulatingOffline)
    XCTAssertFalse(connectivity.isOnline)
    inspector.isSimulatingOffline = false
    XCTAssertTrue(connectivity.isOnline)

    inspector.reset(key)
    XCTAssertEqual(inspector.entry(key)?.phase, .absent)
    inspector.remove(key)
    XCTAssertNil(inspector.entry(key))
    XCTAssertEqual(inspector.explain(key).lines(now: start), ["not in the store"])
  }

  func testTheTableShowsEveryEntryAndTheOutbox() async {
    let clock = ManualClock()
    let store = LoaderStore(clock: clock, startDate: start)
    let post = store.loader(for: ["inspector.table", "post"], staleTime: .seconds(60)) {
      "Hello"
    }
    await post.load()
    let token = post.observe()
    defer { token.end() }
    _ = store.loader(for: ["inspector.table", "empty"]) { 0 }
    let inspector = StoreInspector(store: store, listening: false)
    inspector.failNextFetch(of: ["inspector.table", "empty"])
    clock.advance(by: .seconds(2))
    inspector.refresh()
    XCTAssertEqual(
      inspector.renderTable(),
      """
      store: 2 entries, idle
      KEY                           KIND   STATE   OBS  FRESHNESS      FETCH       EDITS  SAVED
      ["inspector.table", "empty"]  value  absent  0    no value       fails next  0      no
      ["inspector.table", "post"]   value  loaded  1    fresh 58.00 s  -           0      no
      outbox: empty
      """)
  }

  func testOneEntrysTextShowsItsExplanationAndHistory() {
    let store = LoaderStore(startDate: start)
    let key: LoadKey = ["inspector.text"]
    _ = store.loader(for: key) { 0 }
    let inspector = StoreInspector(store: store, listening: false)
    inspector.receive(LoadEvent(kind: .started, subject: .entry(key), date: start))
    inspector.receive(
      LoadEvent(
        kind: .failed, subject: .entry(key), duration: .milliseconds(500), error: Boom(),
        date: start.addingTimeInterval(0.5)))
    inspector.refresh()
    XCTAssertEqual(
      inspector.renderEntry(key, now: start.addingTimeInterval(1)),
      """
      ["inspector.text"]: value Int, absent, 0 observers
        stale: no value yet
        last fetch: none
        since then: failed 0.50 s ago after 0.50 s (error: Boom())
        history (2):
          1.00 s ago  started entry ["inspector.text"]
          0.50 s ago  failed entry ["inspector.text"] after 0.50 s (error: Boom())
      """)
  }
}

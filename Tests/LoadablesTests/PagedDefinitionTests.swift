import Loadables
import LoadablesTesting
import Synchronization
import XCTest

/// Typed definitions of paged entries: one list for every screen, the store's defaults, the
/// settings in force, the look-up that makes nothing, and keys used two ways.
@MainActor
final class PagedDefinitionTests: XCTestCase {
  /// Counts how many times a definition's source was read.
  final class Reads: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func note() { count.withLock { $0 += 1 } }
  }

  struct FeedQuery: PagedLoadDefinition {
    let server: PageServer
    var reads: Reads? = nil
    var key: LoadKey { ["feed"] }
    var source: PagedSource<Int, Int> {
      reads?.note()
      return PagedSource(first: 1) { [server] cursor in try await server.fetch(cursor) }
    }
  }

  struct CappedFeedQuery: PagedLoadDefinition {
    let server: PageServer
    var key: LoadKey { ["feed"] }
    var staleTime: Duration? { .seconds(60) }
    var waitsForNetwork: Bool? { false }
    var refreshTriggers: [RefreshTrigger]? { [] }
    var isPersisted: Bool? { false }
    var maxPages: Int? { 2 }
    var refetch: PagedRefetch { .allLoadedPages }
    var source: PagedSource<Int, Int> {
      PagedSource(first: 1) { [server] cursor in try await server.fetch(cursor) }
    }
  }

  func testTwoScreensAskingForADefinitionShareOneListAndReadOnlyItsKeyAfterward() async {
    let store = LoaderStore()
    let server = PageServer()
    let reads = Reads()
    let tab = store.pagedLoader(for: FeedQuery(server: server, reads: reads))
    let widget = store.pagedLoader(for: FeedQuery(server: server, reads: reads))
    XCTAssertTrue(tab === widget, "one definition key gave two lists")
    XCTAssertEqual(reads.value, 1, "the source of an existing entry was read")
    XCTAssertTrue(store.pagedLoader(for: ["feed"], source: server.source()) === tab)
    let load = Task { await widget.load() }
    await server.answer(0, with: page(1))
    _ = await load.value
    XCTAssertEqual(tab.state.items, items(1))
    let next = Task { await tab.loadNextPage() }
    await server.answer(1, with: page(2))
    await next.value
    XCTAssertEqual(widget.state.items, items(1, 2))
    XCTAssertEqual(server.calls, [1, 2])
  }

  func testADefinitionWithoutSettingsTakesTheStoreDefaults() {
    let store = LoaderStore(
      defaults: LoadDefaults(staleTime: .seconds(30), waitsForNetwork: false, isPersisted: false))
    let feed = store.pagedLoader(for: FeedQuery(server: PageServer()))
    XCTAssertEqual(feed.settings.staleTime, .seconds(30))
    XCTAssertFalse(feed.settings.waitsForNetwork)
    XCTAssertFalse(feed.settings.isPersisted)
    XCTAssertEqual(feed.settings.refreshTriggerCount, 0)
  }

  func testADefinitionsSettingsShowInTheEntrysSettingsAndItsPageCapApplies() async {
    let store = LoaderStore(defaults: LoadDefaults(staleTime: .seconds(5)))
    let server = PageServer()
    let feed = store.pagedLoader(for: CappedFeedQuery(server: server))
    XCTAssertEqual(feed.settings.staleTime, .seconds(60))
    XCTAssertFalse(feed.settings.waitsForNetwork)
    XCTAssertFalse(feed.settings.isPersisted)
    let load = Task { await feed.load() }
    await server.answer(0, with: page(1))
    _ = await load.value
    for index in 1...2 {
      let next = Task { await feed.loadNextPage() }
      await server.answer(index, with: page(index + 1))
      await next.value
    }
    XCTAssertEqual(feed.state.items, items(2, 3), "the definition's maxPages was not used")
    XCTAssertEqual(feed.state.droppedPageCount, 1)
  }

  func testALaterDefinitionStatingOtherSettingsIsReported() {
    let store = LoaderStore(defaults: LoadDefaults(staleTime: .seconds(5)))
    let server = PageServer()
    let feed = store.pagedLoader(for: FeedQuery(server: server))
    XCTAssertTrue(store.pagedLoader(for: CappedFeedQuery(server: server)) === feed)
    XCTAssertEqual(feed.settings.staleTime, .seconds(5), "a later caller's setting was used")
    XCTAssertTrue(
      store.recentDiagnostics.contains(
        .settingsIgnored(
          key: ["feed"], setting: "staleTime", used: "5.0 seconds", asked: "60.0 seconds")),
      "\(store.recentDiagnostics)")
  }

  func testTheLookUpReturnsNilWithoutMakingAnEntry() {
    let store = LoaderStore()
    XCTAssertNil(store.existingPagedLoader(for: ["feed"], as: Int.self, cursor: Int.self))
    XCTAssertEqual(store.count, 0, "looking a list up made one")
    let feed = store.pagedLoader(for: FeedQuery(server: PageServer()))
    XCTAssertTrue(store.existingPagedLoader(for: ["feed"], as: Int.self, cursor: Int.self) === feed)
    XCTAssertNil(
      store.existingPagedLoader(for: ["feed"], as: Int.self, cursor: String.self),
      "a list of another cursor type was found")
    XCTAssertNil(store.existingLoader(for: ["feed"], as: [Int].self))
    XCTAssertEqual(store.count, 1)
  }

  func testAKeyHeldByAValueEntryKeepsTheDefinitionsListApartAndTheLookUpFindsIt() async {
    let store = LoaderStore()
    var asserted: [LoadKeyTypeMismatch] = []
    store.typeMismatchAssertion = { asserted.append($0) }
    let count = store.loader(for: ["feed"]) { 3 }
    XCTAssertNil(store.existingPagedLoader(for: ["feed"], as: Int.self, cursor: Int.self))
    let server = PageServer()
    let feed = store.pagedLoader(for: FeedQuery(server: server))
    XCTAssertEqual(asserted.map(\.heldType), ["Swift.Int"])
    XCTAssertTrue(store.pagedLoader(for: FeedQuery(server: server)) === feed)
    XCTAssertEqual(asserted.count, 1, "a second caller of the same type was reported again")
    XCTAssertTrue(store.existingPagedLoader(for: ["feed"], as: Int.self, cursor: Int.self) === feed)
    XCTAssertTrue(store.existingLoader(for: ["feed"], as: Int.self) === count)
    XCTAssertEqual(store.count, 2)
    let load = Task { await feed.load() }
    await server.answer(0, with: page(1))
    _ = await load.value
    XCTAssertEqual(feed.state.items, items(1), "the list kept apart does not work")
  }

  func testPrefetchingADefinitionMakesItsListAndFetchesItsFirstPage() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.prefetch(FeedQuery(server: server))
    XCTAssertTrue(store.existingPagedLoader(for: ["feed"], as: Int.self, cursor: Int.self) === feed)
    await server.answer(0, with: page(1))
    _ = await feed.load()
    XCTAssertEqual(feed.state.items, items(1))
    XCTAssertEqual(server.calls, [1], "the load did not join the prefetch")
  }
}

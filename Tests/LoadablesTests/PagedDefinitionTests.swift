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
    var refreshedPages: PagedRefresh { .allLoadedPages }
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

  // MARK: - Placeholders

  /// A feed whose placeholder is the pinned items another entry holds.
  struct PinnedFeedQuery: PagedLoadDefinition {
    let server: PageServer
    var key: LoadKey { ["feed"] }
    var source: PagedSource<Int, Int> {
      PagedSource(first: 1) { [server] cursor in try await server.fetch(cursor) }
    }
    func placeholder(in store: LoaderStore) -> [Int]? {
      store.existingLoader(for: ["pinned"], as: [Int].self)?.state.data
    }
  }

  struct BrokenFeedQuery: PagedLoadDefinition {
    let server: PageServer
    var key: LoadKey { ["broken feed"] }
    var source: PagedSource<Int, Int> {
      PagedSource(first: 1) { [server] cursor in try await server.fetch(cursor) }
    }
    func placeholder(in store: LoaderStore) throws -> [Int]? { throw TestError(code: 4) }
  }

  func testADefinitionsPlaceholderListShowsFlaggedUntilItsFirstPageLands() async {
    let store = LoaderStore()
    let pinned = store.loader(for: ["pinned"]) { [7, 8] }
    await pinned.load()
    let server = PageServer()
    let feed = store.pagedLoader(for: PinnedFeedQuery(server: server))
    XCTAssertTrue(feed.isPlaceholder)
    XCTAssertEqual(feed.state.items, [7, 8])
    XCTAssertEqual(feed.state.list, .loaded([7, 8]))
    XCTAssertTrue(feed.isStale, "a placeholder list is fresh")
    XCTAssertNil(feed.fetchedAt)
    let load = Task { await feed.load() }
    await server.gate(0).arrival()
    XCTAssertTrue(feed.isPlaceholder, "the placeholder went while the first page ran")
    XCTAssertEqual(feed.state.items, [7, 8], "the placeholder list blanked")
    server.gate(0).open(page(1))
    _ = await load.value
    XCTAssertFalse(feed.isPlaceholder)
    XCTAssertEqual(feed.state.items, items(1))
    XCTAssertNotNil(feed.fetchedAt)
    let next = Task { await feed.loadNextPage() }
    await server.answer(1, with: page(2))
    await next.value
    XCTAssertEqual(feed.state.items, items(1, 2))
    XCTAssertEqual(server.calls, [1, 2])
  }

  func testAFailedFirstPageKeepsThePlaceholderListFlaggedWithItsError() async {
    let store = LoaderStore()
    let pinned = store.loader(for: ["pinned"]) { [7, 8] }
    await pinned.load()
    let server = PageServer()
    let feed = store.pagedLoader(for: PinnedFeedQuery(server: server))
    let load = Task { await feed.load() }
    await server.fail(0, with: TestError(code: 5))
    _ = await load.value
    // As a failed refresh of a list: the list stays on screen, still flagged.
    XCTAssertEqual(feed.state.items, [7, 8], "the placeholder list blanked")
    XCTAssertTrue(feed.isPlaceholder, "a failed first page unflagged the placeholder")
    XCTAssertEqual(feed.refreshError as? TestError, TestError(code: 5))
  }

  func testANextPageOverAPlaceholderListFetchesTheFirstPage() async {
    let store = LoaderStore()
    let pinned = store.loader(for: ["pinned"]) { [7, 8] }
    await pinned.load()
    let server = PageServer()
    let feed = store.pagedLoader(for: PinnedFeedQuery(server: server))
    let next = Task { await feed.loadNextPage() }
    await server.answer(0, with: page(1))
    await next.value
    XCTAssertEqual(server.calls, [1], "a placeholder list without cursors fetched a next page")
    XCTAssertEqual(feed.state.items, items(1))
    XCTAssertFalse(feed.isPlaceholder)
  }

  func testAPagedDefinitionWithoutAPlaceholderStartsEmpty() {
    let store = LoaderStore()
    let feed = store.pagedLoader(for: PinnedFeedQuery(server: PageServer()))
    XCTAssertFalse(feed.isPlaceholder, "no pinned list, yet a placeholder")
    XCTAssertEqual(feed.state.list, .absent)
    let plain = store.pagedLoader(for: FeedQuery(server: PageServer()))
    XCTAssertFalse(plain.isPlaceholder)
  }

  func testAPagedPlaceholderThatThrowsIsReportedAndNoneIsShown() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(for: BrokenFeedQuery(server: server))
    XCTAssertEqual(feed.state.list, .absent)
    XCTAssertFalse(feed.isPlaceholder)
    XCTAssertEqual(
      store.recentDiagnostics.map(\.description),
      [
        #"LoaderStore.loader(for: ["broken feed"]): the definition's placeholder threw "#
          + "TestError(code: 4); no placeholder is shown"
      ])
    let load = Task { await feed.load() }
    await server.answer(0, with: page(1))
    _ = await load.value
    XCTAssertEqual(feed.state.items, items(1))
  }

  func testAPagedPlaceholderIsNeverSavedAndARestoredListIsNotCoveredByOne() async throws {
    let saved = StorePersistence.inMemory(version: "1")
    do {
      let store = LoaderStore(persistence: saved)
      let pinned = store.loader(for: ["pinned"], persisted: false) { [7, 8] }
      await pinned.load()
      let feed = store.pagedLoader(for: PinnedFeedQuery(server: PageServer()))
      XCTAssertTrue(feed.isPlaceholder)
      try await store.edit {
        $0.update(items: feed, where: { $0 == 7 }) { $0 = 70 }
      } perform: {
      }
      XCTAssertEqual(feed.state.items, [70, 8])
      await store.flushPersistence()
    }
    do {
      let store = LoaderStore(persistence: saved)
      let feed = store.pagedLoader(for: FeedQuery(server: PageServer()))
      XCTAssertEqual(feed.state.list, .absent, "a placeholder list was saved as the entry's")
    }
    // A list restored from disk shows its saved items, not a placeholder.
    let server = PageServer()
    do {
      let store = LoaderStore(persistence: saved)
      let feed = store.pagedLoader(for: FeedQuery(server: server))
      let load = Task { await feed.load() }
      await server.answer(0, with: page(1))
      _ = await load.value
      await store.flushPersistence()
    }
    let store = LoaderStore(persistence: saved)
    let pinned = store.loader(for: ["pinned"], persisted: false) { [7, 8] }
    await pinned.load()
    let feed = store.pagedLoader(for: PinnedFeedQuery(server: server))
    XCTAssertFalse(feed.isPlaceholder, "a placeholder covered the restored list")
    XCTAssertEqual(feed.state.items, items(1))
  }
}

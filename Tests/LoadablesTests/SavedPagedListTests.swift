import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// A paged list is saved whole and comes back whole at the next launch (Working Offline,
/// "Paged lists are saved whole"; Lists That Page, "Saved whole"): every loaded page and its
/// cursors, the remembered cursors of the pages `maxPages` dropped; `hasNextPage` and
/// `hasPreviousPage` read right at once; the next page continues from the restored cursor;
/// a refresh follows the list's refresh mode. A list saved in the old format (its items
/// alone) restores as before; a bad record is reported and dropped.
@MainActor
final class SavedPagedListTests: XCTestCase {
  struct Story: Codable, Equatable, Sendable {
    var id: Int
    var title: String
  }

  /// A server of story pages, answering at once: page `n` holds stories `n*10`, `n*10+1`,
  /// each page points to the next up to `last`, and to the one before from `first + 1`.
  @MainActor
  final class StoryServer {
    private(set) var calls: [Int] = []
    var first = 1
    var last = 9
    var titles: [Int: String] = [:]

    func page(_ number: Int) -> Page<Story, Int> {
      Page(
        items: [number * 10, number * 10 + 1].map {
          Story(id: $0, title: titles[$0] ?? "Story \($0)")
        },
        previous: number > first ? number - 1 : nil, next: number < last ? number + 1 : nil)
    }

    nonisolated func source(first cursor: Int = 1, maxPages: Int? = nil) -> PagedSource<Story, Int>
    {
      PagedSource(first: cursor, maxPages: maxPages) { [self] number in
        calls.append(number)
        return page(number)
      }
    }
  }

  let launch = Date(timeIntervalSince1970: 1_800_000_000)

  private func relaunch(_ saved: StorePersistence) -> LoaderStore {
    LoaderStore(clock: ManualClock(), persistence: saved, startDate: launch)
  }

  private func stories(_ pages: Int...) -> [Story] {
    let server = StoryServer()
    return pages.flatMap { server.page($0).items }
  }

  /// Loads pages 1 through `count` of `["feed"]` and flushes.
  private func saveFeed(
    _ saved: StorePersistence, pages count: Int, server: StoryServer = StoryServer(),
    maxPages: Int? = nil
  ) async -> SharedPagedLoader<Story, Int> {
    let store = relaunch(saved)
    let feed = store.pagedLoader(for: ["feed"], source: server.source(maxPages: maxPages))
    await feed.load()
    for _ in 1..<count { await feed.loadNextPage() }
    await store.flushPersistence()
    return feed
  }

  // MARK: - Several kinds in one store

  /// Not `Codable`: kept in memory only.
  struct Draft: Equatable, Sendable {
    var text: String
  }

  /// Entries of several state types, written in turn, are each saved as their type says: the
  /// paged list whole, a value as its value, a value that is not `Codable` not at all (the
  /// store asks how a type is saved once, and answers every later entry of it from that).
  func testEntriesOfSeveralTypesWrittenInTurnAreEachSavedAsTheirTypeSays() async {
    let saved = StorePersistence.inMemory(version: "1")
    let store = relaunch(saved)
    let feed = store.pagedLoader(for: ["feed"], source: StoryServer().source())
    await feed.load()
    await store.loader(for: ["story", 1]) { Story(id: 1, title: "One") }.load()
    await store.loader(for: ["draft"]) { Draft(text: "unsaved") }.load()
    await store.loader(for: ["title"]) { "Stories" }.load()
    await feed.loadNextPage()
    await store.loader(for: ["story", 2]) { Story(id: 2, title: "Two") }.load()
    await store.flushPersistence()

    let next = relaunch(saved)
    let restoredFeed = next.pagedLoader(for: ["feed"], source: StoryServer().source())
    XCTAssertEqual(restoredFeed.state.items, stories(1, 2), "the list was not saved whole")
    XCTAssertTrue(restoredFeed.state.hasNextPage, "the list's cursors were not saved")
    XCTAssertEqual(
      next.loader(for: ["story", 1]) { Story(id: 1, title: "x") }.state,
      .loaded(Story(id: 1, title: "One")))
    XCTAssertEqual(
      next.loader(for: ["story", 2]) { Story(id: 2, title: "x") }.state,
      .loaded(Story(id: 2, title: "Two")))
    XCTAssertEqual(next.loader(for: ["title"]) { "x" }.state, .loaded("Stories"))
    let draft = next.loader(for: ["draft"]) { Draft(text: "x") }
    XCTAssertEqual(draft.state, .absent, "a value that is not Codable was saved")
    XCTAssertEqual(next.recentPersistenceEvents, [])
  }

  // MARK: - Whole

  func testARestoredListHasEveryPageItsCursorsAndPagesOnFromTheLastOne() async {
    let saved = StorePersistence.inMemory(version: "1")
    let before = await saveFeed(saved, pages: 3)

    let store = relaunch(saved)
    let server = StoryServer()
    let feed = store.pagedLoader(for: ["feed"], source: server.source())
    XCTAssertEqual(feed.state.items, stories(1, 2, 3), "the restored list is not the saved one")
    XCTAssertEqual(feed.state.pages, before.state.pages, "the pages did not come back whole")
    XCTAssertEqual(feed.state.nextCursor, 4)
    XCTAssertTrue(feed.state.hasNextPage, "a list not at its end says it has no next page")
    XCTAssertFalse(feed.state.hasPreviousPage, "the first page has no previous page")
    XCTAssertEqual(feed.state.nextPage, .idle)

    await feed.loadNextPage()
    XCTAssertEqual(server.calls, [4], "the next page did not continue from the restored cursor")
    XCTAssertEqual(feed.state.items, stories(1, 2, 3, 4))
  }

  func testEachPageThatArrivesIsSavedWithoutACommitOrAFirstPage() async {
    let saved = StorePersistence.inMemory(version: "1")
    _ = await saveFeed(saved, pages: 2)
    let store = relaunch(saved)
    let feed = store.pagedLoader(for: ["feed"], source: StoryServer().source())
    await feed.loadNextPage()
    await store.flushPersistence()

    let again = relaunch(saved).pagedLoader(for: ["feed"], source: StoryServer().source())
    XCTAssertEqual(again.state.items, stories(1, 2, 3), "the page that arrived was not saved")
  }

  func testAListAtItsEndRestoresAtItsEnd() async {
    let saved = StorePersistence.inMemory(version: "1")
    let server = StoryServer()
    server.last = 2
    _ = await saveFeed(saved, pages: 2, server: server)

    let feed = relaunch(saved).pagedLoader(for: ["feed"], source: server.source())
    XCTAssertEqual(feed.state.items, stories(1, 2))
    XCTAssertFalse(feed.state.hasNextPage, "a list at its end says it has a next page")
    XCTAssertEqual(feed.state.nextPage, .end)
    let calls = server.calls
    await feed.loadNextPage()
    XCTAssertEqual(server.calls, calls, "a list restored at its end fetched")
  }

  func testAListThatPagesBothWaysRestoresItsPreviousCursor() async {
    let saved = StorePersistence.inMemory(version: "1")
    let store = relaunch(saved)
    let first = StoryServer()
    let made = store.pagedLoader(for: ["chat"], source: first.source(first: 5))
    await made.load()
    await store.flushPersistence()

    let server = StoryServer()
    let chat = relaunch(saved).pagedLoader(for: ["chat"], source: server.source(first: 5))
    XCTAssertTrue(chat.state.hasPreviousPage, "the previous cursor was not restored")
    XCTAssertEqual(chat.state.previousCursor, 4)
    await chat.loadPreviousPage()
    XCTAssertEqual(server.calls, [4], "the previous page did not go on from the restored cursor")
    XCTAssertEqual(chat.state.items, stories(4, 5))
  }

  func testTheCursorsOfDroppedPagesAreRestored() async {
    let saved = StorePersistence.inMemory(version: "1")
    let before = await saveFeed(saved, pages: 3, maxPages: 2)
    XCTAssertEqual(before.state.droppedPageCount, 1)

    let server = StoryServer()
    let feed = relaunch(saved).pagedLoader(for: ["feed"], source: server.source(maxPages: 2))
    XCTAssertEqual(feed.state.items, stories(2, 3))
    XCTAssertEqual(feed.state.droppedPageCount, 1, "the dropped page's cursor was not restored")
    XCTAssertTrue(feed.state.hasPreviousPage, "a list with a dropped first page has none before")
    await feed.loadPreviousPage()
    XCTAssertEqual(server.calls, [1], "the dropped page was not fetched at its own cursor")
    XCTAssertEqual(feed.state.items, stories(1, 2))
    XCTAssertEqual(feed.state.droppedTrailingPageCount, 1)
  }

  func testAListSavedUnderALargerMaxPagesKeepsItsFirstPagesAndRemembersTheRest() async {
    let saved = StorePersistence.inMemory(version: "1")
    _ = await saveFeed(saved, pages: 3)

    let server = StoryServer()
    let feed = relaunch(saved).pagedLoader(for: ["feed"], source: server.source(maxPages: 2))
    XCTAssertEqual(feed.state.items, stories(1, 2), "pages beyond maxPages were restored")
    XCTAssertEqual(feed.state.droppedTrailingPageCount, 1)
    await feed.loadNextPage()
    XCTAssertEqual(server.calls, [3], "the page beyond maxPages was not fetched at its cursor")
  }

  func testARefreshOfARestoredListFollowsItsRefreshMode() async {
    let saved = StorePersistence.inMemory(version: "1")
    _ = await saveFeed(saved, pages: 3)

    let every = StoryServer()
    let all = relaunch(saved).pagedLoader(
      for: ["feed"], refreshedPages: .allLoadedPages, source: every.source())
    await all.refresh()
    XCTAssertEqual(every.calls, [1, 2, 3], "allLoadedPages did not refresh every restored page")
    XCTAssertEqual(all.state.items, stories(1, 2, 3))

    let firstOnly = StoryServer()
    let first = relaunch(saved).pagedLoader(for: ["feed"], source: firstOnly.source())
    await first.refresh()
    XCTAssertEqual(firstOnly.calls, [1], "firstPage refreshed more than the first page")
    XCTAssertEqual(first.state.items, stories(1))
  }

  func testADefinitionsListIsRestoredWhole() async {
    struct FeedQuery: PagedLoadDefinition {
      let server: StoryServer
      var key: LoadKey { ["feed"] }
      var source: PagedSource<Story, Int> { server.source() }
    }
    let saved = StorePersistence.inMemory(version: "1")
    let store = relaunch(saved)
    let feed = store.pagedLoader(for: FeedQuery(server: StoryServer()))
    await feed.load()
    await feed.loadNextPage()
    await store.flushPersistence()

    let server = StoryServer()
    let restored = relaunch(saved).pagedLoader(for: FeedQuery(server: server))
    XCTAssertEqual(restored.state.items, stories(1, 2))
    XCTAssertTrue(restored.state.hasNextPage)
    await restored.loadNextPage()
    XCTAssertEqual(server.calls, [3])
  }

  // MARK: - Edits

  func testAPendingEditIsNeverSavedWithAPageAndACommittedOneIs() async throws {
    let saved = StorePersistence.inMemory(version: "1")
    let store = relaunch(saved)
    let feed = store.pagedLoader(for: ["feed"], source: StoryServer().source())
    await feed.load()
    let job = Gate<Void>()
    let edit = Task {
      try await store.edit { edit in
        edit.update(items: feed, where: { $0.id == 10 }) { $0.title = "Renamed" }
      } perform: {
        try await job.pass()
      }
    }
    await job.arrival()
    await feed.loadNextPage()
    await store.flushPersistence()
    var restored = relaunch(saved).pagedLoader(for: ["feed"], source: StoryServer().source())
    XCTAssertEqual(restored.state.items, stories(1, 2), "a pending edit was saved with a page")

    job.open(())
    try await edit.value
    await store.flushPersistence()
    restored = relaunch(saved).pagedLoader(for: ["feed"], source: StoryServer().source())
    XCTAssertEqual(restored.state.items.first?.title, "Renamed", "the commit was not saved")
    XCTAssertEqual(restored.state.pages.first?.items.first?.title, "Renamed")
    XCTAssertEqual(restored.state.pages.count, 2, "the commit did not save every page")
  }

  func testAnEditThatRemovesAnItemIsRestoredWithThePagesAsFetched() async throws {
    let saved = StorePersistence.inMemory(version: "1")
    let store = relaunch(saved)
    let feed = store.pagedLoader(for: ["feed"], source: StoryServer().source())
    await feed.load()
    await feed.loadNextPage()
    try await store.edit { edit in
      edit.update(feed) { $0.removeAll { $0.id == 11 } }
    } perform: {
    }
    await store.flushPersistence()
    let before = feed.state

    let server = StoryServer()
    let restored = relaunch(saved).pagedLoader(for: ["feed"], source: server.source())
    XCTAssertEqual(restored.state, before, "the edited list did not come back as it was")
    await restored.loadNextPage()
    XCTAssertEqual(server.calls, [3])
  }

  // MARK: - Old and bad records

  func testAListSavedInTheOldFormatRestoresItsItemsAlone() async {
    let saved = StorePersistence.inMemory(version: "1")
    // The old format: the items alone, as a value entry of the same key saves them.
    let store = relaunch(saved)
    _ = await store.loader(for: ["feed"]) { self.stories(1, 2) }.load()
    await store.flushPersistence()

    let server = StoryServer()
    let relaunched = relaunch(saved)
    let feed = relaunched.pagedLoader(for: ["feed"], source: server.source())
    XCTAssertEqual(feed.state.items, stories(1, 2), "the old record's items did not restore")
    XCTAssertEqual(feed.state.pages, [])
    XCTAssertFalse(feed.state.hasNextPage, "a list with no cursor says it has a next page")
    XCTAssertEqual(relaunched.recentPersistenceEvents, [], "the old record was reported")
    await feed.loadNextPage()
    XCTAssertEqual(server.calls, [1], "the old record's first next page did not refresh page 1")
    XCTAssertEqual(feed.state.items, stories(1))
  }

  /// A stand-in for a record written wrong: the fields of a saved list, any of them off.
  struct WrongRecord: Codable, Sendable {
    struct WrongPage: Codable, Sendable {
      var count: Int
      var items: [Story]?
      var next: Int?
    }
    var format: Int
    var items: [Story]
    var pages: [WrongPage]
    var cursors: [Int]
    var droppedBefore: [Int] = []
    var droppedAfter: [Int] = []
  }

  func testABadPagedRecordIsReportedAndDroppedNeverACrash() async {
    let two = stories(1, 2)
    let bad: [(String, WrongRecord)] = [
      (
        "a later format", WrongRecord(format: 3, items: two, pages: [.init(count: 4)], cursors: [1])
      ),
      ("no page", WrongRecord(format: 2, items: two, pages: [], cursors: [])),
      (
        "a cursor missing",
        WrongRecord(format: 2, items: two, pages: [.init(count: 2), .init(count: 2)], cursors: [1])
      ),
      (
        "sizes that do not add up",
        WrongRecord(format: 2, items: two, pages: [.init(count: 9, next: 2)], cursors: [1])
      ),
      (
        "a negative size",
        WrongRecord(
          format: 2, items: two, pages: [.init(count: -1), .init(count: 3)], cursors: [1, 2])
      ),
      (
        "the items of some pages only",
        WrongRecord(
          format: 2, items: two, pages: [.init(count: 2, items: stories(1)), .init(count: 2)],
          cursors: [1, 2])
      ),
    ]
    for (what, record) in bad {
      let saved = StorePersistence.inMemory(version: "1")
      let store = relaunch(saved)
      _ = await store.loader(for: ["feed"]) { record }.load()
      await store.flushPersistence()

      let relaunched = relaunch(saved)
      let server = StoryServer()
      let feed = relaunched.pagedLoader(for: ["feed"], source: server.source())
      XCTAssertEqual(feed.state.list, .absent, "\(what): a bad record was restored")
      XCTAssertEqual(
        relaunched.recentPersistenceEvents.count, 1, "\(what): not reported once")
      guard case .undecodable? = relaunched.recentPersistenceEvents.first else {
        XCTFail("\(what): reported as \(relaunched.recentPersistenceEvents)")
        continue
      }
      await relaunched.flushPersistence()
      // Dropped: the next launch finds nothing and reports nothing.
      let third = relaunch(saved)
      XCTAssertEqual(
        third.pagedLoader(for: ["feed"], source: server.source()).state.list, .absent,
        "\(what): the bad record stayed")
      XCTAssertEqual(third.recentPersistenceEvents, [], "\(what): the bad record stayed")
    }
  }
}

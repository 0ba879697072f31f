import Loadables
import LoadablesTesting
import Observation
import XCTest

/// Previous pages, in every paged form: a page put before the first, a cap that drops pages
/// at the far end and fetches them again at their own cursors as the list is paged back to
/// them, one page load at a time, and what supersedes a previous page.
@MainActor
final class PreviousPageTests: XCTestCase {
  typealias Feed = PagedState<Int, Int>

  // MARK: - A cap on pages, both ways, in every form

  func testAWrapperScrollsPastTheCapAndBackRefreshingTheDroppedPagesAtTheirCursors() async {
    let server = PageServer()
    let source = Self.capped(server)
    @Paged var feed: Feed
    let binding = $feed
    await Self.roundTrip(
      server, state: { feed },
      load: { await binding.load(from: source) },
      next: { await binding.loadNextPage(from: source) },
      previous: { await binding.loadPreviousPage(from: source) })
  }

  func testTheTaskFormsOfAWrapperPageBothWaysToo() async {
    let server = PageServer()
    let source = Self.capped(server)
    @Paged var feed: Feed
    let binding = $feed
    await Self.roundTrip(
      server, state: { feed },
      load: { await binding.load(from: source, priority: nil).value },
      next: { await binding.loadNextPage(from: source, priority: nil).value },
      previous: { await binding.loadPreviousPage(from: source, priority: nil).value })
  }

  func testAModelScrollsPastTheCapAndBack() async {
    let server = PageServer()
    let source = Self.capped(server)
    let model = FeedModel()
    await Self.roundTrip(
      server, state: { model.feed },
      load: { await model.load(\.feed, from: source) },
      next: { await model.loadNextPage(\.feed, from: source) },
      previous: { await model.loadPreviousPage(\.feed, from: source) })
    // The task form, back up to the page dropped just before the first.
    let previous = model.loadPreviousPage(\.feed, from: source, priority: nil)
    await server.answer(9, with: Self.forwardPage(3))
    await previous.value
    XCTAssertEqual(model.feed.items, items(3, 4))
    XCTAssertEqual(server.calls.last, 3)
  }

  func testALoaderScrollsPastTheCapAndBack() async {
    let server = PageServer()
    let loader = PagedLoader(source: Self.capped(server))
    await Self.roundTrip(
      server, state: { loader.state },
      load: { await loader.load() },
      next: { await loader.loadNextPage() },
      previous: { await loader.loadPreviousPage() })
  }

  func testAStoreEntryScrollsPastTheCapAndBack() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(for: ["feed"], maxPages: 2, source: Self.forward(server))
    await Self.roundTrip(
      server, state: { feed.state },
      load: { _ = await feed.load() },
      next: { await feed.loadNextPage() },
      previous: { await feed.loadPreviousPage() })
  }

  func testADefinitionsEntryScrollsPastItsCapAndBack() async {
    struct Capped: PagedLoadDefinition {
      let source: PagedSource<Int, Int>
      var key: LoadKey { ["capped"] }
      var maxPages: Int? { 2 }
    }
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(for: Capped(source: Self.forward(server)))
    await Self.roundTrip(
      server, state: { feed.state },
      load: { _ = await feed.load() },
      next: { await feed.loadNextPage() },
      previous: { await feed.loadPreviousPage() })
  }

  func testARememberedCursorWinsOverWhatTheNeighbouringPageSays() async {
    // A chat opened at its newest page (10): older pages say where the page before them
    // starts, but not the page after. With one page kept, paging back down must fetch page
    // 10 again at the cursor it was fetched with, though page 9 names no next page.
    let server = PageServer()
    let source = PagedSource<Int, Int>(first: 10, maxPages: 1) { cursor in
      try await server.fetch(cursor)
    }
    let chat = PagedLoader(source: source)
    await Self.step(server, serving: Self.olderOnly) { await chat.load() }
    XCTAssertEqual(chat.state.nextPage, .end)
    XCTAssertEqual(chat.state.previousCursor, 9)

    await Self.step(server, serving: Self.olderOnly) { await chat.loadPreviousPage() }
    XCTAssertEqual(chat.state.items, items(9))
    XCTAssertEqual(chat.state.droppedTrailingPageCount, 1)
    XCTAssertEqual(chat.state.nextPage, .idle, "the dropped newest page cannot be paged to")
    XCTAssertEqual(chat.state.nextCursor, 10)

    await Self.step(server, serving: Self.olderOnly) { await chat.loadNextPage() }
    XCTAssertEqual(chat.state.items, items(10))
    XCTAssertEqual(chat.state.nextPage, .end)
    XCTAssertEqual(chat.state.droppedPageCount, 1)
    XCTAssertEqual(chat.state.previousCursor, 9)
    XCTAssertEqual(server.calls, [10, 9, 10])
  }

  // MARK: - Previous pages of a feed that pages both ways

  func testAPreviousPageIsPutFirstUntilTheFirstPageOfTheFeed() async throws {
    let server = PageServer()
    let source = Self.both(server, first: 3)
    @Paged var feed: Feed
    let recorder = StateRecorder($feed)
    await Self.step(server) { await $feed.load(from: source) }
    XCTAssertEqual(feed.previousCursor, 2)
    XCTAssertTrue(feed.hasPreviousPage)

    let previous = $feed.loadPreviousPage(from: source, priority: nil)
    XCTAssertEqual(feed.previousPage, .loading, "the header spinner shows as the page starts")
    XCTAssertEqual(feed.nextPage, .idle, "the footer changed")
    XCTAssertFalse($feed.isRefreshing)
    await server.answer(1, with: Self.bothWays(2))
    await previous.value
    XCTAssertEqual(feed.items, items(2, 3), "the previous page's items do not come first")
    XCTAssertEqual(feed.pages, [Self.bothWays(2), Self.bothWays(3)])
    XCTAssertEqual(feed.previousPage, .idle)

    await Self.step(server, serving: Self.bothWays) { await $feed.loadPreviousPage(from: source) }
    XCTAssertEqual(feed.items, items(1, 2, 3))
    XCTAssertEqual(feed.previousPage, .end)
    XCTAssertFalse(feed.hasPreviousPage)
    XCTAssertEqual(feed.droppedPageCount, 0)

    await $feed.loadPreviousPage(from: source)
    XCTAssertEqual(server.calls, [3, 2, 1], "at the first page, a previous page fetched")
    XCTAssertEqual(
      recorder.states.map(\.previousPage),
      [.idle, .idle, .idle, .loading, .idle, .loading, .end])
    XCTAssertEqual(recorder.states.map(\.nextPage), Array(repeating: .idle, count: 7))
  }

  func testAForwardOnlyFeedHasNoPreviousPageAndAskingForOneDoesNothing() async {
    let server = PageServer()
    let source = server.source()
    @Paged var feed: Feed
    await $feed.loadPreviousPage(from: source)
    XCTAssertEqual(feed, Feed(), "a previous page of an unloaded list wrote")
    await Self.step(server) { await $feed.load(from: source) }
    XCTAssertEqual(feed.previousPage, .end)
    XCTAssertFalse(feed.hasPreviousPage)
    XCTAssertNil(feed.previousCursor)
    let state = feed
    await $feed.loadPreviousPage(from: source)
    await $feed.loadPreviousPage(from: source, priority: nil).value
    XCTAssertEqual(feed, state)
    XCTAssertEqual(server.calls, [1])
  }

  func testAFailedPreviousPageKeepsTheListAndAskingAgainRetriesThatPage() async {
    let server = PageServer()
    let loader = PagedLoader(source: Self.both(server, first: 5))
    await Self.step(server) { await loader.load() }

    let failing = Task { await loader.loadPreviousPage() }
    await server.fail(1, with: TestError(code: 3))
    await failing.value
    XCTAssertEqual(loader.state.list, .loaded(items(5)), "a failed previous page blanked")
    XCTAssertEqual(loader.state.previousPage, .failed(TestError(code: 3)))
    XCTAssertTrue(loader.state.hasPreviousPage)

    await Self.step(server, serving: Self.bothWays) { await loader.loadPreviousPage() }
    XCTAssertEqual(server.calls, [5, 4, 4], "the retry did not fetch the page that failed")
    XCTAssertEqual(loader.state.items, items(4, 5))
    XCTAssertEqual(loader.state.previousPage, .idle)
  }

  func testCancelMidPreviousPageBringsBackWhatTheHeaderShowed() async {
    let server = PageServer()
    server.ignoresCancellation = true
    let source = Self.both(server, first: 5)
    @Paged var feed: Feed
    await Self.step(server) { await $feed.load(from: source) }
    let failing = $feed.loadPreviousPage(from: source, priority: nil)
    await server.fail(1, with: TestError(code: 1))
    await failing.value

    let retry = $feed.loadPreviousPage(from: source, priority: nil)
    await server.gate(2).arrival()
    $feed.cancel()
    XCTAssertEqual(feed.previousPage, .failed(TestError(code: 1)), "the header is not back")
    server.gate(2).open(Self.bothWays(4))
    await retry.value
    XCTAssertEqual(feed.items, items(5), "a cancelled previous page landed")
  }

  func testAPreviousCursorAlreadyFetchedStopsTheStartOfTheList() async throws {
    // Page 2 says page 1 comes before it, and page 1 says page 2 does: a loop.
    var served: [Int] = []
    let source = PagedSource<Int, Int>(first: 2) { cursor in
      served.append(cursor)
      return Page(items: [cursor], previous: cursor == 2 ? 1 : 2, next: nil)
    }
    let loader = PagedLoader(source: source)
    await loader.load()
    await loader.loadPreviousPage()
    XCTAssertEqual(loader.state.items, [1, 2])
    let error = try XCTUnwrap(loader.state.previousPage.error as? RepeatedCursorError)
    XCTAssertTrue(
      error.description.contains("returned the previous cursor 2, which was already fetched"),
      error.description)
    XCTAssertFalse(loader.state.hasPreviousPage)
    await loader.loadPreviousPage()
    XCTAssertEqual(served, [2, 1], "after a repeated cursor, asking again fetched")

    // A first page that names itself as the page before it.
    let selfish = PagedLoader(
      source: PagedSource<Int, Int>(first: 7) { Page(items: [$0], previous: $0, next: nil) })
    await selfish.load()
    XCTAssertTrue(selfish.state.previousPage.error is RepeatedCursorError)
    XCTAssertFalse(selfish.state.hasPreviousPage)
  }

  // MARK: - One page at a time

  func testAPreviousPageAskedForWhileANextPageLoadsWaitsForItAndFetchesNothing() async {
    let server = PageServer()
    let source = Self.both(server, first: 5)
    @Paged var feed: Feed
    await Self.step(server) { await $feed.load(from: source) }

    let next = $feed.loadNextPage(from: source, priority: nil)
    await server.gate(1).arrival()
    let binding = $feed
    let previous = Task { @MainActor in await binding.loadPreviousPage(from: source) }
    let previousTask = $feed.loadPreviousPage(from: source, priority: nil)
    await yieldUntil { server.calls.count > 2 }
    XCTAssertEqual(server.calls, [5, 6], "a previous page started beside the next page")
    XCTAssertEqual(feed.previousPage, .idle)
    // Open the gates a second load would wait at too, so that a regression fails, not hangs.
    server.gate(1).open(Self.bothWays(6))
    for index in 2...3 { server.gate(index).open(Self.bothWays(4)) }
    await next.value
    await previous.value
    await previousTask.value
    XCTAssertEqual(feed.items, items(5, 6), "the joined calls returned before the page landed")
    XCTAssertEqual(server.calls, [5, 6])

    await binding.loadPreviousPage(from: source)
    XCTAssertEqual(server.calls, [5, 6, 4])
    XCTAssertEqual(feed.items, items(4, 5, 6), "asked again once the page landed, it fetches")
  }

  func testANextPageAskedForWhileAPreviousPageLoadsWaitsForIt() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(for: ["chat"], source: Self.both(server, first: 5))
    await Self.step(server) { _ = await feed.load() }

    let previous = Task { await feed.loadPreviousPage() }
    await server.gate(1).arrival()
    XCTAssertEqual(feed.state.previousPage, .loading)
    XCTAssertFalse(feed.isRefreshing, "a previous page shows as a refresh")
    let next = Task { await feed.loadNextPage() }
    await yieldUntil { server.calls.count > 2 }
    XCTAssertEqual(server.calls, [5, 4])
    for index in 1...2 { server.gate(index).open(Self.bothWays(4)) }
    await previous.value
    await next.value
    XCTAssertEqual(feed.state.items, items(4, 5))
    XCTAssertEqual(server.calls, [5, 4])
  }

  func testAPreviousPageAskedForWhileTheFirstLoadsFetchesNothing() async {
    let server = PageServer()
    let loader = PagedLoader(source: Self.both(server, first: 5))
    let first = Task { await loader.load() }
    await server.gate(0).arrival()
    let previous = Task { await loader.loadPreviousPage() }
    await yieldUntil { server.calls.count > 1 }
    server.gate(0).open(Self.bothWays(5))
    server.gate(1).open(Self.bothWays(4))
    await first.value
    await previous.value
    XCTAssertEqual(server.calls, [5])
    XCTAssertEqual(loader.state.items, items(5))
  }

  // MARK: - What supersedes a previous page

  func testARefreshCancelsAPreviousPageInFlightAndItsAnswerNeverLands() async {
    let server = PageServer()
    server.ignoresCancellation = true
    let source = Self.both(server, first: 5)
    @Paged var feed: Feed
    await Self.step(server) { await $feed.load(from: source) }
    let recorder = StateRecorder($feed)

    let previous = $feed.loadPreviousPage(from: source, priority: nil)
    await server.gate(1).arrival()
    let refresh = $feed.refresh(from: source, priority: nil)
    XCTAssertEqual(feed.previousPage, .idle, "the superseded previous page's spinner stayed")
    XCTAssertEqual(feed.list, .loaded(items(5)), "a refresh blanked the list")
    server.gate(1).open(Self.bothWays(4))
    await previous.value
    XCTAssertEqual(feed.items, items(5), "a superseded previous page landed")

    await server.answer(2, with: Page(items: [50], previous: 4, next: 6))
    await refresh.value
    XCTAssertEqual(feed.items, [50])
    XCTAssertEqual(server.calls, [5, 4, 5])
    XCTAssertFalse(recorder.states.contains { $0.items.contains(40) }, "\(recorder.states)")
  }

  func testAStoreRefreshCancelsAPreviousPageAndResetsTheDroppedPages() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(for: ["feed"], maxPages: 1, source: Self.forward(server))
    await Self.step(server) { _ = await feed.load() }
    await Self.step(server) { await feed.loadNextPage() }
    XCTAssertEqual(feed.state.droppedPageCount, 1)

    let previous = Task { await feed.loadPreviousPage() }
    await server.gate(2).arrival()
    XCTAssertEqual(server.calls, [1, 2, 1], "the dropped page is not fetched at its cursor")
    let refresh = Task { await feed.refresh() }
    await server.gate(3).arrival()
    XCTAssertEqual(feed.state.previousPage, .idle, "the cancelled page's spinner stayed")
    server.gate(2).open(page(1))  // too late: never written
    server.gate(3).open(page(1))
    _ = await refresh.value
    await previous.value
    XCTAssertEqual(feed.state.items, items(1))
    XCTAssertEqual(feed.state.droppedPageCount, 0)
    XCTAssertEqual(feed.state.droppedTrailingPageCount, 0)
    XCTAssertEqual(feed.state.previousPage, .end)
  }

  func testResetMidPreviousPageEmptiesTheListAndTheAnswerNeverLands() async {
    let server = PageServer()
    server.ignoresCancellation = true
    let model = FeedModel()
    let source = Self.both(server, first: 5)
    await Self.step(server) { await model.load(\.feed, from: source) }
    let previous = model.loadPreviousPage(\.feed, from: source, priority: nil)
    await server.gate(1).arrival()
    model.reset(\.feed)
    server.gate(1).open(Self.bothWays(4))
    await previous.value
    XCTAssertEqual(model.feed, Feed())
  }

  // MARK: - A store's entry

  func testAPendingEditReachesAPreviousPageAndRollsBackExactly() async throws {
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(for: ["posts", "feed"], source: Self.both(server, first: 5))
    await Self.step(server) { _ = await feed.load() }
    let previous = Task { await feed.loadPreviousPage() }
    await server.gate(1).arrival()

    let job = Gate<Void>()
    let edit = Task {
      try await store.edit {
        // Every item ending in 1: 51 now, 41 once page 4 lands before it.
        let count = $0.update(
          matching: ["posts"], in: store, as: Int.self, where: { $0 % 10 == 1 }
        ) { $0 = -$0 }
        XCTAssertEqual(count, 1)
      } perform: {
        try await job.pass()
      }
    }
    await job.arrival()
    XCTAssertEqual(feed.state.items, [50, -51, 52])
    XCTAssertEqual(feed.state.previousPage, .loading, "the edit cancelled the previous page")

    server.gate(1).open(Self.bothWays(4))
    await previous.value
    XCTAssertEqual(feed.state.items, [40, -41, 42, 50, -51, 52], "the edit was lost or missed")
    XCTAssertEqual(feed.state.pages.map(\.items), [[40, -41, 42], [50, -51, 52]])

    job.fail(TestError(code: 1))
    _ = try? await edit.value
    XCTAssertEqual(feed.state.items, items(4, 5), "the rollback was not exact")
    XCTAssertEqual(feed.state.pages, [Self.bothWays(4), Self.bothWays(5)])
    XCTAssertEqual(server.calls, [5, 4])
  }

  func testAPreviousPageNeverMakesAStaleListFresh() async {
    let clock = ManualClock()
    let store = LoaderStore(clock: clock)
    let server = PageServer()
    let feed = store.pagedLoader(
      for: ["chat"], staleTime: .seconds(60), source: Self.both(server, first: 5))
    await Self.step(server) { _ = await feed.load() }
    clock.advance(by: .seconds(61))
    XCTAssertTrue(feed.isStale)
    await Self.step(server, serving: Self.bothWays) { await feed.loadPreviousPage() }
    XCTAssertEqual(feed.state.items, items(4, 5))
    XCTAssertTrue(feed.isStale, "a previous page made an aged list fresh")
  }

  func testARestoredListPagesBackFromItsSavedPreviousCursor() async {
    let saved = StorePersistence.inMemory(version: "1")
    let server = PageServer()
    do {
      let store = LoaderStore(persistence: saved)
      let feed = store.pagedLoader(for: ["chat"], source: Self.both(server, first: 5))
      await Self.step(server) { _ = await feed.load() }
      await Self.step(server, serving: Self.bothWays) { await feed.loadPreviousPage() }
      await store.flushPersistence()
    }

    let store = LoaderStore(persistence: saved)
    let feed = store.pagedLoader(
      for: ["chat"], staleTime: .seconds(600), source: Self.both(server, first: 5))
    XCTAssertEqual(feed.state.items, items(4, 5), "the page put first was not saved with the list")
    XCTAssertTrue(feed.state.hasPreviousPage, "a restored list lost its previous cursor")
    await Self.step(server, serving: Self.bothWays) { await feed.loadPreviousPage() }
    XCTAssertEqual(server.calls, [5, 4, 3], "a restored list did not page back from its cursor")
    XCTAssertEqual(feed.state.items, items(3, 4, 5))
  }

  // MARK: - Helpers

  @MainActor @Observable
  final class FeedModel: LoadableSupport {
    var feed = PagedState<Int, Int>()
  }

  /// Page `number` of a feed that pages forward only: five pages.
  static func forwardPage(_ number: Int) -> Page<Int, Int> {
    page(number, last: number == 5)
  }

  /// Page `number` of a feed that pages both ways, from page 1 to page 9.
  static func bothWays(_ number: Int) -> Page<Int, Int> {
    Page(
      items: page(number).items, previous: number > 1 ? number - 1 : nil,
      next: number < 9 ? number + 1 : nil)
  }

  /// Page `number` of a chat whose pages name the page before them only.
  static func olderOnly(_ number: Int) -> Page<Int, Int> {
    Page(items: page(number).items, previous: number - 1, next: nil)
  }

  static func forward(_ server: PageServer) -> PagedSource<Int, Int> {
    PagedSource(first: 1) { cursor in try await server.fetch(cursor) }
  }

  static func capped(_ server: PageServer) -> PagedSource<Int, Int> {
    PagedSource(first: 1, maxPages: 2) { cursor in try await server.fetch(cursor) }
  }

  static func both(_ server: PageServer, first: Int) -> PagedSource<Int, Int> {
    PagedSource(first: first) { cursor in try await server.fetch(cursor) }
  }

  /// Runs `call`, answers the one fetch it makes with the page `serving` builds for the
  /// cursor fetched, and waits for the call to return.
  static func step(
    _ server: PageServer,
    serving make: @escaping (Int) -> Page<Int, Int> = { bothWays($0) },
    _ call: @escaping @MainActor () async -> Void
  ) async {
    let index = server.calls.count
    let task = Task { @MainActor in await call() }
    await server.gate(index).arrival()
    server.gate(index).open(make(server.calls[index]))
    await task.value
  }

  /// Five pages of a feed that pages forward only, two kept: down to the end, back up to the
  /// top, down again; each dropped page fetched again at its own cursor, once.
  static func roundTrip(
    _ server: PageServer,
    state: @escaping @MainActor () -> PagedState<Int, Int>,
    load: @escaping @MainActor () async -> Void,
    next: @escaping @MainActor () async -> Void,
    previous: @escaping @MainActor () async -> Void
  ) async {
    await step(server, serving: forwardPage, load)
    XCTAssertEqual(state().previousPage, .end)
    for _ in 2...4 { await step(server, serving: forwardPage, next) }
    XCTAssertEqual(state().items, items(3, 4))
    XCTAssertEqual(state().droppedPageCount, 2)
    XCTAssertEqual(state().previousPage, .idle)
    XCTAssertTrue(state().hasPreviousPage, "a dropped page cannot be paged back to")
    XCTAssertEqual(state().previousCursor, 2)

    // Back up: each dropped page at its own cursor; the far end drops.
    await step(server, serving: forwardPage, previous)
    XCTAssertEqual(state().items, items(2, 3), "the dropped page is not put first")
    XCTAssertEqual(state().droppedPageCount, 1)
    XCTAssertEqual(state().droppedTrailingPageCount, 1)
    XCTAssertEqual(state().nextCursor, 4)
    XCTAssertEqual(state().nextPage, .idle)
    await step(server, serving: forwardPage, previous)
    XCTAssertEqual(state().items, items(1, 2))
    XCTAssertEqual(state().pages, [forwardPage(1), forwardPage(2)])
    XCTAssertEqual(state().droppedPageCount, 0)
    XCTAssertEqual(state().droppedTrailingPageCount, 2)
    XCTAssertEqual(state().previousPage, .end, "the top of the list is not its end")
    XCTAssertFalse(state().hasPreviousPage)
    await previous()  // at the top: nothing
    XCTAssertEqual(
      server.calls, [1, 2, 3, 4, 2, 1], "the dropped pages were not fetched once each")

    // Down again: the pages dropped at the end, then the server's cursors on to the end.
    await step(server, serving: forwardPage, next)
    XCTAssertEqual(state().items, items(2, 3))
    XCTAssertEqual(state().droppedTrailingPageCount, 1)
    await step(server, serving: forwardPage, next)
    XCTAssertEqual(state().items, items(3, 4))
    XCTAssertEqual(state().droppedTrailingPageCount, 0)
    XCTAssertEqual(state().droppedPageCount, 2)
    await step(server, serving: forwardPage, next)
    XCTAssertEqual(state().items, items(4, 5))
    XCTAssertEqual(state().nextPage, .end)
    await next()  // at the end: nothing
    XCTAssertEqual(server.calls, [1, 2, 3, 4, 2, 1, 3, 4, 5])
  }
}

import Loadables
import LoadablesTesting
import XCTest

/// A paged list as an entry of a `LoaderStore`: one list for every screen, the first page's
/// freshness, invalidation that refreshes the first page, and edits that reach the items
/// without cancelling a next page. Through the public API, with gates and a manual clock.
@MainActor
final class SharedPagedLoaderTests: XCTestCase {
  // MARK: - One list, shared

  func testTwoScreensShareOneListAndFetchEachPageOnce() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(for: ["feed"], source: server.source())
    let other = store.pagedLoader(for: ["feed"], source: server.source())
    XCTAssertTrue(feed === other, "one key gave two paged entries")

    let first = Task { await feed.load() }
    await server.answer(0, with: page(1))
    _ = await first.value
    XCTAssertEqual(feed.state.items, items(1))

    let a = Task { await feed.loadNextPage() }
    await server.gate(1).arrival()
    let b = Task { await other.loadNextPage() }  // joins the page in flight
    XCTAssertEqual(feed.state.nextPage, .loading)
    server.gate(1).open(page(2))
    await a.value
    await b.value
    XCTAssertEqual(other.state.items, items(1, 2))
    XCTAssertEqual(server.calls, [1, 2], "a page was fetched twice")
  }

  func testANextPageInFlightCountsAsTheStoreFetching() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(for: ["feed"], source: server.source())
    let first = Task { await feed.load() }
    await server.answer(0, with: page(1))
    _ = await first.value
    XCTAssertFalse(store.isRunning)
    let next = Task { await feed.loadNextPage() }
    await server.gate(1).arrival()
    XCTAssertTrue(store.isRunning, "a next page in flight is not counted")
    XCTAssertEqual(store.runningCount, 1)
    server.gate(1).open(page(2))
    await next.value
    XCTAssertFalse(store.isRunning)
  }

  func testALoadJoinsANextPageInFlight() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(for: ["feed"], source: server.source())
    let first = Task { await feed.load() }
    await server.answer(0, with: page(1))
    _ = await first.value
    let next = Task { await feed.loadNextPage() }
    await server.gate(1).arrival()
    let load = Task { await feed.load() }
    server.gate(1).open(page(2, last: true))
    await next.value
    let state = await load.value
    XCTAssertEqual(state.items, items(1, 2))
    XCTAssertEqual(state.nextPage, .end)
    XCTAssertEqual(server.calls, [1, 2])
  }

  // MARK: - Freshness and invalidation

  func testInvalidationRefreshesOnlyTheFirstPageWithTheListOnScreen() async {
    let store = LoaderStore(clock: ManualClock())
    let server = PageServer()
    let feed = store.pagedLoader(for: ["feed"], staleTime: .seconds(60), source: server.source())
    let token = feed.observe()
    defer { token.end() }
    let first = Task { await feed.load() }
    await server.answer(0, with: page(1))
    _ = await first.value
    let next = Task { await feed.loadNextPage() }
    await server.answer(1, with: page(2))
    await next.value

    store.invalidate(["feed"])
    await server.gate(2).arrival()
    XCTAssertEqual(feed.state.items, items(1, 2), "the list blanked during the refresh")
    XCTAssertTrue(feed.isRunning)
    server.gate(2).open(page(5))
    await feed.load()
    XCTAssertEqual(feed.state.items, items(5), "the refreshed first page did not replace the list")
    XCTAssertEqual(server.calls, [1, 2, 1], "the invalidation fetched more than the first page")
    XCTAssertFalse(feed.isStale)
  }

  func testANextPageNeverMakesAStaleOrInvalidatedListFresh() async {
    let clock = ManualClock()
    let store = LoaderStore(clock: clock)
    let server = PageServer()
    let feed = store.pagedLoader(for: ["feed"], staleTime: .seconds(60), source: server.source())
    let first = Task { await feed.load() }
    await server.answer(0, with: page(1))
    _ = await first.value
    XCTAssertFalse(feed.isStale)

    store.invalidate(["feed"])  // nobody observes it: stale, no refresh yet
    XCTAssertTrue(feed.isStale)
    let next = Task { await feed.loadNextPage() }
    await server.answer(1, with: page(2))
    await next.value
    XCTAssertEqual(feed.state.items, items(1, 2))
    // Checked before waiting for a refresh, so that a regression fails instead of hanging.
    guard feed.isStale else { return XCTFail("a next page made an invalidated list fresh") }

    let reload = Task { await feed.load() }  // stale: refreshes the first page, silently
    await server.gate(2).arrival()
    XCTAssertEqual(feed.state.items, items(1, 2))
    server.gate(2).open(page(1))
    _ = await reload.value
    XCTAssertEqual(feed.state.items, items(1))
    XCTAssertFalse(feed.isStale)

    clock.advance(by: .seconds(61))
    XCTAssertTrue(feed.isStale)
    let later = Task { await feed.loadNextPage() }
    await server.answer(3, with: page(2))
    await later.value
    XCTAssertTrue(feed.isStale, "a next page made an aged list fresh")
    XCTAssertEqual(server.calls, [1, 2, 1, 2])
  }

  func testAFirstPageFetchCancelsTheNextPageInFlight() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(for: ["feed"], source: server.source())
    let first = Task { await feed.load() }
    await server.answer(0, with: page(1))
    _ = await first.value
    let next = Task { await feed.loadNextPage() }
    await server.gate(1).arrival()

    let refresh = Task { await feed.refresh() }
    await server.gate(2).arrival()
    XCTAssertEqual(feed.state.nextPage, .idle, "the cancelled page's footer spinner stayed")
    server.gate(1).open(page(2))  // too late: its answer is never written
    server.gate(2).open(page(7))
    _ = await refresh.value
    await next.value
    XCTAssertEqual(feed.state.items, items(7))
    XCTAssertEqual(feed.state.pages.count, 1)
  }

  // MARK: - Refreshing

  func testIsRefreshingOnlyWhileAFirstPageRefreshesALoadedList() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(for: ["feed"], source: server.source())
    let first = Task { await feed.load() }
    await server.gate(0).arrival()
    XCTAssertFalse(feed.isRefreshing, "a first load counted as a refresh")
    server.gate(0).open(page(1))
    _ = await first.value

    let next = Task { await feed.loadNextPage() }
    await server.gate(1).arrival()
    XCTAssertTrue(feed.isRunning)
    XCTAssertFalse(feed.isRefreshing, "a next page counted as a refresh")
    server.gate(1).open(page(2))
    await next.value
    XCTAssertFalse(feed.isRefreshing)

    store.invalidate(["feed"])  // unobserved: no fetch yet
    let refresh = Task { await feed.refresh() }
    await server.gate(2).arrival()
    XCTAssertTrue(feed.isRefreshing, "a refresh over the loaded list is not a refresh")
    XCTAssertEqual(feed.state.items, items(1, 2))
    server.gate(2).open(page(1))
    _ = await refresh.value
    XCTAssertFalse(feed.isRefreshing)
  }

  func testAPagedLoaderSaysItIsRefreshingAsTheEntryDoes() async {
    let server = PageServer()
    let loader = PagedLoader(source: server.source())
    let first = Task { await loader.load() }
    await server.gate(0).arrival()
    XCTAssertFalse(loader.isRefreshing)
    server.gate(0).open(page(1))
    await first.value
    let next = Task { await loader.loadNextPage() }
    await server.gate(1).arrival()
    XCTAssertFalse(loader.isRefreshing, "a next page counted as a refresh")
    server.gate(1).open(page(2))
    await next.value
    let refresh = Task { await loader.refresh() }
    await server.gate(2).arrival()
    XCTAssertTrue(loader.isRefreshing)
    server.gate(2).open(page(1))
    await refresh.value
    XCTAssertFalse(loader.isRefreshing)
  }

  // MARK: - A cap on pages

  func testMaxPagesDropsTheFirstPagesAndARefreshLoadsFromTheFirstPageAgain() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(for: ["feed"], maxPages: 2, source: server.source())
    let first = Task { await feed.load() }
    await server.answer(0, with: page(1))
    _ = await first.value
    for index in 1...2 {
      let next = Task { await feed.loadNextPage() }
      await server.answer(index, with: page(index + 1))
      await next.value
    }
    XCTAssertEqual(feed.state.items, items(2, 3), "the first page was not dropped")
    XCTAssertEqual(feed.state.pages, [page(2), page(3)])
    XCTAssertEqual(feed.state.droppedPageCount, 1)
    XCTAssertEqual(feed.state.nextCursor, 4)

    let next = Task { await feed.loadNextPage() }
    await server.answer(3, with: page(4, last: true))
    await next.value
    XCTAssertEqual(feed.state.items, items(3, 4))
    XCTAssertEqual(feed.state.droppedPageCount, 2)
    XCTAssertEqual(feed.state.nextPage, .end)

    let refresh = Task { await feed.refresh() }  // back to the top: from the first page
    await server.answer(4, with: page(1))
    _ = await refresh.value
    XCTAssertEqual(feed.state.items, items(1))
    XCTAssertEqual(feed.state.droppedPageCount, 0)
    XCTAssertEqual(server.calls, [1, 2, 3, 4, 1])
  }

  func testAPagedLoaderKeepsAtMostItsSourcesMaxPages() async {
    let server = PageServer()
    let source = server.source()
    let loader = PagedLoader(
      source: PagedSource(first: 1, maxPages: 1) { try await source.fetch($0) })
    let first = Task { await loader.load() }
    await server.answer(0, with: page(1))
    await first.value
    let next = Task { await loader.loadNextPage() }
    await server.answer(1, with: page(2))
    await next.value
    XCTAssertEqual(loader.state.items, items(2))
    XCTAssertEqual(loader.state.pages, [page(2)])
    XCTAssertEqual(loader.state.droppedPageCount, 1)
  }

  // MARK: - Refreshing every loaded page

  func testRefreshingAllLoadedPagesFetchesEachPageOnceInOrderWithTheListOnScreen() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(
      for: ["feed"], staleTime: .seconds(60), refreshedPages: .allLoadedPages,
      source: server.source())
    let token = feed.observe()
    defer { token.end() }
    let first = Task { await feed.load() }
    await server.answer(0, with: page(1))
    _ = await first.value
    for index in 1...2 {
      let next = Task { await feed.loadNextPage() }
      await server.answer(index, with: page(index + 1))
      await next.value
    }

    store.invalidate(["feed"])
    await server.answer(3, with: Page(items: [100], next: 2))
    await server.gate(4).arrival()
    XCTAssertTrue(feed.isRefreshing)
    XCTAssertEqual(feed.state.items, items(1, 2, 3), "the list changed before the last page")
    server.gate(4).open(page(2))
    await server.answer(5, with: page(3, last: true))
    _ = await feed.load()
    XCTAssertEqual(feed.state.items, [100] + items(2, 3))
    XCTAssertEqual(feed.state.pages.count, 3)
    XCTAssertEqual(feed.state.nextPage, .end)
    XCTAssertFalse(feed.isRefreshing)
    XCTAssertFalse(feed.isStale)
    XCTAssertEqual(
      server.calls, [1, 2, 3, 1, 2, 3], "a refresh of 3 pages did not cost 3 requests")
  }

  func testAFailedRefreshOfAllPagesKeepsTheListAndShowsTheError() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(
      for: ["feed"], staleTime: .seconds(60), refreshedPages: .allLoadedPages,
      source: server.source())
    let first = Task { await feed.load() }
    await server.answer(0, with: page(1))
    _ = await first.value
    let next = Task { await feed.loadNextPage() }
    await server.answer(1, with: page(2))
    await next.value

    let refresh = Task { await feed.refresh() }
    await server.answer(2, with: page(1))
    await server.fail(3, with: TestError(code: 7))
    _ = await refresh.value
    XCTAssertEqual(feed.state.items, items(1, 2), "a failed page of the run blanked the list")
    XCTAssertEqual(feed.state.pages.count, 2)
    XCTAssertEqual(feed.refreshError as? TestError, TestError(code: 7))
    XCTAssertFalse(feed.isRefreshing)
    XCTAssertEqual(server.calls, [1, 2, 1, 2])
  }

  func testARetryDuringARefreshOfAllPagesRetriesTheFailedPageOnly() async throws {
    // The retry's own clock: the store's would have sleepers of its own (its sweep).
    let clock = ManualClock()
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(
      for: ["feed"], staleTime: .seconds(60), refreshedPages: .allLoadedPages,
      source: server.source(
        policy: .retry(maxAttempts: 2, backoff: .constant(.seconds(5)), clock: clock)))
    let first = Task { await feed.load() }
    await server.answer(0, with: page(1))
    _ = await first.value
    for index in 1...2 {
      let next = Task { await feed.loadNextPage() }
      await server.answer(index, with: page(index + 1))
      await next.value
    }

    let refresh = Task { await feed.refresh() }
    await server.answer(3, with: page(1))
    await server.fail(4, with: TestError(code: 2))  // page 2 of the run
    try await clock.sleepers(count: 1)
    XCTAssertEqual(feed.attempt?.number, 2, "the page's retry is not shown")
    XCTAssertEqual(feed.state.items, items(1, 2, 3), "the list changed before the last page")
    clock.advance(by: .seconds(5))
    await server.answer(5, with: page(2))
    await server.answer(6, with: page(3, last: true))
    _ = await refresh.value
    XCTAssertEqual(feed.state.items, items(1, 2, 3))
    XCTAssertEqual(feed.state.nextPage, .end)
    XCTAssertNil(feed.refreshError)
    XCTAssertEqual(
      server.calls, [1, 2, 3, 1, 2, 2, 3], "a failed page restarted the run from the first page")
  }

  func testAPagedWrapperSaysItIsRefreshing() async {
    @Paged var feed: PagedState<Int, Int>
    let server = PageServer()
    let source = server.source()
    let first = Task { await $feed.load(from: source) }
    await server.answer(0, with: page(1))
    await first.value
    XCTAssertFalse($feed.isRefreshing)
    let refresh = Task { await $feed.refresh(from: source) }
    await server.gate(1).arrival()
    XCTAssertTrue($feed.isRefreshing)
    server.gate(1).open(page(1))
    await refresh.value
    XCTAssertFalse($feed.isRefreshing)
  }

  func testTheDefaultRefreshFetchesTheFirstPageOnly() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(for: ["feed"], source: server.source())
    let first = Task { await feed.load() }
    await server.answer(0, with: page(1))
    _ = await first.value
    let next = Task { await feed.loadNextPage() }
    await server.answer(1, with: page(2))
    await next.value
    let refresh = Task { await feed.refresh() }
    await server.answer(2, with: page(1))
    _ = await refresh.value
    XCTAssertEqual(feed.state.items, items(1))
    XCTAssertEqual(server.calls, [1, 2, 1])
  }

  // MARK: - Edits

  func testAnEditReachesTheItemsWithoutCancellingTheNextPageAndRollsBackExactly() async throws {
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(for: ["feed"], source: server.source())
    let first = Task { await feed.load() }
    await server.answer(0, with: page(1))
    _ = await first.value
    let next = Task { await feed.loadNextPage() }
    await server.gate(1).arrival()

    let job = Gate<Void>()
    let edit = Task {
      try await store.edit {
        $0.update(feed) { items in items[0] = 99 }
      } perform: {
        try await job.pass()
      }
    }
    await job.arrival()
    XCTAssertEqual(feed.state.items, [99, 11, 12])
    XCTAssertTrue(feed.isRunning, "the edit cancelled the next page in flight")
    XCTAssertEqual(feed.state.nextPage, .loading)

    server.gate(1).open(page(2))
    await next.value
    XCTAssertEqual(
      feed.state.items, [99, 11, 12] + items(2), "the page did not land under the edit")
    XCTAssertEqual(server.calls, [1, 2])

    job.fail(TestError(code: 1))
    _ = try? await edit.value
    XCTAssertEqual(feed.state.items, items(1, 2), "the rollback was not exact")
    XCTAssertEqual(feed.state.nextPage, .idle)
  }

  func testAnItemPatchReachesItsPagesAndLaterPagesAndRollsBackExactly() async throws {
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(for: ["feed"], source: server.source())
    let first = Task { await feed.load() }
    await server.answer(0, with: page(1))
    _ = await first.value
    let next = Task { await feed.loadNextPage() }
    await server.gate(1).arrival()

    let job = Gate<Void>()
    let edit = Task {
      try await store.edit {
        // Every item ending in 1: 11 now, 21 once page 2 lands.
        XCTAssertEqual($0.update(items: feed, where: { $0 % 10 == 1 }) { $0 = -$0 }, .updated)
      } perform: {
        try await job.pass()
      }
    }
    await job.arrival()
    XCTAssertEqual(feed.state.items, [10, -11, 12])
    XCTAssertEqual(feed.state.pages.flatMap(\.items), feed.state.items, "pages and items differ")
    XCTAssertEqual(feed.state.nextPage, .loading, "the patch cancelled the next page in flight")

    server.gate(1).open(page(2))
    await next.value
    XCTAssertEqual(feed.state.items, [10, -11, 12, 20, -21, 22], "page 2 did not land under it")
    XCTAssertEqual(feed.state.pages.map(\.items), [[10, -11, 12], [20, -21, 22]])
    XCTAssertEqual(feed.state.nextCursor, 3)

    job.fail(TestError(code: 1))
    _ = try? await edit.value
    XCTAssertEqual(feed.state.items, items(1, 2), "the rollback was not exact")
    XCTAssertEqual(feed.state.pages, [page(1), page(2)])
    XCTAssertEqual(server.calls, [1, 2])
  }

  func testUpdateMatchingReachesItemsInPagedEntriesAndValueEntriesOfTheItemType() async throws {
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(for: ["posts", "feed"], source: server.source())
    let one = store.loader(for: ["posts", 11]) { 11 }
    let list = store.loader(for: ["posts", "list"]) { [1, 11, 21] }
    let other = store.loader(for: ["posts", "name"]) { "11" }
    let first = Task { await feed.load() }
    await server.answer(0, with: page(1))
    _ = await first.value
    _ = await one.load()
    _ = await list.load()
    _ = await other.load()

    let job = Gate<Void>()
    let edit = Task {
      try await store.edit {
        let count = $0.update(matching: ["posts"], in: store, as: Int.self, where: { $0 == 11 }) {
          $0 = 99
        }
        XCTAssertEqual(count, 3, "not every entry of Int items was reached")
      } perform: {
        try await job.pass()
      }
    }
    await job.arrival()
    XCTAssertEqual(feed.state.items, [10, 99, 12])
    XCTAssertEqual(feed.state.pages.first?.items, [10, 99, 12])
    XCTAssertEqual(one.state, .loaded(99))
    XCTAssertEqual(list.state, .loaded([1, 99, 21]))
    XCTAssertEqual(other.state, .loaded("11"))
    job.fail(TestError(code: 1))
    _ = try? await edit.value
    XCTAssertEqual(feed.state.items, items(1))
    XCTAssertEqual(one.state, .loaded(11))
    XCTAssertEqual(list.state, .loaded([1, 11, 21]))

    try await store.edit {
      let count = $0.update(matching: ["posts"], in: store, as: [Int].self) { $0.removeFirst() }
      XCTAssertEqual(count, 2, "a paged entry of Int is not reached as [Int]")
    } perform: {
    }
    XCTAssertEqual(feed.state.items, [11, 12])
    XCTAssertEqual(list.state, .loaded([11, 21]))
  }

  func testASetShowsItsItemsKeepsTheCursorAndACommitStaysUntilARefresh() async throws {
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(for: ["feed"], source: server.source())
    let first = Task { await feed.load() }
    await server.answer(0, with: page(1))
    _ = await first.value

    try await store.edit {
      $0.set(feed, to: [1, 2, 3])
    } perform: {
    }
    XCTAssertEqual(feed.state.items, [1, 2, 3])
    XCTAssertEqual(feed.state.nextCursor, 2, "a set lost the list's cursor")

    let next = Task { await feed.loadNextPage() }
    await server.answer(1, with: page(2))
    await next.value
    XCTAssertEqual(feed.state.items, [1, 2, 3], "a committed set was dropped by a next page")
    XCTAssertEqual(feed.state.pages.count, 2)
  }

  // MARK: - The store

  func testAKeyHeldByAValueEntryIsReportedAndThePagedEntryKeptApart() async {
    let store = LoaderStore()
    var asserted: [LoadKeyTypeMismatch] = []
    store.typeMismatchAssertion = { asserted.append($0) }
    let count = store.loader(for: ["feed"]) { 3 }
    let server = PageServer()
    let feed = store.pagedLoader(for: ["feed"], source: server.source())
    XCTAssertEqual(asserted.map(\.heldType), ["Swift.Int"])
    XCTAssertTrue(asserted.first?.askedType.contains("PagedState") ?? false, "\(asserted)")
    XCTAssertEqual(store.recentDiagnostics, asserted.map(StoreDiagnostic.typeMismatch))
    XCTAssertTrue(store.pagedLoader(for: ["feed"], source: server.source()) === feed)
    XCTAssertEqual(asserted.count, 1, "a second caller of the same type was reported again")
    XCTAssertTrue(store.existingLoader(for: ["feed"], as: Int.self) === count)
    XCTAssertEqual(store.count, 2)
    XCTAssertFalse(feed.settings.isPersisted, "an entry kept apart would save under one key")
    let load = Task { await feed.load() }
    await server.answer(0, with: page(1))
    _ = await load.value
    XCTAssertEqual(feed.state.items, items(1), "the paged entry kept apart does not work")
  }

  func testARestoredListShowsItsItemsAndPagesOnFromItsSavedCursor() async {
    let saved = StorePersistence.inMemory(version: "1")
    let server = PageServer()
    do {
      let store = LoaderStore(persistence: saved)
      let feed = store.pagedLoader(for: ["feed"], source: server.source())
      let first = Task { await feed.load() }
      await server.answer(0, with: page(1))
      _ = await first.value
      await store.flushPersistence()
    }

    let store = LoaderStore(persistence: saved)
    let feed = store.pagedLoader(for: ["feed"], staleTime: .seconds(600), source: server.source())
    XCTAssertEqual(feed.state.items, items(1), "the saved items are not shown")
    XCTAssertTrue(feed.state.hasNextPage, "the restored list lost its next cursor")
    XCTAssertFalse(feed.isRunning)
    let next = Task { await feed.loadNextPage() }
    await server.gate(1).arrival()
    XCTAssertEqual(server.calls, [1, 2], "a restored list refreshed its first page to page on")
    XCTAssertEqual(feed.state.items, items(1), "the restored list blanked")
    server.gate(1).open(page(2))
    await next.value
    XCTAssertEqual(feed.state.items, items(1, 2))
  }
}

import Loadables
import LoadablesTesting
import Observation
import XCTest

/// Lists that page, through `@Paged` (each form has its own tests below): the first page,
/// next pages and the end; failures of the next page; joining; refresh, reset and cancel
/// against a page in flight; policies per page.
@MainActor
final class PagingTests: XCTestCase {
  typealias Feed = PagedState<Int, Int>

  func testFirstPageThenNextPagesThenTheEndWithoutEverBlankingTheList() async throws {
    let server = PageServer()
    let source = server.source()
    @Paged var feed: Feed
    let recorder = StateRecorder($feed)

    let first = $feed.load(from: source, priority: nil)
    await server.answer(0, with: page(1))
    await first.value
    XCTAssertEqual(feed.items, items(1))
    XCTAssertEqual(feed.nextPage, .idle)
    XCTAssertEqual(feed.nextCursor, 2)

    let second = $feed.loadNextPage(from: source, priority: nil)
    XCTAssertEqual(feed.nextPage, .loading, "the footer spinner shows as the next page starts")
    XCTAssertEqual(feed.items, items(1), "the list stays while the next page loads")
    await server.answer(1, with: page(2))
    await second.value
    XCTAssertEqual(feed.items, items(1, 2))
    XCTAssertEqual(feed.pages, [page(1), page(2)])

    let third = $feed.loadNextPage(from: source, priority: nil)
    await server.answer(2, with: page(3, last: true))
    await third.value
    XCTAssertEqual(feed.items, items(1, 2, 3))
    XCTAssertEqual(feed.nextPage, .end)
    XCTAssertFalse(feed.hasNextPage)

    await $feed.loadNextPage(from: source)
    XCTAssertEqual(server.calls, [1, 2, 3], "at the end, asking for the next page fetches nothing")

    XCTAssertEqual(
      recorder.states.map(\.list),
      [
        .absent, .loading, .loaded(items(1)), .loaded(items(1)), .loaded(items(1, 2)),
        .loaded(items(1, 2)), .loaded(items(1, 2, 3)),
      ])
    XCTAssertEqual(
      recorder.states.map(\.nextPage), [.idle, .idle, .idle, .loading, .idle, .loading, .end])
  }

  func testAFailedNextPageKeepsTheEarlierPagesAndAskingAgainRetriesThatPage() async throws {
    let server = PageServer()
    let source = server.source()
    @Paged var feed: Feed

    let first = $feed.load(from: source, priority: nil)
    await server.answer(0, with: page(1))
    await first.value

    let failing = $feed.loadNextPage(from: source, priority: nil)
    await server.fail(1, with: TestError(code: 2))
    await failing.value
    XCTAssertEqual(feed.list, .loaded(items(1)), "a failed next page is a footer, not a screen")
    XCTAssertEqual(feed.nextPage, .failed(TestError(code: 2)))

    let retry = $feed.loadNextPage(from: source, priority: nil)
    XCTAssertEqual(feed.nextPage, .loading)
    await server.answer(2, with: page(2))
    await retry.value
    XCTAssertEqual(server.calls, [1, 2, 2], "the retry fetches the page that failed")
    XCTAssertEqual(feed.items, items(1, 2))
    XCTAssertEqual(feed.nextPage, .idle)
  }

  func testCallsWhileANextPageLoadsJoinItAndFetchOnce() async throws {
    let server = PageServer()
    let source = server.source()
    @Paged var feed: Feed
    await loadFirstPage($feed, server, source)

    let binding = $feed
    let callers = (0..<3).map { _ in
      Task { @MainActor in await binding.loadNextPage(from: source) }
    }
    let taskForm = $feed.loadNextPage(from: source, priority: nil)
    await server.gate(1).arrival()
    await yieldUntil { server.calls.count > 2 }
    XCTAssertEqual(server.calls, [1, 2], "four calls while the page loads fetch it once")
    // Open the gates a broken join would be waiting at too, so that it fails, not hangs.
    for index in 1...4 { server.gate(index).open(page(2)) }
    for caller in callers { await caller.value }
    await taskForm.value
    XCTAssertEqual(feed.items, items(1, 2), "every joined call returns after the page landed")
    XCTAssertEqual(server.calls, [1, 2])
  }

  func testAskingForTheNextPageWhileTheFirstLoadsFetchesNothing() async throws {
    let server = PageServer()
    let source = server.source()
    @Paged var feed: Feed
    let first = $feed.load(from: source, priority: nil)
    let next = $feed.loadNextPage(from: source, priority: nil)
    await server.answer(0, with: page(1))
    await first.value
    await next.value
    XCTAssertEqual(server.calls, [1])
    XCTAssertEqual(feed.items, items(1))
  }

  func testRefreshDuringANextPageKeepsTheListAndTheOlderAnswerNeverLands() async throws {
    let server = PageServer()
    server.ignoresCancellation = true
    let source = server.source()
    @Paged var feed: Feed
    await loadFirstPage($feed, server, source)
    let recorder = StateRecorder($feed)

    let next = $feed.loadNextPage(from: source, priority: nil)
    await server.gate(1).arrival()
    let refresh = $feed.refresh(from: source, priority: nil)
    XCTAssertEqual(feed.list, .loaded(items(1)), "a refresh keeps the list on screen")
    XCTAssertEqual(feed.nextPage, .idle, "the superseded next page's spinner goes")
    XCTAssertTrue($feed.isRunning)

    // The superseded next page answers after the refresh started; it must never land.
    server.gate(1).open(page(2))
    await next.value
    XCTAssertEqual(feed.items, items(1))

    await server.answer(2, with: Page(items: [100, 101], next: 2))
    await refresh.value
    XCTAssertEqual(feed.items, [100, 101], "the new first page replaces the list")
    XCTAssertEqual(feed.pages.count, 1, "later pages are fetched again as they are asked for")
    XCTAssertEqual(server.calls, [1, 2, 1])
    XCTAssertFalse(
      recorder.states.contains { !$0.list.isLoaded }, "the list never blanks: \(recorder.states)")
    XCTAssertFalse(recorder.states.contains { $0.items.contains(20) }, "\(recorder.states)")
  }

  func testAFailedRefreshKeepsTheListAndShowsTheErrorBesideIt() async throws {
    let server = PageServer()
    let source = server.source()
    @Paged var feed: Feed
    await loadFirstPage($feed, server, source)

    let refresh = $feed.refresh(from: source, priority: nil)
    await server.fail(1, with: TestError(code: 7))
    await refresh.value
    XCTAssertEqual(feed.list, .loaded(items(1)))
    XCTAssertEqual($feed.refreshError as? TestError, TestError(code: 7))

    let again = $feed.refresh(from: source, priority: nil)
    await server.answer(2, with: page(1))
    await again.value
    XCTAssertNil($feed.refreshError, "a successful refresh clears the error")
  }

  func testResetMidPageEmptiesTheListAndTheAnswerNeverLands() async throws {
    let server = PageServer()
    server.ignoresCancellation = true
    let source = server.source()
    @Paged var feed: Feed
    await loadFirstPage($feed, server, source)

    let next = $feed.loadNextPage(from: source, priority: nil)
    await server.gate(1).arrival()
    $feed.reset()
    XCTAssertEqual(feed, Feed())
    XCTAssertFalse($feed.isRunning)
    server.gate(1).open(page(2))
    await next.value
    XCTAssertEqual(feed, Feed(), "a fetch stopped by reset() never writes")
  }

  func testCancelMidPageBringsBackWhatTheFooterShowed() async throws {
    let server = PageServer()
    server.ignoresCancellation = true
    let source = server.source()
    @Paged var feed: Feed
    await loadFirstPage($feed, server, source)
    let failing = $feed.loadNextPage(from: source, priority: nil)
    await server.fail(1, with: TestError(code: 1))
    await failing.value

    let retry = $feed.loadNextPage(from: source, priority: nil)
    await server.gate(2).arrival()
    $feed.cancel()
    XCTAssertEqual(feed.list, .loaded(items(1)))
    XCTAssertEqual(feed.nextPage, .failed(TestError(code: 1)), "the footer it replaced is back")
    server.gate(2).open(page(2))
    await retry.value
    XCTAssertEqual(feed.items, items(1))
  }

  func testARetryPolicyRetriesAFailedPageOnItsClockAndShowsTheAttempt() async throws {
    let clock = ManualClock()
    let server = PageServer()
    let source = server.source(
      policy: .retry(maxAttempts: 2, backoff: .constant(.seconds(5)), clock: clock))
    @Paged var feed: Feed
    await loadFirstPage($feed, server, source)
    let recorder = StateRecorder($feed)

    let next = $feed.loadNextPage(from: source, priority: nil)
    await server.fail(1, with: TestError(code: 3))
    try await clock.sleepers(count: 1)
    XCTAssertEqual($feed.attempt?.number, 2)
    XCTAssertEqual($feed.attempt?.isWaiting, true)
    XCTAssertEqual(feed.nextPage, .loading, "the footer spinner stays across the attempts")
    XCTAssertEqual(server.calls, [1, 2])

    clock.advance(by: .seconds(5))
    await server.answer(2, with: page(2))
    await next.value
    XCTAssertEqual(server.calls, [1, 2, 2])
    XCTAssertEqual(feed.items, items(1, 2))
    XCTAssertNil($feed.attempt)
    XCTAssertEqual(recorder.states.map(\.nextPage), [.idle, .loading, .idle])
  }

  func testATimeoutLimitsEachPageOnItsOwn() async throws {
    let clock = ManualClock()
    let server = PageServer()
    let source = server.source(policy: .timeout(.seconds(10), clock: clock))
    @Paged var feed: Feed
    let first = $feed.load(from: source, priority: nil)
    await server.gate(0).arrival()
    clock.advance(by: .seconds(9))
    server.gate(0).open(page(1))
    await first.value

    let next = $feed.loadNextPage(from: source, priority: nil)
    await server.gate(1).arrival()
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(10))
    await next.value
    XCTAssertTrue(feed.nextPage.error is TimeoutError, "\(feed.nextPage)")
    XCTAssertEqual(feed.items, items(1))
  }

  func testProgressReportedByAPageFetchShowsBesideTheList() async throws {
    let gate = Gate<Void>()
    let source = PagedSource<Int, Int>(first: 1) { cursor in
      LoadingProgress.report(fraction: 0.5, message: "page \(cursor)")
      try await gate.pass()
      return page(cursor)
    }
    @Paged var feed: Feed
    XCTAssertNil($feed.progress)
    let load = $feed.load(from: source, priority: nil)
    await gate.arrival()
    XCTAssertEqual($feed.progress, LoadingProgress(fraction: 0.5, message: "page 1"))
    gate.open()
    await load.value
    XCTAssertNil($feed.progress)
  }

  func testASourceThatRepeatsACursorStopsTheListWithAnErrorNamingIt() async throws {
    var served: [Int] = []
    let source = PagedSource<Int, Int>(first: 1) { cursor in
      served.append(cursor)
      // Page 2 points back at page 1: following it would loop forever.
      return Page(items: [cursor], next: cursor == 2 ? 1 : cursor + 1)
    }
    @Paged var feed: Feed
    await $feed.load(from: source)
    await $feed.loadNextPage(from: source)
    XCTAssertEqual(feed.items, [1, 2])
    let error = try XCTUnwrap(feed.nextPage.error as? RepeatedCursorError)
    XCTAssertTrue(
      error.description.contains("returned the next cursor 1, which was already fetched"),
      error.description)
    XCTAssertFalse(feed.hasNextPage)
    await $feed.loadNextPage(from: source)
    XCTAssertEqual(served, [1, 2], "after a repeated cursor, asking again fetches nothing")
  }

  func testARepeatedEmptyStringCursorIsQuotedInTheError() async throws {
    // The Lists That Page article's own first cursor is "": a source that hands it back must
    // not read "returned the next cursor , which".
    let source = PagedSource<Int, String>(first: "") { cursor in
      Page(items: [cursor.count], next: cursor.isEmpty ? "a" : "")
    }
    @Paged var feed: PagedState<Int, String>
    await $feed.load(from: source)
    await $feed.loadNextPage(from: source)
    let error = try XCTUnwrap(feed.nextPage.error as? RepeatedCursorError)
    XCTAssertTrue(
      error.description.contains(#"returned the next cursor "", which was already fetched"#),
      error.description)
  }

  func testANumberedSourceEndsAtTheFirstShortPage() async throws {
    let all = Array(0..<7)
    let source = PagedSource<Int, Int>.numbered(pageSize: 3) { page, size in
      Array(all.dropFirst((page - 1) * size).prefix(size))
    }
    @Paged var feed: Feed
    await $feed.load(from: source)
    await $feed.loadNextPage(from: source)
    XCTAssertEqual(feed.nextPage, .idle)
    await $feed.loadNextPage(from: source)
    XCTAssertEqual(feed.items, all)
    XCTAssertEqual(feed.nextPage, .end)
  }

  func testAFailedFirstPageIsTheListsErrorAndAskingForMoreDoesNothing() async throws {
    let server = PageServer()
    let source = server.source()
    @Paged var feed: Feed
    let first = $feed.load(from: source, priority: nil)
    await server.fail(0, with: TestError(code: 9))
    await first.value
    XCTAssertEqual(feed.list, .error(TestError(code: 9)))
    await $feed.loadNextPage(from: source)
    XCTAssertEqual(server.calls, [1])
  }

  /// Loads and answers the first page with `page(1)`.
  private func loadFirstPage(
    _ binding: Paged<Int, Int>.Binding, _ server: PageServer, _ source: PagedSource<Int, Int>
  ) async {
    let first = binding.load(from: source, priority: nil)
    await server.answer(server.calls.count, with: page(1))
    await first.value
  }
}

/// The key-path form: a paged state stored in the user's own `@Observable` class.
@MainActor
final class PagingKeyPathTests: XCTestCase {
  @MainActor @Observable
  final class FeedModel: LoadableSupport {
    var feed = PagedState<Int, Int>()
  }

  func testAModelLoadsPagesIntoItsOwnPropertyWithTheSameRules() async throws {
    let server = PageServer()
    server.ignoresCancellation = true
    let source = server.source()
    let model = FeedModel()
    let recorder = StateRecorder(model, \.feed)

    let first = model.load(\.feed, from: source, priority: nil)
    XCTAssertTrue(model.handle(\.feed).isRunning)
    await server.answer(0, with: page(1))
    await first.value

    let joined = Task { @MainActor in await model.loadNextPage(\.feed, from: source) }
    let next = model.loadNextPage(\.feed, from: source, priority: nil)
    await server.answer(1, with: page(2))
    await next.value
    await joined.value
    XCTAssertEqual(server.calls, [1, 2])
    XCTAssertEqual(model.feed.items, items(1, 2))

    let stale = model.loadNextPage(\.feed, from: source, priority: nil)
    await server.gate(2).arrival()
    let refresh = model.refresh(\.feed, from: source, priority: nil)
    server.gate(2).open(page(3))
    await stale.value
    await server.answer(3, with: page(1, last: true))
    await refresh.value
    XCTAssertEqual(model.feed.items, items(1))
    XCTAssertEqual(model.feed.nextPage, .end)
    XCTAssertFalse(recorder.states.contains { $0.items.contains(30) })

    model.reset(\.feed)
    XCTAssertEqual(model.feed, PagedState())
  }

  func testObservingTheModelSeesEveryPageLand() async throws {
    let server = PageServer()
    let source = server.source()
    let model = FeedModel()
    let changes = ChangeCounter { _ = model.feed }
    let load = Task { @MainActor in await model.load(\.feed, from: source) }
    await server.answer(0, with: page(1))
    await load.value
    await yieldUntil { changes.count >= 2 }
    XCTAssertGreaterThanOrEqual(changes.count, 2, "loading and loaded both reach observers")
  }
}

/// The loader-object form.
@MainActor
final class PagedLoaderTests: XCTestCase {
  func testALoaderPagesAndEveryObserverSeesEveryState() async throws {
    let server = PageServer()
    let loader = PagedLoader(source: server.source())
    let recorder = StateRecorder(loader)
    let stream = Task { @MainActor in
      var seen: [PagedState<Int, Int>] = []
      for await state in loader.states {
        seen.append(state)
        if state.nextPage.isEnd { break }
      }
      return seen
    }

    async let first: Void = loader.load()
    await server.answer(0, with: page(1))
    await first
    async let second: Void = loader.loadNextPage()
    async let joined: Void = loader.loadNextPage()
    await server.answer(1, with: page(2, last: true))
    _ = await (second, joined)
    XCTAssertEqual(loader.state.items, items(1, 2))
    XCTAssertEqual(server.calls, [1, 2])
    XCTAssertFalse(loader.isRunning)

    let seen = await stream.value
    XCTAssertEqual(seen, recorder.states)
    XCTAssertEqual(seen.map(\.nextPage), [.idle, .idle, .idle, .loading, .end])
  }

  func testCancellingTheCallerCancelsItsPageAndBringsBackTheFooter() async throws {
    let server = PageServer()
    let loader = PagedLoader(source: server.source())
    async let first: Void = loader.load()
    await server.answer(0, with: page(1))
    await first

    let caller = Task { @MainActor in await loader.loadNextPage() }
    await server.gate(1).arrival()
    XCTAssertEqual(loader.state.nextPage, .loading)
    caller.cancel()
    await caller.value
    XCTAssertEqual(loader.state.nextPage, .idle)
    XCTAssertEqual(loader.state.items, items(1))
    XCTAssertFalse(loader.isRunning)
  }

  func testAFailedRefreshOfALoaderKeepsTheList() async throws {
    let server = PageServer()
    let loader = PagedLoader(source: server.source())
    async let first: Void = loader.load()
    await server.answer(0, with: page(1))
    await first
    async let refresh: Void = loader.refresh()
    await server.fail(1, with: TestError(code: 4))
    await refresh
    XCTAssertEqual(loader.state.items, items(1))
    XCTAssertEqual(loader.refreshError as? TestError, TestError(code: 4))
  }
}

import Loadables
import LoadablesTesting
import XCTest

/// `@Paged` and the key-path paged form following a shared paged entry, as the value forms
/// follow a `SharedLoader`: the form mirrors the entry, the entry's own page calls and
/// refreshes show in the form and on its handle, and the following ends as the value forms'
/// does. Through
/// the public API, with a gated page server.
@MainActor
final class PagedFollowingTests: XCTestCase {
  /// A store's feed entry holding page 1, and its server.
  private func loadedFeed(
    _ store: LoaderStore, _ server: PageServer
  ) async -> SharedPagedLoader<Int, Int> {
    let feed = store.pagedLoader(for: ["feed"], staleTime: .seconds(600), source: server.source())
    let first = Task { await feed.load() }
    await server.answer(0, with: page(1))
    _ = await first.value
    return feed
  }

  // MARK: - Following shows the entry

  func testAWrapperShowsTheEntrysPagesAtOnceAndFetchesNothingMore() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = await loadedFeed(store, server)
    @Paged var list: PagedState<Int, Int>
    let _: Task<Void, Never> = $list.load(from: feed)
    XCTAssertEqual(list.items, items(1), "the entry's pages were not shown at once")
    XCTAssertTrue(list.hasNextPage, "the entry's cursor was not shown")
    XCTAssertEqual(feed.observerCount, 1, "the wrapper does not count as an observer")
    await $list.load(from: feed)
    XCTAssertEqual(server.calls, [1], "following a fresh list fetched again")
    XCTAssertEqual(feed.observerCount, 1, "following the same entry twice counted twice")
  }

  func testARestoredListShowsInTheWrapperAtOnceAndPagesOnFromItsCursor() async {
    let saved = StorePersistence.inMemory(version: "1")
    let server = PageServer()
    do {
      let store = LoaderStore(persistence: saved)
      _ = await loadedFeed(store, server)
      await store.flushPersistence()
    }
    let store = LoaderStore(persistence: saved)
    let feed = store.pagedLoader(for: ["feed"], staleTime: .seconds(600), source: server.source())
    @Paged var list: PagedState<Int, Int>
    await $list.load(from: feed)
    XCTAssertEqual(list.items, items(1), "the restored pages were not shown at once")
    let next = Task { await feed.loadNextPage() }
    await server.gate(1).arrival()
    XCTAssertEqual(server.calls, [1, 2], "the restored list did not page on from its cursor")
    server.gate(1).open(page(2))
    await next.value
    XCTAssertEqual(list.items, items(1, 2))
  }

  // MARK: - The entry's own calls show in every form

  func testTheEntrysNextPageShowsInEveryFollowerWithItsSpinnerOnTheHandle() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = await loadedFeed(store, server)
    @Paged var list: PagedState<Int, Int>
    @Paged var other: PagedState<Int, Int>
    let _: Task<Void, Never> = $list.load(from: feed)
    let _: Task<Void, Never> = $other.load(from: feed)
    let recorder = StateRecorder($other)

    let next = Task { await feed.loadNextPage() }
    await server.gate(1).arrival()
    XCTAssertEqual(feed.state.nextPage, .loading)
    XCTAssertEqual(list.nextPage, .loading, "the entry's page spinner did not show in the wrapper")
    XCTAssertTrue($list.isRunning, "the handle does not show the entry's page loading")
    XCTAssertFalse($list.isRefreshing, "a next page showed as a refresh")
    server.gate(1).open(page(2))
    await next.value
    XCTAssertEqual(server.calls, [1, 2])
    XCTAssertEqual(feed.state.items, items(1, 2))
    XCTAssertEqual(list.items, items(1, 2))
    XCTAssertEqual(
      recorder.states.map(\.items), [items(1), items(1), items(1, 2)],
      "the other follower did not see the page load and land")
    XCTAssertEqual(recorder.states.map(\.nextPage), [.idle, .loading, .idle])
    XCTAssertFalse($list.isRunning)
    recorder.stop()
  }

  func testTheEntrysPreviousPageShowsInAKeyPathWithItsSpinnerOnTheHandle() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(for: ["chat"], source: server.source())
    let model = PagedFeedModel()
    let load: Task<Void, Never> = model.load(\.feed, from: feed)
    await server.gate(0).arrival()
    server.gate(0).open(Page(items: [20], previous: 0, next: nil))
    await load.value
    XCTAssertEqual(model.feed.items, [20])

    let previous = Task { await feed.loadPreviousPage() }
    await server.gate(1).arrival()
    XCTAssertEqual(model.feed.previousPage, .loading, "the key path did not show the spinner")
    XCTAssertTrue(model.handle(\.feed).isRunning, "the handle does not show the page loading")
    server.gate(1).open(Page(items: [10], next: nil))
    await previous.value
    XCTAssertEqual(feed.state.items, [10, 20], "the previous page is not the entry's")
    XCTAssertEqual(model.feed.items, [10, 20])
  }

  func testTheEntrysRefreshShowsInTheWrapperKeepingTheList() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = await loadedFeed(store, server)
    @Paged var list: PagedState<Int, Int>
    await $list.load(from: feed)
    let refresh = Task { await feed.refresh() }
    await server.gate(1).arrival()
    XCTAssertEqual(list.items, items(1), "the list blanked during a refresh")
    XCTAssertTrue($list.isRefreshing, "the handle does not show the entry refreshing")
    XCTAssertTrue(feed.isRefreshing)
    server.gate(1).open(Page(items: [7], next: 2))
    _ = await refresh.value
    XCTAssertEqual(list.items, [7])
    XCTAssertEqual(feed.state.items, [7])
    XCTAssertFalse($list.isRefreshing)
  }

  // MARK: - The entry reaches the form

  func testARefreshInTheEntryReachesAKeyPathAndItsHandleShowsIt() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = await loadedFeed(store, server)
    let model = PagedFeedModel()
    await model.load(\.feed, from: feed)
    let recorder = StateRecorder(model.handle(\.feed))

    store.invalidate(["feed"])
    await server.gate(1).arrival()
    XCTAssertTrue(model.handle(\.feed).isRunning, "the handle does not show the entry's fetch")
    XCTAssertTrue(model.handle(\.feed).isRefreshing)
    server.gate(1).open(Page(items: [5], next: 2))
    await yieldUntil { !feed.isRunning }
    XCTAssertEqual(model.feed.items, [5], "the entry's refresh did not reach the key path")
    XCTAssertFalse(model.handle(\.feed).isRunning)
    XCTAssertEqual(recorder.states.map(\.items), [items(1), [5]])
    recorder.stop()
  }

  func testAnErrorInTheEntryShowsInTheWrapper() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = store.pagedLoader(for: ["feed"], source: server.source())
    @Paged var list: PagedState<Int, Int>
    let load = Task { await $list.load(from: feed) }
    await server.fail(0, with: TestError(code: 1))
    await load.value
    XCTAssertEqual(list.list, .error(TestError(code: 1)), "the entry's error did not show")

    // A failed refresh keeps the list and shows its error beside it, on the form's handle.
    let retry = Task { await $list.load(from: feed) }
    await server.answer(1, with: page(1))
    await retry.value
    let refresh = Task { await feed.refresh() }
    await server.fail(2, with: TestError(code: 2))
    _ = await refresh.value
    XCTAssertEqual(list.items, items(1), "a failed refresh blanked the list")
    XCTAssertEqual($list.refreshError as? TestError, TestError(code: 2))

    // A failed next page is the footer's, in the form as in the entry.
    let next = Task { await feed.loadNextPage() }
    await server.fail(3, with: TestError(code: 3))
    await next.value
    XCTAssertEqual(list.nextPage, .failed(TestError(code: 3)))
    XCTAssertEqual(list.items, items(1))
  }

  // MARK: - Following ends as the value forms' does

  func testCancelResetOrALoadOfItsOwnEndTheWrappersFollowing() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = await loadedFeed(store, server)
    @Paged var list: PagedState<Int, Int>

    let _: Task<Void, Never> = $list.load(from: feed)
    $list.cancel()
    await yieldUntil { feed.observerCount == 0 }
    XCTAssertEqual(feed.observerCount, 0, "a cancelled wrapper still follows")

    let _: Task<Void, Never> = $list.load(from: feed)
    $list.reset()
    await yieldUntil { feed.observerCount == 0 }
    XCTAssertEqual(feed.observerCount, 0, "a reset wrapper still follows")
    XCTAssertEqual(list, PagedState())

    let _: Task<Void, Never> = $list.load(from: feed)
    // A load of its own, from the list it shows.
    let own: Task<Void, Never> = $list.loadNextPage(from: server.source())
    await yieldUntil { feed.observerCount == 0 }
    XCTAssertEqual(feed.observerCount, 0, "a wrapper loading on its own still follows")
    let entryNext = Task { await feed.loadNextPage() }
    await server.gate(1).arrival()  // the wrapper's own page
    XCTAssertEqual(list.nextPage, .loading)
    server.gate(1).open(page(2))
    await own.value
    await server.answer(2, with: page(2))  // the entry's page
    await entryNext.value
    XCTAssertEqual(feed.state.items, items(1, 2))
    try? await store.edit {
      $0.set(feed, to: [99])
    } perform: {
    }
    XCTAssertEqual(list.items, items(1, 2), "an unfollowed entry's edit reached the wrapper")
    XCTAssertFalse($list.isRunning)
  }

  func testAnAssignmentEndsTheWrappersFollowing() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = await loadedFeed(store, server)
    @Paged var list: PagedState<Int, Int>
    await $list.load(from: feed)
    list = PagedState()
    await yieldUntil { feed.observerCount == 0 }
    XCTAssertEqual(feed.observerCount, 0, "an assigned wrapper still follows")
    try? await store.edit {
      $0.set(feed, to: [99])
    } perform: {
    }
    XCTAssertEqual(list, PagedState(), "an unfollowed entry's edit reached the wrapper")
  }

  func testAReleasedKeyPathOwnerStopsFollowingAtOnce() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = await loadedFeed(store, server)
    var model: PagedFeedModel? = PagedFeedModel()
    await model!.load(\.feed, from: feed)
    XCTAssertEqual(feed.observerCount, 1)
    weak let released = model
    model = nil
    XCTAssertNil(released, "following kept the owner alive")
    XCTAssertEqual(feed.observerCount, 0, "a released owner still observes the entry")
    store.invalidate(["feed"])
    XCTAssertFalse(feed.isRunning, "an entry followed only by a released owner refreshed")
  }

  func testAWrapperWhoseStorageGoesStopsFollowing() async {
    let store = LoaderStore()
    let server = PageServer()
    let feed = await loadedFeed(store, server)
    do {
      @Paged var list: PagedState<Int, Int>
      await $list.load(from: feed)
      XCTAssertEqual(feed.observerCount, 1)
    }
    await yieldUntil { feed.observerCount == 0 }
    XCTAssertEqual(feed.observerCount, 0, "a wrapper gone still observes the entry")
  }

  // MARK: - The value forms, by the same rules

  func testAValueFollowersHandleShowsTheEntrysFetch() async {
    let store = LoaderStore()
    let gate = Gate<Int>()
    let entry = store.loader(for: ["count"]) { try await gate.pass() }
    @Loadable var count: LoadableState<Int>
    let load = Task { await $count.load(from: entry) }
    await gate.arrival()
    XCTAssertTrue($count.isRunning, "the follower's handle does not show the entry's fetch")
    XCTAssertTrue($count.handle.isRunning)
    gate.open(1)
    await load.value
    XCTAssertFalse($count.isRunning)
    XCTAssertEqual(count, .loaded(1))
  }

  func testARefreshThatChangesNothingWritesNothingToAFollower() async {
    let store = LoaderStore()
    let entry = store.loader(for: ["count"]) { 1 }
    let model = SharedCountModel()
    await model.load(\.count, from: entry)
    let recorder = StateRecorder(model.handle(\.count))
    await entry.refresh()
    XCTAssertEqual(recorder.states, [.loaded(1)], "an unchanged refresh wrote to the follower")
    recorder.stop()
  }

  // MARK: - start

  func testStartDoesNotWaitInEveryPagedForm() async {
    let server = PageServer()
    @Paged var list: PagedState<Int, Int>
    let wrapper = $list.start(from: server.source())
    XCTAssertEqual(list.list, .loading, "start did not show .loading before returning")
    await server.answer(0, with: page(1))
    await wrapper.value
    XCTAssertEqual(list.items, items(1))

    let model = PagedFeedModel()
    let keyPath = model.start(\.feed, from: server.source())
    XCTAssertEqual(model.feed.list, .loading)
    await server.answer(1, with: page(1))
    await keyPath.value
    XCTAssertEqual(model.feed.items, items(1))

    let loader = PagedLoader(source: server.source())
    let started = loader.start()
    XCTAssertEqual(loader.state.list, .loading)
    await server.answer(2, with: page(1))
    await started.value
    XCTAssertEqual(loader.state.items, items(1))
  }
}

@MainActor
final class PagedFeedModel: LoadableSupport {
  var feed = PagedState<Int, Int>()
}

@MainActor
final class SharedCountModel: LoadableSupport {
  var count: LoadableState<Int> = .absent
}

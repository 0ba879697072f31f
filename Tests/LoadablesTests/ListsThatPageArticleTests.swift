import Foundation
import Loadables
import Observation
import XCTest

// The Swift code of Docs/Loadables.docc/Articles/ListsThatPage.md (the SwiftUI excerpt is in
// Tests/SwiftUIStandIn/Recipes.swift), compiled here and run against a stub API. Keep the
// two in step.

// MARK: - Article: Describe the source once

struct Story: Identifiable, Equatable, Sendable {
  let id: Int
  var title: String
}

protocol StoriesAPI: Sendable {
  func stories(after cursor: String?) async throws -> (stories: [Story], next: String?)
  func story(_ id: Story.ID) async throws -> Story
  func rename(_ id: Story.ID, to title: String) async throws
}

/// The first page has no cursor: "" stands for it.
func storiesSource(_ api: any StoriesAPI) -> PagedSource<Story, String> {
  PagedSource(first: "", policy: .retry(maxAttempts: 3)) { cursor in
    let response = try await api.stories(after: cursor.isEmpty ? nil : cursor)
    return Page(items: response.stories, next: response.next)
  }
}

// MARK: - Article: Load, page, refresh

@MainActor @Observable
final class StoryFeedModel: LoadableSupport {
  var feed = PagedState<Story, String>()
  let source: PagedSource<Story, String>

  init(api: any StoriesAPI) { source = storiesSource(api) }

  func appear() async { await load(\.feed, from: source) }
  func lastRowAppeared() async { await loadNextPage(\.feed, from: source) }
  func pullToRefresh() async { await refresh(\.feed, from: source) }
}

// MARK: - Article: One list for every screen

@MainActor
final class StoryScreens {
  let store = LoaderStore()
  let api: any StoriesAPI

  init(api: any StoriesAPI) { self.api = api }

  var feed: SharedPagedLoader<Story, String> {
    store.pagedLoader(for: ["stories"], staleTime: .seconds(60), source: storiesSource(api))
  }

  /// A story's detail screen: an entry of its own, shared like any other.
  func story(_ id: Story.ID) -> SharedLoader<Story> {
    store.loader(for: ["stories", id], staleTime: .seconds(60)) { [api] in try await api.story(id) }
  }

  /// Renames a story in its detail and in its row, wherever the row is in the loaded pages;
  /// if the server refuses, both go back.
  func rename(_ id: Story.ID, to title: String) async throws {
    try await store.edit { edit in
      edit.update(story(id)) { $0.title = title }
      edit.update(items: feed, where: { $0.id == id }) { $0.title = title }
    } perform: { [api] in
      try await api.rename(id, to: title)
    }
  }
}

/// The feed described once (the article's paged definition).
struct StoriesQuery: PagedLoadDefinition {
  let api: any StoriesAPI
  var key: LoadKey { ["stories"] }
  var staleTime: Duration? { .seconds(60) }
  var source: PagedSource<Story, String> { storiesSource(api) }
}

// MARK: - Article: A store's list in a property

@MainActor @Observable
final class PostsFeedModel: LoadableSupport {
  var posts = PagedState<Post, Int>()
  let feed: SharedPagedLoader<Post, Int>

  init(store: LoaderStore, api: any PostsAPI) {
    feed = store.pagedLoader(
      for: ["posts", "pages"], staleTime: .seconds(30),
      source: .numbered(pageSize: 20) { page, _ in try await api.page(page) })
  }

  func appear() async { await load(\.posts, from: feed) }
  func lastRowAppeared() async { await feed.loadNextPage() }
  func pullToRefresh() async { await feed.refresh() }
}

/// The requests a test's API answered, in order.
@MainActor
final class RequestLog {
  var requests: [String] = []
}

// MARK: - Article: Pages before the first

struct Message: Equatable, Sendable {
  let id: Int
}

protocol ChatAPI: Sendable {
  /// The messages around `cursor` (the newest when `nil`), with the cursors of the older
  /// and newer pages.
  func messages(around cursor: Int?) async throws -> (
    messages: [Message], older: Int?, newer: Int?
  )
}

/// The newest page comes first: -1 stands for it.
func chatSource(_ api: any ChatAPI) -> PagedSource<Message, Int> {
  PagedSource(first: -1, maxPages: 5) { cursor in
    let response = try await api.messages(around: cursor == -1 ? nil : cursor)
    return Page(items: response.messages, previous: response.older, next: response.newer)
  }
}

/// Pages 0 (the oldest) to 3 (the newest) of one message each; a page's cursor is its number.
struct StubChatAPI: ChatAPI {
  func messages(around cursor: Int?) async throws -> (
    messages: [Message], older: Int?, newer: Int?
  ) {
    let page = cursor ?? 3
    return ([Message(id: page)], page > 0 ? page - 1 : nil, page < 3 ? page + 1 : nil)
  }
}

// MARK: - Article: A cap on pages

protocol NumberedPostsAPI: Sendable {
  func posts(page: Int) async throws -> [Int]
}

/// Page `n` holds the one post `n`, and records that it was asked for.
@MainActor
final class StubNumberedPostsAPI: NumberedPostsAPI {
  private(set) var asked: [Int] = []
  func posts(page: Int) async throws -> [Int] {
    asked.append(page)
    return [page]
  }
}

/// Two pages, "a" then "b", the cursor of the second being "b"; a rename is accepted (and
/// changes nothing on this stub) unless `refusesRenames`.
struct StubStoriesAPI: StoriesAPI {
  var refusesRenames = false

  func stories(after cursor: String?) async throws -> (stories: [Story], next: String?) {
    switch cursor {
    case nil: ([Story(id: 1, title: "a")], "b")
    default: ([Story(id: 2, title: "b")], nil)
    }
  }

  func story(_ id: Story.ID) async throws -> Story {
    Story(id: id, title: id == 1 ? "a" : "b")
  }

  func rename(_ id: Story.ID, to title: String) async throws {
    if refusesRenames { throw URLError(.badServerResponse) }
  }
}

@MainActor
final class ListsThatPageArticleTests: XCTestCase {
  func testTheArticlesModelLoadsPagesToTheEndAndRefreshes() async {
    let model = StoryFeedModel(api: StubStoriesAPI())
    await model.appear()
    await model.lastRowAppeared()
    XCTAssertEqual(model.feed.items.map(\.title), ["a", "b"])
    XCTAssertEqual(model.feed.nextPage, .end)
    await model.pullToRefresh()
    XCTAssertEqual(model.feed.items.map(\.title), ["a"])
    XCTAssertEqual(model.feed.nextPage, .idle)
  }

  func testTheArticlesSharedFeedPagesOnceForEveryScreenAndAnEditRenamesARow() async throws {
    let screens = StoryScreens(api: StubStoriesAPI())
    XCTAssertTrue(screens.feed === screens.feed, "two screens got two lists")
    await screens.feed.load()
    await screens.feed.loadNextPage()
    XCTAssertEqual(screens.feed.state.items.map(\.title), ["a", "b"])
    try await screens.rename(2, to: "renamed")
    XCTAssertEqual(screens.feed.state.items.map(\.title), ["a", "renamed"])
    XCTAssertEqual(screens.feed.state.nextPage, .end)
  }

  func testTheArticlesPagedDefinitionSharesTheListAndTheLookUpMakesNothing() async {
    let store = LoaderStore()
    let api = StubStoriesAPI()
    let id = 2
    var row: Story? {
      store.existingPagedLoader(for: ["stories"], as: Story.self, cursor: String.self)?
        .state.items.first { $0.id == id }
    }
    XCTAssertNil(row)
    XCTAssertEqual(store.count, 0, "the look-up made a list")
    let feed = store.pagedLoader(for: StoriesQuery(api: api))
    XCTAssertTrue(store.pagedLoader(for: StoriesQuery(api: api)) === feed)
    XCTAssertEqual(feed.settings.staleTime, .seconds(60))
    await feed.load()
    await feed.loadNextPage()
    XCTAssertEqual(row?.title, "b")
  }

  func testTheArticlesRenameReachesTheDetailAndTheRowAndARefusalTakesBothBack() async {
    let screens = StoryScreens(api: StubStoriesAPI(refusesRenames: true))
    let detail = screens.story(2)
    await screens.feed.load()
    await screens.feed.loadNextPage()
    await detail.load()
    XCTAssertTrue(screens.story(2) === detail, "the detail screens got two entries")
    let feedBefore = screens.feed.state
    let detailBefore = detail.state
    do {
      try await screens.rename(2, to: "renamed")
      XCTFail("the stub refuses renames")
    } catch {
      XCTAssertEqual(screens.feed.state, feedBefore, "the row was not taken back exactly")
      XCTAssertEqual(detail.state, detailBefore, "the detail was not taken back exactly")
      XCTAssertEqual(screens.feed.state.items.map(\.title), ["a", "b"])
    }

    let accepting = StoryScreens(api: StubStoriesAPI())
    await accepting.feed.load()
    await accepting.feed.loadNextPage()
    await accepting.story(2).load()
    try? await accepting.rename(2, to: "renamed")
    XCTAssertEqual(accepting.story(2).state.data?.title, "renamed")
    XCTAssertEqual(accepting.feed.state.items.map(\.title), ["a", "renamed"])
  }

  func testTheArticlesPropertiesFollowTheStoresListAndPageItForEveryScreen() async {
    let store = LoaderStore()
    let log = RequestLog()
    let api = ClosurePostsAPI { request in
      log.requests.append(request)
      let first = request == "page 1" ? 0 : 20
      let count = request == "page 1" ? 20 : 5
      return (first..<first + count).map { Post(id: $0, title: "\($0)") }
    }
    let tab = PostsFeedModel(store: store, api: api)
    let widget = PostsFeedModel(store: store, api: api)
    await tab.appear()
    await widget.appear()
    XCTAssertEqual(widget.posts.items.count, 20, "the second screen did not show the list")
    XCTAssertEqual(log.requests, ["page 1"], "the second screen fetched the list again")

    await tab.lastRowAppeared()
    XCTAssertEqual(widget.posts.items.count, 25, "the next page did not reach the other screen")
    XCTAssertEqual(widget.posts.nextPage, .end)
    XCTAssertEqual(log.requests, ["page 1", "page 2"])

    await widget.pullToRefresh()
    XCTAssertEqual(tab.posts.items.count, 20, "a refresh did not reach the other screen")
    XCTAssertEqual(log.requests, ["page 1", "page 2", "page 1"])
  }

  func testTheArticlesChatPagesBackToItsOldestMessages() async {
    let api = StubChatAPI()
    let chat = PagedLoader(source: chatSource(api))
    await chat.load()  // the newest messages
    await chat.loadPreviousPage()  // the older ones, put first
    XCTAssertEqual(chat.state.items.map(\.id), [2, 3])
    await chat.loadPreviousPage()
    await chat.loadPreviousPage()
    XCTAssertEqual(chat.state.items.map(\.id), [0, 1, 2, 3])
    XCTAssertEqual(chat.state.previousPage, .end)
    XCTAssertEqual(chat.state.nextPage, .end)
  }

  func testTheArticlesCappedFeedFetchesEachDroppedPageAgainAtItsCursor() async {
    let api = StubNumberedPostsAPI()
    let feed = PagedLoader(
      source: PagedSource(first: 1, maxPages: 2) { page in
        Page(items: try await api.posts(page: page), next: page + 1)
      })
    await feed.load()  // page 1
    await feed.loadNextPage()  // 1 2
    await feed.loadNextPage()  // 2 3     page 1 dropped: droppedPageCount 1
    XCTAssertEqual(feed.state.items, [2, 3])
    XCTAssertEqual(feed.state.droppedPageCount, 1)
    await feed.loadPreviousPage()  // 1 2     page 1 again; page 3 dropped
    XCTAssertEqual(feed.state.items, [1, 2])
    XCTAssertEqual(feed.state.droppedTrailingPageCount, 1)
    await feed.loadNextPage()  // 2 3     page 3 again
    XCTAssertEqual(feed.state.items, [2, 3])
    XCTAssertEqual(api.asked, [1, 2, 3, 1, 3])
  }
}

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

  func rename(_ id: Story.ID, to title: String) async throws {
    try await store.edit {
      $0.update(feed) { stories in
        if let index = stories.firstIndex(where: { $0.id == id }) { stories[index].title = title }
      }
    } perform: {
      // try await api.rename(id, to: title)
    }
  }
}

/// Two pages, "a" then "b", the cursor of the second being "b".
struct StubStoriesAPI: StoriesAPI {
  func stories(after cursor: String?) async throws -> (stories: [Story], next: String?) {
    switch cursor {
    case nil: ([Story(id: 1, title: "a")], "b")
    default: ([Story(id: 2, title: "b")], nil)
    }
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
}

import Foundation
import Loadables
import LoadablesTesting
import Observation
import XCTest

// The examples of the "Sharing State Across Screens" article, copied verbatim (all but the
// SwiftUI ones, which Tests/SwiftUIStandIn/Recipes.swift type-checks). `Post` and
// `PostsAPI` are in PolicyArticleTests.swift. Keep this file and the article in step.

// MARK: - Article: the declarations

protocol PostEditor: Sendable {
  func rename(_ id: Post.ID, to title: String) async throws
}

// MARK: - Article: Make each entry in one place

@MainActor
final class PostsRepository {
  let store: LoaderStore
  private let api: any PostsAPI
  private let editor: any PostEditor

  init(api: any PostsAPI, editor: any PostEditor, store: LoaderStore = LoaderStore()) {
    self.api = api
    self.editor = editor
    self.store = store
  }

  /// Every post, for the feed.
  var feed: SharedLoader<[Post]> {
    store.loader(for: ["posts"], staleTime: .seconds(30)) { [api] in
      try await api.posts()
    }
  }

  /// One post, for its detail screen.
  func post(_ id: Post.ID) -> SharedLoader<Post> {
    store.loader(for: ["posts", id], staleTime: .seconds(30)) { [api] in
      try await api.post(id)
    }
  }

  /// Renames a post on every screen at once, and takes the name back if the server refuses.
  func rename(_ id: Post.ID, to title: String) async throws {
    try await store.edit(invalidating: [["posts"]]) { edit in
      edit.update(post(id)) { $0.title = title }
      edit.update(feed) { posts in
        if let index = posts.firstIndex(where: { $0.id == id }) { posts[index].title = title }
      }
    } perform: { [editor] in
      try await editor.rename(id, to: title)
    }
  }
}

// MARK: - Article: A paged feed in the store

extension PostsRepository {
  /// The feed, twenty posts a page, for every screen that shows it.
  var pagedFeed: SharedPagedLoader<Post, Int> {
    store.pagedLoader(
      for: ["posts", "pages"], staleTime: .seconds(30),
      source: .numbered(pageSize: 20) { [api] page, _ in try await api.page(page) })
  }

  /// Renames a post in its detail and in its row of the paged feed; both go back if the
  /// server refuses.
  func renameInPages(_ id: Post.ID, to title: String) async throws {
    try await store.edit { edit in
      edit.update(post(id)) { $0.title = title }
      edit.update(pagedFeed) { posts in
        if let index = posts.firstIndex(where: { $0.id == id }) { posts[index].title = title }
      }
    } perform: { [editor] in
      try await editor.rename(id, to: title)
    }
  }
}

// MARK: - Article: Follow an entry from every form

@MainActor @Observable
final class PostDetailModel {
  @ObservationIgnored @Loadable var post: LoadableState<Post>
  @ObservationIgnored @LoadableProcess var renaming: SingleProcessState
  let id: Post.ID
  private let repository: PostsRepository

  init(id: Post.ID, repository: PostsRepository) {
    self.id = id
    self.repository = repository
  }

  func open() async {
    await $post.load(from: repository.post(id))
  }

  func rename(to title: String) {
    $renaming.run { [repository, id] in try await repository.rename(id, to: title) }
  }
}

@MainActor @Observable
final class FeedScreenModel: LoadableSupport {
  var posts: LoadableState<[Post]> = .absent
  private let repository: PostsRepository

  init(repository: PostsRepository) {
    self.repository = repository
  }

  func open() async {
    await load(\.posts, from: repository.feed)
  }
}

// MARK: - Support

/// The signal source of the article's trigger example: an `AsyncStream` per listener, fed by
/// the test.
@MainActor
final class ReconnectionSignals {
  private var listeners: [AsyncStream<Void>.Continuation] = []

  /// Delivers an element each time the network comes back.
  func reconnections() -> AsyncStream<Void> {
    let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
    listeners.append(continuation)
    return stream
  }

  var listenerCount: Int { listeners.count }

  func reconnect() {
    for listener in listeners { listener.yield() }
  }
}

// MARK: - Article: Describe each kind of entry once

struct PostQuery: LoadDefinition {
  let id: Post.ID
  let api: any PostsAPI
  var key: LoadKey { ["posts", id] }
  var staleTime: Duration? { .seconds(30) }
  func fetch() async throws -> Post { try await api.post(id) }
}

// MARK: - Article: Start from what the screen already has

struct PostDetailQuery: LoadDefinition {
  let id: Post.ID
  let api: any PostsAPI
  var key: LoadKey { ["posts", id] }
  func fetch() async throws -> Post { try await api.post(id) }
  func placeholder(in store: LoaderStore) -> Post? {
    store.existingLoader(for: ["posts"], as: [Post].self)?.state.data?.first { $0.id == id }
  }
}

/// A fake server for the article's examples: it answers from `posts`, records each request,
/// and refuses a rename while `refusing` is set; a rename that passes `renameGate` waits for
/// the test to open it.
@MainActor
final class FakePostsServer: PostsAPI, PostEditor {
  var posts: [Post]
  var refusing: (any Error)?
  var renameGate: Gate<Void>?
  private(set) var requests: [String] = []

  init(posts: [Post]) {
    self.posts = posts
  }

  func posts() async throws -> [Post] {
    requests.append("posts")
    return posts
  }

  func post(_ id: Post.ID) async throws -> Post {
    requests.append("post \(id)")
    guard let post = posts.first(where: { $0.id == id }) else { throw URLError(.badURL) }
    return post
  }

  func search(_ text: String) async throws -> [Post] { [] }
  /// Twenty posts a page.
  func page(_ number: Int) async throws -> [Post] {
    requests.append("page \(number)")
    return Array(posts.dropFirst((number - 1) * 20).prefix(20))
  }

  func rename(_ id: Post.ID, to title: String) async throws {
    requests.append("rename \(id)")
    if let renameGate { try await renameGate.pass() }
    if let refusing { throw refusing }
    if let index = posts.firstIndex(where: { $0.id == id }) { posts[index].title = title }
  }
}

// MARK: - Tests

@MainActor
final class SharedStateArticleTests: XCTestCase {
  let hello = Post(id: 1, title: "Hello")
  let renamed = Post(id: 1, title: "Renamed")

  func testTheFeedAndTheDetailShareOneStoreAndOneFetchPerKey() async {
    let server = FakePostsServer(posts: [hello])
    let repository = PostsRepository(api: server, editor: server)
    let detail = PostDetailModel(id: 1, repository: repository)
    let other = PostDetailModel(id: 1, repository: repository)
    let feed = FeedScreenModel(repository: repository)
    await feed.open()
    await detail.open()
    await other.open()  // fresh: fetches nothing
    XCTAssertEqual(feed.posts, .loaded([hello]))
    XCTAssertEqual(detail.post, .loaded(hello))
    XCTAssertEqual(other.post, .loaded(hello))
    XCTAssertEqual(server.requests, ["posts", "post 1"])
    XCTAssertEqual(repository.post(1).observerCount, 2, "both detail screens follow the entry")
    XCTAssertEqual(repository.feed.observerCount, 1)
  }

  func testARenameShowsAtOnceOnBothScreensAndRollsBackWhenRefused() async throws {
    let server = FakePostsServer(posts: [hello])
    server.refusing = URLError(.badServerResponse)
    let gate = Gate<Void>()
    server.renameGate = gate
    let repository = PostsRepository(api: server, editor: server)
    let detail = PostDetailModel(id: 1, repository: repository)
    let feed = FeedScreenModel(repository: repository)
    await feed.open()
    await detail.open()

    detail.rename(to: "Renamed")
    await gate.arrival()
    XCTAssertEqual(detail.post, .loaded(renamed), "the detail did not show the edit at once")
    XCTAssertEqual(feed.posts, .loaded([renamed]), "the feed did not show the edit at once")
    XCTAssertTrue(detail.renaming.isRunning)
    gate.open()
    try await waitUntil("the rename to fail", seen: "\(detail.renaming)") {
      detail.renaming.hasFailed
    }
    XCTAssertEqual(detail.renaming.error as? URLError, URLError(.badServerResponse))
    XCTAssertEqual(detail.post, .loaded(hello), "the detail was not rolled back")
    XCTAssertEqual(feed.posts, .loaded([hello]), "the feed was not rolled back")
  }

  func testAnAcceptedRenameInvalidatesAndBothScreensRefreshSilently() async throws {
    let server = FakePostsServer(posts: [hello])
    let repository = PostsRepository(api: server, editor: server)
    let detail = PostDetailModel(id: 1, repository: repository)
    let feed = FeedScreenModel(repository: repository)
    await feed.open()
    await detail.open()
    let feedStates = StateRecorder(feed, \.posts)
    defer { feedStates.stop() }

    try await repository.rename(1, to: "Renamed")
    XCTAssertTrue(repository.feed.isRunning, "the accepted edit did not invalidate the feed")
    XCTAssertTrue(repository.post(1).isRunning, "the accepted edit did not invalidate the post")
    await repository.feed.load()  // joins the refresh
    await repository.post(1).load()
    XCTAssertEqual(server.requests.prefix(3), ["posts", "post 1", "rename 1"])
    // The two refreshes start in the store's order, which is no particular one.
    XCTAssertEqual(Set(server.requests.dropFirst(3)), ["posts", "post 1"])
    XCTAssertEqual(server.requests.count, 5)
    XCTAssertEqual(feed.posts, .loaded([renamed]))
    XCTAssertEqual(detail.post, .loaded(renamed))
    XCTAssertFalse(feedStates.states.contains(where: \.isLoading), "a refresh blanked the feed")
  }

  func testTheTriggerExampleMakesAnEntryThatRefreshesOnASignal() async throws {
    let server = FakePostsServer(posts: [hello])
    let repository = PostsRepository(api: server, editor: server)
    let api: any PostsAPI = server
    let connectivity = ReconnectionSignals()

    let timeline = repository.store.loader(
      for: ["timeline"],
      staleTime: .seconds(60),
      refreshing: [
        .every(.seconds(300)),
        .signals { connectivity.reconnections() },
      ]
    ) { [api] in
      try await api.posts()
    }

    await timeline.load()
    XCTAssertEqual(timeline.state, .loaded([hello]) as LoadableState<[Post]>)
    let observation = timeline.observe()
    try await waitUntil("the trigger to listen") { connectivity.listenerCount == 1 }
    connectivity.reconnect()
    try await waitUntil("a refresh", seen: "\(server.requests)") { server.requests.count == 2 }
    observation.end()
  }

  func testAnObservationTokenMakesTheFeedRefreshWhenInvalidated() async {
    let server = FakePostsServer(posts: [hello])
    let repository = PostsRepository(api: server, editor: server)
    await repository.feed.load()

    let observation = repository.feed.observe()  // the feed now refreshes when invalidated
    // ... while the screen is on screen ...
    repository.store.invalidate(["posts"])  // the feed refreshes at once, silently
    observation.end()
    XCTAssertTrue(repository.feed.isRunning)
    await repository.feed.load()

    repository.store.invalidate(["posts"])
    XCTAssertFalse(repository.feed.isRunning, "an unobserved entry refreshed at once")
    XCTAssertEqual(server.requests, ["posts", "posts"])
  }

  func testADefinitionGivesEveryScreenOneTypedEntryWithTheStoreDefaults() async {
    let server = FakePostsServer(posts: [hello])
    let api: any PostsAPI = server
    let store = LoaderStore(defaults: LoadDefaults(maxAttempts: 3))
    let post = store.loader(for: PostQuery(id: 42, api: api))  // SharedLoader<Post>
    XCTAssertTrue(store.loader(for: PostQuery(id: 42, api: api)) === post)
    XCTAssertEqual(post.settings.staleTime, .seconds(30))
    XCTAssertTrue(
      post.settings.policy.hasPrefix("retry(maxAttempts: 3"), "got \(post.settings.policy)")
    let detail = store.loader(for: PostQuery(id: 1, api: api))
    let state = await detail.load()
    XCTAssertEqual(state, .loaded(hello))
    XCTAssertEqual(server.requests, ["post 1"])
  }

  func testAPrefetchedDetailIsThereWhenTheUserTapsTheRow() async {
    let api = FakePostsServer(posts: [hello])
    let store = LoaderStore()
    let id = 1

    let downloads = ConcurrencyLimiter(limit: 4)

    func post(_ id: Post.ID) -> SharedLoader<Post> {
      store.loader(for: ["posts", id], staleTime: .seconds(60), policy: .limit(downloads)) {
        try await api.post(id)
      }
    }

    // A row scrolls into view: warm its detail, unless it was fetched in the last 30 seconds.
    post(id).prefetch(ifOlderThan: .seconds(30))

    // The user taps the row: the detail joins the prefetch, or returns its value.
    await post(id).load()

    XCTAssertEqual(post(id).state, .loaded(hello))
    XCTAssertEqual(api.requests, ["post 1"], "the tap fetched again")
    XCTAssertFalse(post(id).prefetch(ifOlderThan: .seconds(30)))
  }

  func testTheDetailStartsFromTheRowAndFromTheFeedsPlaceholder() async {
    let two = Post(id: 2, title: "Two")
    let server = FakePostsServer(posts: [hello, two])
    let api: any PostsAPI = server
    let store = LoaderStore()
    let feed = store.loader(for: ["posts"], staleTime: .seconds(60)) { try await api.posts() }
    await feed.load()
    let row = hello

    let detail = store.loader(for: PostQuery(id: row.id, api: api))
    detail.start(with: row, fetchedAt: feed.fetchedAt)  // as fresh as the feed it came from
    await detail.load()  // refreshes silently only once that age passes the stale time
    XCTAssertEqual(detail.state, .loaded(hello))
    XCTAssertEqual(server.requests, ["posts"], "a fresh starting value was fetched")

    let placeheld = store.loader(for: PostDetailQuery(id: 2, api: api))
    XCTAssertTrue(placeheld.isPlaceholder)
    XCTAssertEqual(placeheld.state, .loaded(two))
    await placeheld.load()
    XCTAssertFalse(placeheld.isPlaceholder)
    XCTAssertEqual(server.requests, ["posts", "post 2"])
  }

  func testAPagedFeedInTheStoreIsSharedAndARenameReachesItsRowAndTheDetail() async throws {
    let server = FakePostsServer(posts: (1...25).map { Post(id: $0, title: "Post \($0)") })
    let repository = PostsRepository(api: server, editor: server)
    let tab = repository.pagedFeed
    let widget = repository.pagedFeed
    XCTAssertTrue(tab === widget, "the two screens got two lists")
    async let tabOpened = tab.load()
    async let widgetOpened = widget.load()
    _ = await (tabOpened, widgetOpened)
    async let tabPaged: Void = tab.loadNextPage()
    async let widgetPaged: Void = widget.loadNextPage()
    _ = await (tabPaged, widgetPaged)
    XCTAssertEqual(server.requests, ["page 1", "page 2"])
    XCTAssertEqual(widget.state.items.count, 25)
    XCTAssertEqual(widget.state.nextPage, .end)
    let detail = repository.post(22)
    await detail.load()

    // Refused: the row on page 2 and the detail show the rename, then go back exactly.
    let gate = Gate<Void>()
    server.renameGate = gate
    server.refusing = URLError(.badServerResponse)
    let feedBefore = tab.state
    let detailBefore = detail.state
    let refused = Task { try await repository.renameInPages(22, to: "Renamed") }
    await gate.arrival()
    XCTAssertEqual(widget.state.items[21].title, "Renamed")
    XCTAssertEqual(detail.state.data?.title, "Renamed")
    gate.open()
    _ = await refused.result
    XCTAssertEqual(tab.state, feedBefore)
    XCTAssertEqual(detail.state, detailBefore)

    // Accepted: both keep it.
    server.renameGate = nil
    server.refusing = nil
    try await repository.renameInPages(22, to: "Renamed")
    XCTAssertEqual(widget.state.items[21].title, "Renamed")
    XCTAssertEqual(widget.state.items.count, 25)
    XCTAssertEqual(detail.state.data?.title, "Renamed")
  }

  func testKeepItemsInSyncExample() async throws {
    let server = FakePostsServer(posts: [hello])
    let api: any PostsAPI = server
    let editor: any PostEditor = server

    let store = LoaderStore()
    store.keepInSync(Post.self)  // Identifiable, Equatable and Sendable

    let feed = store.loader(for: ["posts"]) { try await api.posts() }
    let post = store.loader(for: ["posts", 1]) { try await api.post(1) }
    await feed.load()
    server.posts = [Post(id: 1, title: "Hello again")]
    await post.refresh()  // the feed's row for post 1 shows what the detail fetched
    XCTAssertEqual(feed.state.data, [Post(id: 1, title: "Hello again")])

    try await store.edit { edit in
      edit.update(post) { $0.title = "Renamed" }  // the feed's row shows it too
      XCTAssertEqual(feed.state.data, [Post(id: 1, title: "Renamed")])
    } perform: {
      try await editor.rename(1, to: "Renamed")  // if it throws, both take it back
    }

    store.removeItem(Post.self, id: 1)  // after a delete: the feed drops the row, the detail resets
    XCTAssertEqual(feed.state.data, [])
    XCTAssertEqual(post.state, .absent)
  }

  func testKeysCompareAsAnyHashable() {
    XCTAssertEqual(LoadKey(["posts", 42]), LoadKey(["posts", 42 as Int64]))
    XCTAssertEqual(
      Set<LoadKey>([["posts", 42], ["posts", 42 as Int64], ["posts", 42]]).count, 1)
    XCTAssertNotEqual(LoadKey(["posts", 42]), LoadKey(["posts", 43]))
    XCTAssertNotEqual(LoadKey(["posts", 42]), LoadKey(["posts", "42"]))
    XCTAssertNotEqual(LoadKey(["posts"]), LoadKey(["post"]))
    XCTAssertEqual(LoadKey(["posts", 1.5]), LoadKey(["posts", 1.5]))
    XCTAssertNotEqual(LoadKey(["posts", 1.5]), LoadKey(["posts", 2.5]))
  }

  // MARK: Article: Testing

  func testTheFeedRefreshesOnceItIsStale() async throws {
    let clock = ManualClock()
    let server = FakePostsServer(posts: [Post(id: 1, title: "Hello")])
    let repository = PostsRepository(
      api: server, editor: server, store: LoaderStore(clock: clock))
    let feed = repository.feed
    await feed.load()
    let observation = feed.observe()
    try await clock.sleepers(count: 2)  // the store's grace sweeper and the feed's stale timer
    clock.advance(by: .seconds(30))
    XCTAssertTrue(feed.isStale)
    await feed.load()  // stale: refreshes silently
    XCTAssertEqual(server.requests, ["posts", "posts"])
    observation.end()
  }
}

import Loadables
import Observation

// The shared-state scene: a feed and a detail screen that show one post from one
// `LoaderStore`. Each row of the feed and the detail screen follow the same shared entry,
// `["posts", id]`, so they show one state, cause one fetch, and agree on every edit.

/// A post, as the fake server returns it.
struct Post: Sendable, Equatable {
  let id: Int
  let title: String
  var likes: Int
  var isLiked: Bool

  /// The post once the signed-in user liked it.
  var liked: Post {
    var post = self
    if !post.isLiked {
      post.likes += 1
      post.isLiked = true
    }
    return post
  }
}

/// A fake posts server: a feed of post ids, each post, and a "like" that it refuses the
/// first time. It counts the requests that reach it, so the scene can show how many fetches
/// the screens caused.
actor PostsServer {
  let pace: Pace
  private var posts: [Int: Post] = [
    1: Post(id: 1, title: "Loadables 1.0 is out", likes: 12, isLiked: false),
    2: Post(id: 2, title: "Sharing state across screens", likes: 3, isLiked: false),
  ]
  /// How many more times `like` refuses before it accepts.
  private var refusals = 1

  /// The requests that reached the server, by path: `"GET /posts/1": 1`.
  private(set) var requests: [String: Int] = [:]

  init(pace: Pace) {
    self.pace = pace
  }

  /// The ids of the feed's posts, in order.
  func feed() async throws -> [Int] {
    try await answer("GET /posts")
    return posts.keys.sorted()
  }

  /// One post.
  func post(_ id: Int) async throws -> Post {
    try await answer("GET /posts/\(id)")
    guard let post = posts[id] else { throw APIError.notFound }
    return post
  }

  /// Likes a post: refused the first time; then accepted, and by then someone else has liked
  /// the post too, so the server's count is one more than the screens guessed.
  func like(_ id: Int) async throws {
    try await answer("POST /posts/\(id)/like")
    if refusals > 0 {
      refusals -= 1
      throw APIError.likeRefused
    }
    posts[id]?.likes += 1  // another reader's like
    posts[id] = posts[id]?.liked
  }

  private func answer(_ request: String) async throws {
    requests[request, default: 0] += 1
    try await Task.sleep(for: pace.scaled(.milliseconds(300)))
  }
}

/// The app's shared entries for posts: one ``LoaderStore``, and the entries of the feed
/// and of each post, each made in one place so every screen asks for them the same way.
@MainActor
final class PostsRepository {
  let store = LoaderStore()
  let server: PostsServer

  init(server: PostsServer) {
    self.server = server
  }

  /// The feed's entry: the ids of its posts.
  var feed: SharedLoader<[Int]> {
    store.loader(for: ["posts"], staleTime: .seconds(60)) { [server] in
      try await server.feed()
    }
  }

  /// A post's entry, shared by its feed row and its detail screen. A value younger than a
  /// minute is shown as it is: opening the detail right after the feed fetches nothing.
  func post(_ id: Int) -> SharedLoader<Post> {
    store.loader(for: ["posts", id], staleTime: .seconds(60)) { [server] in
      try await server.post(id)
    }
  }

  /// Likes a post: both screens show it at once; if the server refuses, both go back to
  /// what they showed; if it accepts, every entry under `["posts"]` refreshes silently.
  func like(_ id: Int) async throws {
    let post = post(id)
    try await store.edit(invalidating: [["posts"]]) { edit in
      edit.update(post) { $0 = $0.liked }
    } perform: { [server] in
      try await server.like(id)
    }
  }
}

/// One row of the feed: it follows its post's shared entry.
@MainActor
final class PostRow {
  let entry: SharedLoader<Post>
  @Loadable var post: LoadableState<Post>

  init(entry: SharedLoader<Post>) {
    self.entry = entry
  }
}

/// The feed screen: the ids follow the feed's entry; each row follows its post's entry.
@MainActor @Observable
final class FeedScreen {
  @ObservationIgnored @Loadable var ids: LoadableState<[Int]>
  private(set) var rows: [PostRow] = []
  /// The feed's entry, for its `isRunning`: a silent refresh shows beside the list.
  @ObservationIgnored let entry: SharedLoader<[Int]>
  @ObservationIgnored private let repository: PostsRepository

  init(repository: PostsRepository) {
    self.repository = repository
    entry = repository.feed
  }

  /// Shows the feed: follows its entry, then gives each post a row that follows the post's
  /// entry, and returns once every row has loaded.
  func open() async {
    await $ids.load(from: entry)
    rows = (ids.data ?? []).map { PostRow(entry: repository.post($0)) }
    let loads: [Task<Void, Never>] = rows.map { row in row.$post.load(from: row.entry) }
    for load in loads { await load.value }
  }
}

/// The detail screen of one post: it follows the same entry as the post's feed row, and
/// runs the "like" through a `@LoadableProcess`.
@MainActor
final class DetailScreen {
  let entry: SharedLoader<Post>
  @Loadable var post: LoadableState<Post>
  @LoadableProcess var liking: SingleProcessState
  private let repository: PostsRepository
  private let id: Int

  init(id: Int, repository: PostsRepository) {
    self.id = id
    self.repository = repository
    entry = repository.post(id)
  }

  /// Shows the post: joins a fetch that runs, or shows a fresh value without fetching.
  func open() async {
    await $post.load(from: entry)
  }

  /// Likes the post, through the repository's optimistic edit.
  @discardableResult
  func like() -> Task<Void, Never> {
    $liking.run { [repository, id] in try await repository.like(id) }
  }
}

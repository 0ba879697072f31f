// The context of the shared entries' doc comments (Sources/Loadables/Shared): the body of a
// method of a main-actor model, with the definitions the comments show (`PostQuery`,
// `FeedQuery`), an `api` the definitions' fetches call, and the names the fragments use
// (`store`, `feed`, `post`, `row`, ...) as parameters.
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

/// The editing examples' post has a like flag.
extension Post {
  var liked: Bool {
    get { false }
    set {}
  }
}

struct FeedPage: Sendable {
  let posts: [Post]
  let nextCursor: String?
}

protocol SharedAPI: Sendable {
  func post(_ id: Post.ID) async throws -> Post
  func posts() async throws -> [Post]
  func posts(after cursor: String?) async throws -> FeedPage
  func feed() async throws -> [Post]
  func rename(_ id: Post.ID, to title: String) async throws
  func like(_ id: Post.ID) async throws
  func delete(_ id: Post.ID) async throws
}

/// The app's client, as the definitions reach it (compiled, never run).
nonisolated var api: any SharedAPI { fatalError() }

struct PostQuery: LoadDefinition {
  let id: Post.ID
  var key: LoadKey { ["posts", id] }
  var staleTime: Duration? { .seconds(60) }
  func fetch() async throws -> Post { try await api.post(id) }
}

struct FeedQuery: PagedLoadDefinition {
  var key: LoadKey { ["feed"] }
  var staleTime: Duration? { .seconds(60) }
  var source: PagedSource<Post, String> {
    PagedSource(first: "") { cursor in
      let response = try await api.posts(after: cursor.isEmpty ? nil : cursor)
      return Page(items: response.posts, next: response.nextCursor)
    }
  }
}

/// Stands in for AppKit's `NSApplication` (macOS only), for its notification's name.
enum NSApplication {
  static let didBecomeActiveNotification = Notification.Name(
    "NSApplicationDidBecomeActiveNotification")
}

func appBecameActive() -> AsyncStream<Void> { AsyncStream { _ in } }

@MainActor @Observable
final class DocModel {
  @ObservationIgnored @Loadables.Process var saving: SingleProcessState

  func block(
    store: LoaderStore, id: Post.ID, postID: Post.ID, title: String, row: Post,
    feed: SharedLoader<[Post]>, post: SharedLoader<Post>, feedSource: PagedSource<Post, String>,
    downloads: ConcurrencyLimiter, caches: URL, saved: StorePersistence
  ) async throws {
    // <block>
  }
}

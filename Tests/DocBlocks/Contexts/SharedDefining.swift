// The context of the doc comments that declare a definition themselves (LoadDefinition's
// `PostQuery`, PagedLoadDefinition's `FeedQuery`): Shared.swift's, without those two.
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

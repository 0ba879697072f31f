// The context of Sharing State Across Screens's fragments: the body of a method of a main-actor
// model, with the names the page's prose gives them: the page's repository, its store and API,
// a row of the feed and the feed itself, the page's PostEditor, and the app's own connectivity whose
// `reconnections()` is "the app's own `AsyncSequence`".
import DocSupport
import Foundation
import Loadables
import Observation

/// The app's connectivity: an element each time the network comes back.
struct AppConnectivity: Sendable {
  func reconnections() -> AsyncStream<Void> { AsyncStream { $0.finish() } }
}

@MainActor @Observable
final class DocModel {
  var unused = 0

  func block(
    api: any PostsAPI, store: LoaderStore, repository: PostsRepository, id: Post.ID, row: Post,
    feed: SharedLoader<[Post]>, editor: any PostEditor, connectivity: AppConnectivity
  ) async throws {
    // <block>
  }
}

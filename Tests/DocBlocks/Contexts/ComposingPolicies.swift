// The context of ComposingPolicies's fragments: the body of a method of a main-actor model, with the
// names the page's prose gives them (wrapped states as members, the rest as parameters).
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

@MainActor @Observable
final class DocModel {
  @ObservationIgnored @Loadable var posts: LoadableState<[Post]>
  @ObservationIgnored @Loadable var results: LoadableState<[Post]>
  @ObservationIgnored @Loadable var post: LoadableState<Post>

  func block(
    api: any PostsAPI, clock: any Clock<Duration>, downloads: ConcurrencyLimiter, id: Post.ID,
    text: String, rows: [PostRow]
  ) async throws {
    // <block>
  }
}

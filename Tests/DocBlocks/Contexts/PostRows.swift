// The context of Composing Policies's fragments about the rows of a list: the body of a method
// of a main-actor model, given the page's `PostRow`s (declared here as the page does, so its
// `Post` is the page's), a limiter and the API.
import DocSupport
import Foundation
import Loadables
import Observation

@MainActor
final class PostRow {
  let id: Post.ID
  @Loadable var post: LoadableState<Post>

  init(id: Post.ID) { self.id = id }
}

@MainActor @Observable
final class DocModel {
  var unused = 0

  func block(api: any PostsAPI, downloads: ConcurrencyLimiter, rows: [PostRow]) async throws {
    // <block>
  }
}

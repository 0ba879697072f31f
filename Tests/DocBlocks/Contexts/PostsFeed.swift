// The context of Loader Objects's fragments that use the page's `PostsLoader` as `feed`: the
// body of a method of a main-actor model (in a test, with the `posts` the stub answers).
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

@MainActor @Observable
final class DocModel {
  var unused = 0

  func block(api: any PostsAPI, feed: PostsLoader, posts: [Post]) async throws {
    // <block>
  }
}

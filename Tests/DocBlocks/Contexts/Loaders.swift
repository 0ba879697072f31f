// The context of the loaders' fragments (Sources/Loadables/Loaders) that declare the loader
// they use: the body of a method of a main-actor model, with `api` and the type it returns.
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

protocol FeedAPI: Sendable {
  func posts() async throws -> [Post]
}

@MainActor
final class DocModel {
  func block(api: any FeedAPI, feed: BlockLoader<[Post]>) async throws {
    // <block>
  }
}

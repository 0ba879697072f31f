// The context of the loaders' fragments that use Loader's `FeedLoader` (declared here as
// Loader.swift's first example does): the body of a method of a main-actor model with `api`.
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

protocol FeedAPI: Sendable {
  func posts() async throws -> [Post]
}

final class FeedLoader: BaseLoader<[Post]> {
  let api: any FeedAPI
  init(api: any FeedAPI) {
    self.api = api
    super.init(policy: .retry(maxAttempts: 3))
  }
  override func fetch() async throws -> [Post] { try await api.posts() }
}

@MainActor
final class DocModel {
  func block(api: any FeedAPI) async throws {
    // <block>
  }
}

// The context of the store's fragments that speak of a post as a value (a key made from its
// id, an item removed by id): the body of a method of a main-actor model, with `store`,
// `api` and `post` as parameters.
import DocSupport
import Foundation
import Loadables
import Observation

protocol PostValueAPI: Sendable {
  func delete(_ id: Post.ID) async throws
}

@MainActor
final class DocModel {
  func block(api: any PostValueAPI, store: LoaderStore, post: Post) async throws {
    // <block>
  }
}

// The context of the outbox's fragments that declare a model's members (a wrapped process and
// the methods that run it): the body of a main-actor class with `store` and `post`, and the
// edit type it sends.
import DocSupport
import Foundation
import Loadables
import Observation

struct RenamePost: OutboxEdit {
  static let name = "RenamePost"
  let id: Post.ID
  let title: String

  var scope: LoadKey { ["posts", id] }
}

@MainActor
final class PostModel {
  let store: LoaderStore
  let post: Post

  init(store: LoaderStore, post: Post) {
    self.store = store
    self.post = post
  }

  // <block>
}

// The context of a fragment that is a loader's member (Loader's `fetch()` that combines two
// other loaders): the body of a `BaseLoader` subclass with those loaders.
import DocSupport
import Foundation
import Loadables
import Observation

struct User: Sendable {}

struct Dashboard: Sendable {
  let user: User
  let posts: [Post]
}

final class DashboardLoader: BaseLoader<Dashboard> {
  let userLoader: BlockLoader<User>
  let postsLoader: BlockLoader<[Post]>

  init(userLoader: BlockLoader<User>, postsLoader: BlockLoader<[Post]>) {
    self.userLoader = userLoader
    self.postsLoader = postsLoader
    super.init()
  }

  // <block>
}

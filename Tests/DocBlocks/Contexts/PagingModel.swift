// The context of a paging fragment that is a model's method: the body of a method of a
// main-actor model that adopts `LoadableSupport`, with a paged `feed` and its `source`.
import DocSupport
import Foundation
import Loadables
import Observation

@MainActor @Observable
final class FeedModel: LoadableSupport {
  var feed = PagedState<Post, Int>()
  let source = PagedSource<Post, Int>.numbered(pageSize: 20) { _, _ in [] }

  func block() {
    // <block>
  }
}

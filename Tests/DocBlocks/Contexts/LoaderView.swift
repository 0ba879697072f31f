// The context of the loaders' SwiftUI fragments: the body of a view (compiled against the
// stand-in SwiftUI module) with a `feed` loader.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

final class FeedLoader: BaseLoader<[Post]> {
  override func fetch() async throws -> [Post] { [] }
}

struct DocView: View {
  let feed: FeedLoader

  var body: some View {
    EmptyView()
    // <block>
  }
}

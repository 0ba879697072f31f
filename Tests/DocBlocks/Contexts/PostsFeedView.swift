// A SwiftUI fragment that shows the page's `PostsLoader` as `feed` (Loader Objects): the body of
// a view, compiled against the stand-in SwiftUI module.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

struct DocView: View {
  let feed: PostsLoader

  var body: some View {
    EmptyView()
    // <block>
  }
}

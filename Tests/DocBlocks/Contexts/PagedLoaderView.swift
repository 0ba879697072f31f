// The context of PagedLoader's SwiftUI fragment: the body of a view (compiled against the
// stand-in SwiftUI module) with a paged `feed` loader.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

struct DocView: View {
  let feed: PagedLoader<Post, Int>

  var body: some View {
    EmptyView()
    // <block>
  }
}

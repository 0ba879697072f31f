// A SwiftUI fragment that shows a `@Loadable var posts` (Progress): the body of a view,
// compiled against the stand-in SwiftUI module.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

struct DocView: View {
  @Loadable var posts: LoadableState<[Post]>

  var body: some View {
    EmptyView()
    // <block>
  }
}

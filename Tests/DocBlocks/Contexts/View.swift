// The default context of a SwiftUI fragment: the body of a view (compiled against the
// stand-in SwiftUI module). A fragment that starts with a modifier applies to the EmptyView.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

struct DocView: View {
  @Loadable var books: LoadableState<[Book]>
  let api: any BookAPI

  var body: some View {
    EmptyView()
    // <block>
  }
}

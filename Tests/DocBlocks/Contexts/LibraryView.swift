// A SwiftUI fragment that reads the page's `LibraryModel` as `model` (Getting Started): the
// body of a view, compiled against the stand-in SwiftUI module.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

struct DocView: View {
  let model: LibraryModel

  var body: some View {
    EmptyView()
    // <block>
  }
}

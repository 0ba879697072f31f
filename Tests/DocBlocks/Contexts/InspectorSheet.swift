// StoreInspectorView's example: the members of a view that shows the app's `ContentView` and
// can present the inspector of the app's store, `appStore`, in a sheet; compiled against the
// stand-in SwiftUI module.
import DocSupport
import Foundation
import Loadables
import LoadablesInspector
import Observation
import SwiftUI

@MainActor let appStore = LoaderStore()

struct ContentView: View {
  var body: some View { Text("Books") }
}

struct DocView: View {
  // <block>
}

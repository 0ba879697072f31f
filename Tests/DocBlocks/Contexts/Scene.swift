// The context of a fragment that is an app's scene (RefreshTrigger+UIKit's memory warnings):
// the body of an app with `store`, compiled against the stand-in modules. The SwiftUI stand-in
// has no scenes; `Scene` and `WindowGroup` are declared here with SwiftUI's spelling.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI
import UIKit

protocol Scene {}

struct WindowGroup<Content: View>: Scene {
  init(@ViewBuilder content: () -> Content) {}
}

struct ContentView: View {
  var body: some View { EmptyView() }
}

@MainActor
struct DocApp {
  let store: LoaderStore

  var body: some Scene {
    // <block>
  }
}

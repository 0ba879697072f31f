// The context of a fragment that is an app's scene (RefreshTrigger+UIKit's memory warnings,
// Swift UI Layer's refresh signals): the body of an app's scene, built by `@SceneBuilder`, with
// the app's `store` and `api`, compiled against the stand-in modules (`Scene`, `SceneBuilder`
// and `WindowGroup` are the SwiftUI stand-in's, UIKit's for `.appBecameActive`).
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI
import UIKit

struct ContentView: View {
  var body: some View { EmptyView() }
}

@MainActor
struct DocApp {
  let store: LoaderStore
  let api: any DocAPI

  @SceneBuilder var body: some Scene {
    // <block>
  }
}

// Working Offline's view fragments: the body of a view given the app's store, its API, a
// connectivity source and a persistence saved before a relaunch (as the page's WorkingOffline
// context names them), and the feed's entry (`feed`); compiled against the stand-in SwiftUI
// module.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

struct DocView: View {
  let api: any DocAPI
  let store: LoaderStore
  let connectivity: Connectivity
  let saved: StorePersistence
  let feed: SharedLoader<[Post]>

  var body: some View {
    EmptyView()
    // <block>
  }
}

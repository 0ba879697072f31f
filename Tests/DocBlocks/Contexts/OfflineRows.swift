// Working Offline's row text: a function and the SwiftUI list that calls it, in a main-actor
// method of a type that holds the store (a view's `body` would not take the function, since a
// result builder takes no declarations), compiled against the stand-in SwiftUI module.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

@MainActor
struct DocRows {
  let store: LoaderStore

  func block() {
    // <block>
  }
}

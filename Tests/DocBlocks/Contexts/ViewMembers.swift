// Members of a view (a state and its `body`), in a view that saves a `draft` book through `api`,
// with the app's job kind `BookAction` (declared `nonisolated`, as Getting Started says an app
// made by Xcode 26 declares a job kind); compiled against the stand-in SwiftUI module.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

nonisolated enum BookAction: Equatable, Sendable {
  case save, delete
}

struct DocView: View {
  let api: any BookAPI
  let draft: Book

  // <block>
}

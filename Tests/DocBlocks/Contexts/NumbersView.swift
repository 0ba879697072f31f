// A SwiftUI fragment that reads a model's `$numbers` and writes to a `log`: the body of a view,
// compiled against the stand-in SwiftUI module.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

@MainActor @Observable
final class NumbersModel {
  @ObservationIgnored @Loadable var numbers: LoadableState<[Int]>
}

/// The app's log (the page does not say which logger; any with a `debug(_:)` taking a string).
struct DocLog {
  func debug(_ message: String) {}
}

struct DocView: View {
  let model: NumbersModel
  let log: DocLog

  var body: some View {
    EmptyView()
    // <block>
  }
}

// Debugging Loads's inspector: the body of a method of a main-actor model, given the app's
// store as `appStore`.
import DocSupport
import Foundation
import Loadables
import Observation

@MainActor @Observable
final class DocModel {
  var unused = 0

  func block(appStore: LoaderStore) async throws {
    // <block>
  }
}

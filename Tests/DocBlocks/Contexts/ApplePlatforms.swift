// A fragment that uses API the library has only on Apple platforms (`.appBecameActive`): the
// body of a method of a main-actor model, compiled against the stand-in modules (SwiftUI and
// UIKit), where `canImport(UIKit)` holds.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

@MainActor @Observable
final class DocModel {
  var unused = 0

  func block(api: any DocAPI, store: LoaderStore) async throws {
    // <block>
  }
}

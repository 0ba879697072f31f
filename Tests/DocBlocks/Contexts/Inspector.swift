// The LoadablesInspector examples: the body of a method of a main-actor model, given a store
// and an inspector of it.
import DocSupport
import Foundation
import Loadables
import LoadablesInspector
import Observation

@MainActor @Observable
final class DocModel {
  var unused = 0

  func block(inspector: StoreInspector, store: LoaderStore) async throws {
    // <block>
  }
}

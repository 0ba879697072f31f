// A test step that reads the states a `StateRecorder` recorded of a `SingleProcessState` whose
// job threw the app's `SaveError`: the body of a method of a main-actor test class.
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

struct SaveError: Error, Equatable {}

@MainActor @Observable
final class DocModel {
  var unused = 0

  func block(recorder: StateRecorder<SingleProcessState>) async throws {
    // <block>
  }
}

// A step that reads the events a `LoadEventRecorder` recorded: the body of a method of a
// main-actor test class.
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

@MainActor @Observable
final class DocModel {
  var unused = 0

  func block(recorder: LoadEventRecorder) async throws {
    // <block>
  }
}

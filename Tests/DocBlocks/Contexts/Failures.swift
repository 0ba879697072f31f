// The failure examples: the body of a method of a main-actor model, with the app's `APIError`
// and job kind `Action` (declared `nonisolated`, as Getting Started says an app made by Xcode
// 26 declares a job kind) and a failure.
import DocSupport
import Foundation
import Loadables
import Observation

nonisolated enum APIError: Error {
  case offline
}

nonisolated enum Action: Equatable, Sendable {
  case save, delete
}

@MainActor @Observable
final class DocModel {
  var unused = 0

  func block(failure: LoadableFailure) async throws {
    // <block>
  }
}

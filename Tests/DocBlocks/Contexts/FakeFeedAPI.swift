// Testing Your Code's tests that use its `FakeFeedAPI` (declared here as the page declares it):
// the body of a method of a main-actor test class.
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

final class FakeFeedAPI: FeedAPI {
  let replies = ScriptedFake<Void, [String]>()
  func feed() async throws -> [String] { try await replies.call() }
}

@MainActor @Observable
final class DocModel {
  var unused = 0

  func block() async throws {
    // <block>
  }
}

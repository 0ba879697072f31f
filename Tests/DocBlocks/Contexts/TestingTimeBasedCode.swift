// The context of TestingTimeBasedCode's fragments: the body of a method of a main-actor model, with the
// names the page's prose gives them (wrapped states as members, the rest as parameters).
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

@MainActor @Observable
final class DocModel {
  var unused = 0

  func block(
    api: any PostsAPI, clock: ManualClock, posts: [Post], newer: [Post]
  ) async throws {
    // <block>
  }
}

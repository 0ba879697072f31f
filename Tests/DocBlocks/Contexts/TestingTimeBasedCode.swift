// The context of TestingTimeBasedCode's fragments: the body of a method of a main-actor model, with the
// names the page's prose gives them (wrapped states as members, the rest as parameters).
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

@MainActor @Observable
final class DocModel {
  // "The recipes below are methods of an `XCTestCase` marked `@MainActor`, with `let posts`
  // and `let newer`": members, so a recipe may write `self.newer` in a closure.
  let posts = [Post(id: 1, title: "Hello")]
  let newer = [Post(id: 1, title: "Hello"), Post(id: 2, title: "Again")]

  func block(api: any PostsAPI, clock: ManualClock) async throws {
    // <block>
  }
}

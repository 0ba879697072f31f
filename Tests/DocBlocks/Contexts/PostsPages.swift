// A fragment that pages through the posts of Composing Policies's `PostsAPI` (`page(_:)`): the
// body of a method of a main-actor model.
import DocSupport
import Foundation
import Loadables
import Observation

@MainActor @Observable
final class DocModel {
  var unused = 0

  func block(api: any PostsAPI) async throws {
    // <block>
  }
}

// The context of Getting Started's fragments: the body of a method of a main-actor model, with
// the names the page's prose gives them (wrapped states and the flags the blocks set as members,
// the rest as parameters).
import DocSupport
import Foundation
import Loadables
import Observation

@MainActor @Observable
final class DocModel {
  @ObservationIgnored @Loadable var books: LoadableState<[Book]>
  var isSlow = false

  func block(api: any BookAPI, isSignedIn: Bool) async throws {
    // <block>
  }
}

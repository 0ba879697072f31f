// The context of Testing Your Code's fragments: the body of a method of a main-actor test class,
// with the page's `FeedAPI` as `api` and a manual clock.
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

@MainActor @Observable
final class DocModel {
  var unused = 0

  func block(api: any FeedAPI, clock: ManualClock) async throws {
    // <block>
  }
}

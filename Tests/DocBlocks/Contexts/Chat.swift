// Lists That Page's chat: the body of a method of a main-actor model, with the `ChatAPI` the
// block declares as `api` and the app's `Message` (the page does not show it).
import DocSupport
import Foundation
import Loadables
import Observation

struct Message: Identifiable, Sendable {
  let id: Int
  var text: String
}

@MainActor @Observable
final class DocModel {
  var unused = 0

  func block(api: any ChatAPI) async throws {
    // <block>
  }
}

// The context of Lists That Page's fragments: the body of a method of a main-actor model, with
// the page's `StoriesAPI` as `api`, a store and a story's id.
import DocSupport
import Foundation
import Loadables
import Observation

@MainActor @Observable
final class DocModel {
  var unused = 0

  func block(api: any StoriesAPI, store: LoaderStore, id: Story.ID) async throws {
    // <block>
  }
}

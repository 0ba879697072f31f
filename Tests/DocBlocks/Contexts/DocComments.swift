// The default context of a fragment in a doc comment (Sources/**): the body of a method of a
// main-actor model, with the names the doc comments use (wrapped states as members, the rest
// as parameters).
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

@MainActor @Observable
final class DocModel {
  @ObservationIgnored @Loadable var feed: LoadableState<[Post]>
  @ObservationIgnored @Loadable var numbers: LoadableState<[Int]>
  @ObservationIgnored @Loadable var books: LoadableState<[Book]>
  @ObservationIgnored @Loadable var post: LoadableState<Post>
  @ObservationIgnored @Loadables.Process var saving: SingleProcessState

  func block(
    api: any DocAPI, store: LoaderStore, clock: any Clock<Duration>, id: Post.ID, text: String,
    model: DocModel, edit: inout SharedEdit, title: String
  ) async throws {
    // <block>
  }
}

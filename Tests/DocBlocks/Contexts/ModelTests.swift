// The context of the LoadablesTesting doc comments' test steps: the body of a method of a
// main-actor test class, given the `model` under test (its states as the comments name them,
// and the calls they make of it; what each call loads is the test's), a manual clock, the
// stub API, a store, a connectivity source, a loader, the gates, a recorder of the feed and an
// actor fake of the server.
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

@MainActor @Observable
final class DocModel: LoadableSupport {
  @ObservationIgnored @Loadable var feed: LoadableState<[Post]>
  @ObservationIgnored @Loadable var posts: LoadableState<[Post]>
  @ObservationIgnored @Loadable var numbers: LoadableState<[Int]>
  @ObservationIgnored @Loadable var file: LoadableState<Data>
  @ObservationIgnored @Loadables.Process var saving: SingleProcessState

  func refresh() {}
  func search(_ text: String) {}
  func save() {}

  func block(
    model: DocModel, clock: ManualClock, api: StubPostsAPI, store: LoaderStore,
    connectivity: Connectivity, loader: BlockLoader<[Post]>, download: ProgressGate<Data>,
    pages: EventGate<[Post], Void>, data: Data, post1: Post,
    recorder: StateRecorder<LoadableState<[Post]>>, server: DocServer
  ) async throws {
    // <block>
  }
}

/// An actor fake: the calls made of it, which only an `await` can read.
actor DocServer {
  var calls: [String] = []
}

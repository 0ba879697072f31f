// The default context of a block of statements: the body of a method of a main-actor model
// with the names the fragments use (wrapped states as members, the rest as parameters). A page
// whose fragments use other names has a context of its own, Contexts/<page name>.swift.
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

@MainActor @Observable
final class DocModel {
  @ObservationIgnored @Loadable var books: LoadableState<[Book]>
  @ObservationIgnored @Loadable var numbers: LoadableState<[Int]>
  @ObservationIgnored @Loadable var files: LoadableState<[String]>
  @ObservationIgnored @Loadable var results: LoadableState<[Book]>
  @ObservationIgnored @Loadables.Process var saving: SingleProcessState

  func block(
    api: any BookAPI, store: LoaderStore, clock: any Clock<Duration>, text: String,
    names: [String]
  ) async throws {
    // <block>
  }
}

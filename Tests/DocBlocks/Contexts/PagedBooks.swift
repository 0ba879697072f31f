// Getting Started's yielding load: the body of a method of a main-actor model whose `api` is
// the page's `any PagedBookAPI` ("`api` is an `any PagedBookAPI` here").
import DocSupport
import Foundation
import Loadables
import Observation

@MainActor @Observable
final class DocModel {
  @ObservationIgnored @Loadable var books: LoadableState<[Book]>

  func block(api: any PagedBookAPI) async throws {
    // <block>
  }
}

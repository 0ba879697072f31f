// A fragment of a model whose items live in a store and whose `@Process var loading` is the
// phase of the request (LoadingPresentation's store-backed initialiser): the body of one of its
// methods.
import DocSupport
import Foundation
import Loadables
import Observation

/// The app's store of books.
@MainActor
final class BookStore {
  var books: [Book] = []
}

@MainActor @Observable
final class DocModel {
  @ObservationIgnored @Loadables.Process var loading: SingleProcessState

  func block(store: BookStore) async throws {
    // <block>
  }
}

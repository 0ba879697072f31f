// The context of the README's fragments: the body of a method of a main-actor model that shows
// the shared list (`$books`), given the repository the "Shared state" example declares.
import DocSupport
import Foundation
import Loadables
import Observation

@MainActor @Observable
final class DocModel {
  @ObservationIgnored @Loadable var books: LoadableState<[Book]>

  func block(repository: BooksRepository) async throws {
    // <block>
  }
}

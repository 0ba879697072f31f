// A fragment of a view's declaration (its properties and `body`, as TaskIdentifier's and
// `task(id:loading:)`'s examples show): the members of a view that has an `api` (books and a
// status line), a `status` to show, and the app's `BookList` of a state; compiled against the stand-in
// SwiftUI module.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

struct LibraryAPI: Sendable {
  func books() async throws -> [Book] { [] }
  func status() async -> String { "" }
}

struct BookList: View {
  let books: [Book]
  init(_ books: LoadableState<[Book]>) { self.books = books.data ?? [] }
  var body: some View { ForEach(books) { book in Text(book.title) } }
}

struct DocView: View {
  let api = LibraryAPI()
  @State private var status = ""

  // <block>
}

// A LoadingView modifier (`.progressView`, `.emptyView`, ...): it applies to a LoadingView of a
// `@Loadable` property of books loaded through `api`; compiled against the stand-in SwiftUI
// module.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

struct BookRows: View {
  let books: [Book]
  var body: some View { ForEach(books) { book in Text(book.title) } }
}

struct DocView: View {
  let api: any BookAPI
  @Loadable var books: LoadableState<[Book]>

  var body: some View {
    LoadingView($books) { [api] in
      try await api.books()
    } content: {
      BookRows(books: $0)
    }
    // <block>
  }
}

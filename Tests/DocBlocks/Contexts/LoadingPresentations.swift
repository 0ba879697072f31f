// LoadingPresentation's and FailurePresentation's examples: the body of a view of `@Loadable`
// properties of books and posts, with a presentation and a failure already made
// (`presentation`, `failure`, `retry`), and the app's `BookList` and `ErrorView` (views the
// examples use and do not show); compiled against the stand-in SwiftUI module.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

struct BookList: View {
  let books: [Book]
  init(_ books: [Book]) { self.books = books }
  var body: some View { ForEach(books) { book in Text(book.title) } }
}

struct ErrorView: View {
  let failure: FailurePresentation
  let retry: (@MainActor () -> Void)?
  init(_ failure: FailurePresentation, retry: (@MainActor () -> Void)?) {
    self.failure = failure
    self.retry = retry
  }
  var body: some View { Text(failure.message) }
}

struct DocView: View {
  @Loadable var books: LoadableState<[Book]>
  @Loadable var feed: LoadableState<[Post]>
  let presentation: LoadingPresentation<[Book]>
  let failure: FailurePresentation
  let retry: @MainActor () -> Void

  func reload() {}

  var body: some View {
    EmptyView()
    // <block>
  }
}

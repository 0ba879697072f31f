// App-side code for `.ci/swiftui-check`: a view that uses the SwiftUI layer the way the
// documentation shows, type-checked as a separate module against the stand-in and the
// library. It proves the public API is callable from a main-actor view body (closures that
// touch `@State`, `$wrapper` projections, trailing-closure forms). Never built by SwiftPM,
// never run.
import Loadables
import SwiftUI

struct Book: Equatable, Sendable {
  var title: String
}

protocol BookAPI: Sendable {
  func books() async throws -> [Book]
  func reload() async throws
}

enum Action: Equatable, Sendable {
  case refresh
  case save
}

struct BooksView: View {
  let api: any BookAPI
  @Loadable var books: LoadableState<[Book]>
  @Loadables.Process var action: ProcessState<Action>
  @TaskIdentifier var reload
  @TaskIdentifier<String> var query = ""
  @State private var message = ""

  var body: some View {
    content
      .task(id: reload, loading: $books) { [api] in try await api.books() }
      .refreshable($books) { [api] in try await api.books() }
      .onLoadableError(books) { error in message = "\(error)" }
      .onProcessFailed(action) { process, error in message = "\(process): \(error)" }
      .task(id: query) { message = "" }
  }

  var storeBacked: some View {
    content.refreshable($action, process: .refresh) { [api] in try await api.reload() }
  }

  var content: BookList { BookList(books: $books.loadedBinding, state: $books.binding) }

  func restart() {
    $reload.new()
    $query.new("books")
  }
}

struct BookList: View {
  let books: Binding<[Book]>?
  let state: Binding<LoadableState<[Book]>>

  var body: Never { fatalError() }
}

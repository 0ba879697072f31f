// App-side code for `.ci/swiftui-check`: views that use the SwiftUI layer the way the
// documentation shows, type-checked as a separate module against the stand-in and the
// library. It proves the public API is callable from a main-actor view body (closures that
// touch `@State`, `$wrapper` projections, trailing-closure forms). Every public symbol of the
// layer is used here or in Recipes.swift (the code of the SwiftUI recipes article). Never
// built by SwiftPM, never run.
import Loadables
import SwiftUI

struct Book: Equatable, Sendable {
  var title: String
}

protocol BookAPI: Sendable {
  func books() async throws -> [Book]
  func reload() async throws
  func search(_ query: String) async throws -> [Book]
  func save(_ book: Book) async throws
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

struct BookRows: View {
  let books: [Book]

  var body: Never { fatalError() }
}

// MARK: - LoadingView

/// A loader, as an app declares one.
final class FeedLoader: BaseLoader<[Book]> {
  let api: any BookAPI

  init(api: any BookAPI) {
    self.api = api
    super.init(policy: .retry(maxAttempts: 3))
  }

  override func fetch() async throws -> [Book] { try await api.books() }
}

/// Both forms of `LoadingView`, with and without each customisation.
struct LoadingViews: View {
  let api: any BookAPI
  let feed: FeedLoader
  let weather: BlockLoader<String>
  let connectivity: Connectivity
  @Loadable var books: LoadableState<[Book]>
  @State private var retries = 0

  var body: some View {
    VStack {
      // A loader, with every customisation; the closures touch the view's @State.
      LoadingView(feed) { books in
        BookRows(books: books)
      }
      .errorView { failure, retry in
        Text(failure.message)
        if failure.showsRetryButton {
          Button("Again") {
            retries += 1
            retry()
          }
        }
      }
      .progressView { progress in
        ProgressView(value: progress?.fraction)
      }
      .emptyView {
        Text("Nothing yet")
      }

      // LoadingView's error view, built from the error alone.
      LoadingView(feed) { books in BookRows(books: books) }
        .errorView { error in Text(String(describing: error)) }

      // A loader that does not load on appear, with the defaults.
      LoadingView(weather, loadOnAppear: false) { forecast in Text(forecast) }

      // A binding with the block that loads it, under a policy.
      LoadingView($books, policy: .retry(maxAttempts: 2)) { [api] in
        try await api.books()
      } content: { books in
        BookRows(books: books)
      }

      // A binding loaded elsewhere: no fetch, so no retry button and no load on appear.
      LoadingView($books) { books in BookRows(books: books) }
        .task(id: retries, loading: $books) { [api] in try await api.books() }

      // A binding whose load waits for the network: the default progress view says so; the
      // content, kept on screen by a refresh that waits, shows a badge of its own.
      LoadingView($books, policy: .waitsForNetwork(connectivity)) { [api] in
        try await api.books()
      } content: { books in
        VStack {
          if $books.isWaitingForNetwork { Text("Waiting for the network") }
          BookRows(books: books)
        }
      }
    }
  }
}

/// Processed's bindings over a view's own state and task storage, made again each `body`, as
/// Processed's test container makes its own bindings with `Binding(get:set:)`.
struct OwnStorageView: View {
  let api: any BookAPI
  @State private var books: LoadableState<[Book]> = .absent
  @State private var saving: ProcessState<Action> = .idle
  @State private var loadTask: Task<Void, Never>?
  @State private var saveTask: Task<Void, Never>?

  var body: some View {
    let books = Loadable.Binding(state: $books, task: $loadTask)
    let saving = Loadables.Process.Binding(state: $saving, task: $saveTask)
    let own = Loadable<[Book]>.Binding(
      state: Binding(get: { self.books }, set: { self.books = $0 }),
      task: Binding(get: { self.loadTask }, set: { self.loadTask = $0 }))
    VStack {
      Button("Load") { [api] in books.load { try await api.books() } }
      Button("Save") { [api] in saving.run(.save) { try await api.reload() } }
      Button("Cancel") { own.cancel() }
    }
    .task { [api] in await books.load { try await api.books() } }
  }
}

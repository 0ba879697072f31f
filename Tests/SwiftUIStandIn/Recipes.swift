// The SwiftUI code of Docs/Loadables.docc/Articles/SwiftUIRecipes.md, type-checked by
// `.ci/swiftui-check` with ClientUsage.swift. The decisions each recipe relies on are tested
// on Linux in Tests/LoadablesTests/SwiftUIRecipeTests.swift, through the same plain types.
import Foundation
import Loadables
import Observation
import SwiftUI

// MARK: - 1. A list with pull to refresh that never blanks

struct LibraryView: View {
  let api: any BookAPI
  @Loadable var books: LoadableState<[Book]>

  var body: some View {
    LoadingView($books) { [api] in
      try await api.books()
    } content: { books in
      BookRows(books: books)
    }
    .refreshable($books) { [api] in try await api.books() }
  }
}

// The same list, keeping it on screen when a refresh fails.
struct KeptLibraryView: View {
  let api: any BookAPI
  @Loadable var books: LoadableState<[Book]>

  var body: some View {
    VStack {
      if let error = $books.refreshError {
        Text(error.localizedDescription)
      }
      LoadingView($books, policy: .keepValueOnFailure()) { [api] in
        try await api.books()
      } content: { books in
        BookRows(books: books)
      }
    }
    .refreshable {
      await $books.load(silently: true, policy: .keepValueOnFailure()) { [api] in
        try await api.books()
      }
    }
  }
}

// MARK: - 2. A debounced search field

struct SearchView: View {
  let api: any BookAPI
  @Loadable var results: LoadableState<[Book]>
  @State private var query = ""

  var body: some View {
    VStack {
      TextField("Search", text: $query)
      LoadingView($results, loadOnAppear: false) { [api, query] in
        try await api.search(query)
      } content: { books in
        BookRows(books: books)
      }
      .emptyView { Text("Type to search") }
    }
    .onChange(of: query) { _, query in search(query) }
  }

  func search(_ query: String) {
    guard !query.isEmpty else { return $results.reset() }
    $results.load(silently: true, policy: .debounce(for: .milliseconds(300))) { [api] in
      try await api.search(query)
    }
  }
}

// MARK: - 3. A save button driven by @Process

enum BookAction: Equatable, Sendable {
  case save
  case delete
}

struct EditBookView: View {
  let api: any BookAPI
  @State private var draft: Book
  @Loadables.Process var action: ProcessState<BookAction>
  @State private var message: String?

  init(book: Book, api: any BookAPI) {
    _draft = State(initialValue: book)
    self.api = api
  }

  var body: some View {
    let save = ProcessButtonPresentation(
      state: action, process: .save, isRunning: $action.isRunning, canRun: !draft.title.isEmpty)
    let title = save.title(
      ready: "Save", running: "Saving…", succeeded: "Saved", failed: "Try Again")
    VStack {
      TextField("Title", text: $draft.title)
      Button(title) {
        $action.run(.save) { [api, draft] in try await api.save(draft) }
      }
      .disabled(!save.isEnabled)
      if save.showsProgress { ProgressView() }
    }
    .onProcessFailed(action) { _, error in message = error.localizedDescription }
  }
}

// MARK: - 4. Data in the store

@MainActor @Observable
final class BookStore {
  private(set) var books: [Book] = []
  private let api: any BookAPI

  init(api: any BookAPI) {
    self.api = api
  }

  func reload() async throws {
    books = try await api.books()
  }
}

enum StoreRequest: Equatable, Sendable {
  case load
  case refresh
}

struct StoreBooksView: View {
  let store: BookStore
  @Loadables.Process var loading: ProcessState<StoreRequest>
  @State private var alert: String?

  var body: some View {
    let presentation = LoadingPresentation(
      items: store.books, phase: loading, isRunning: $loading.isRunning, canRetry: true)
    VStack {
      switch presentation.phase {
      case .empty:
        Text("No books yet")
      case .loading:
        ProgressView()
      case .failure(let failure):
        Text(failure.message)
        if failure.showsRetryButton {
          Button(FailurePresentation.retryButtonTitle) { $loading.run(.load, block: store.reload) }
        }
      case .content(let books):
        BookRows(books: books)
      }
    }
    .task {
      if presentation.shouldLoadOnAppear { await $loading.run(.load, block: store.reload) }
    }
    .refreshable($loading, process: .refresh, block: store.reload)
    .onProcessFailed(loading) { _, error in alert = error.localizedDescription }
  }
}

// MARK: - 5. A feed and a detail sharing one LoaderStore
//
// The code of Docs/Loadables.docc/Articles/SharingStateAcrossScreens.md: the declarations and
// the repository as the article shows them (compiled and run on Linux in
// Tests/LoadablesTests/SharedStateArticleTests.swift), then its two SwiftUI views.

struct Post: Identifiable, Hashable, Sendable {
  let id: Int
  var title: String
}

protocol PostsAPI: Sendable {
  func posts() async throws -> [Post]
  func post(_ id: Post.ID) async throws -> Post
}

protocol PostEditor: Sendable {
  func rename(_ id: Post.ID, to title: String) async throws
}

@MainActor
final class PostsRepository {
  let store: LoaderStore
  private let api: any PostsAPI
  private let editor: any PostEditor

  init(api: any PostsAPI, editor: any PostEditor, store: LoaderStore = LoaderStore()) {
    self.api = api
    self.editor = editor
    self.store = store
  }

  /// Every post, for the feed.
  var feed: SharedLoader<[Post]> {
    store.loader(for: ["posts"], staleTime: .seconds(30)) { [api] in
      try await api.posts()
    }
  }

  /// One post, for its detail screen.
  func post(_ id: Post.ID) -> SharedLoader<Post> {
    store.loader(for: ["posts", id], staleTime: .seconds(30)) { [api] in
      try await api.post(id)
    }
  }

  /// Renames a post on every screen at once, and takes the name back if the server refuses.
  func rename(_ id: Post.ID, to title: String) async throws {
    try await store.edit(invalidating: [["posts"]]) { edit in
      edit.update(post(id)) { $0.title = title }
      edit.update(feed) { posts in
        if let index = posts.firstIndex(where: { $0.id == id }) { posts[index].title = title }
      }
    } perform: { [editor] in
      try await editor.rename(id, to: title)
    }
  }
}

struct FeedView: View {
  let repository: PostsRepository
  @Loadable var posts: LoadableState<[Post]>

  var body: some View {
    LoadingView($posts) { posts in
      PostRows(posts: posts)
    }
    .task { await $posts.load(from: repository.feed) }
  }
}

struct PostDetailView: View {
  let id: Post.ID
  let repository: PostsRepository
  @Loadable var post: LoadableState<Post>
  @LoadableProcess var renaming: SingleProcessState

  var body: some View {
    VStack {
      LoadingView($post) { post in
        Text(post.title)
      }
      Button("Rename") {
        $renaming.run { [repository, id] in try await repository.rename(id, to: "Renamed") }
      }
      .disabled(renaming.isRunning)
    }
    .task { await $post.load(from: repository.post(id)) }
  }
}

/// The feed's rows; what they show is the app's own.
struct PostRows: View {
  let posts: [Post]

  var body: Never { fatalError() }
}

// MARK: - 6. A list that pages

struct Article: Identifiable, Equatable, Sendable {
  let id: Int
  var title: String
}

protocol ArticleAPI: Sendable {
  func articles(page: Int, perPage: Int) async throws -> [Article]
}

struct ArticleListView: View {
  @Paged var feed: PagedState<Article, Int>
  let source: PagedSource<Article, Int>

  init(api: any ArticleAPI) {
    source = .numbered(pageSize: 20) { page, size in
      try await api.articles(page: page, perPage: size)
    }
  }

  var body: some View {
    List {
      switch feed.list {
      case .absent, .loading:
        ProgressView()
      case .error(let error):
        Text(error.localizedDescription)
        Button("Try Again") { $feed.load(from: source) }
      case .loaded(let posts):
        ForEach(posts) { post in
          Text(post.title)
            .onAppear {
              // The last row appeared: ask for the next page. Calls while it loads join it.
              if post.id == posts.last?.id { $feed.loadNextPage(from: source) }
            }
        }
        switch feed.nextPage {
        case .loading:
          ProgressView()
        case .failed:
          Button("Retry") { $feed.loadNextPage(from: source) }
        case .idle, .end:
          EmptyView()
        }
      }
    }
    .task { [feed = $feed, source] in
      if feed.wrappedValue.list.isAbsent { await feed.load(from: source) }
    }
    .refreshable { [feed = $feed, source] in await feed.refresh(from: source) }
  }
}

// MARK: - 5. Edits waiting to sync, each with its reason, and a failed edit to retry or discard

/// "3 changes waiting to sync": the outbox is observable, so the badge updates by itself.
struct SyncBadge: View {
  let store: LoaderStore

  var body: some View {
    if store.outbox.pendingCount > 0 {
      Text("\(store.outbox.pendingCount) changes waiting to sync")
    }
  }
}

/// Every edit not synced yet, each with the reason.
struct PendingEdits: View {
  let store: LoaderStore

  var body: some View {
    List {
      ForEach(store.outbox.items) { item in
        EditRow(store: store, item: item)
      }
    }
  }
}

/// One edit and why it has not synced: the outbox decides the reason (`item.status`) and
/// tells observers each change, so the row follows the edit by itself. A failed edit offers
/// retry and discard.
struct EditRow: View {
  let store: LoaderStore
  let item: OutboxItem

  var body: some View {
    VStack {
      Text(item.name)
      switch item.status {
      case .ready, .sending:
        Text("Syncing…")
      case .waitingForNetwork:
        Text("Waiting for the network")
      case .backingOff(let attempt, let nextTry):
        let time = nextTry.formatted(date: .omitted, time: .shortened)
        Text("Attempt \(attempt) failed, trying again at \(time)")
      case .waitingBehind(let earlier):
        Text("Waiting for \(name(of: earlier)) to sync first")
      case .waitingToSave:
        Text("Not saved yet: the disk is full")
      case .waitingForHandler:
        Text("This version of the app cannot send it")
      case .failed(let reason):
        Text("Failed: \(reason)")
        Button("Retry") { _ = store.outbox.retry(item.id) }
        Button("Discard") { _ = store.outbox.discard(item.id) }
      }
    }
  }

  private func name(of id: OutboxItem.ID) -> String {
    store.outbox.items.first { $0.id == id }?.name ?? "an earlier change"
  }
}

// MARK: - 7. A shared entry read in body, a store-wide spinner, and logging out
//
// The logic `following(_:)` runs is `EntryPresence`'s, tested on Linux in
// Tests/LoadablesTests/EntryPresenceTests.swift; the store's activity and `remove(_:)` in
// Tests/LoadablesTests/StoreRemovalTests.swift.

/// Reads the entry in `body`: `following` keeps it observed and loads it while on screen.
struct FollowedPostView: View {
  let post: SharedLoader<Post>

  var body: some View {
    VStack {
      if let value = post.state.data { Text(value.title) }
      if post.isRunning { ProgressView() }
    }
    .following(post)
  }
}

/// One spinner for the whole app, and the edits still to sync: both observable.
struct StoreActivityBar: View {
  let store: LoaderStore

  var body: some View {
    VStack {
      if store.isRunning { ProgressView() }
      if store.pendingEditCount > 0 {
        Text("\(store.pendingEditCount) changes waiting to sync")
      }
    }
  }
}

/// Logging out, offline too, at once: every entry under ["user"] leaves the store with its
/// saved records, and the user's unsent edits are discarded and shown.
struct LogOutButton: View {
  let store: LoaderStore
  @State private var notSynced: [OutboxItem] = []

  var body: some View {
    Button("Log out") {
      Task {
        let removal = store.remove(["user"], pendingEdits: .discard)
        await store.flushPersistence()
        notSynced = removal.discardedEdits
      }
    }
    if !notSynced.isEmpty {
      Text("\(notSynced.count) changes were not synced")
    }
  }
}

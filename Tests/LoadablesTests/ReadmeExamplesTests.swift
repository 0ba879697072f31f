import Foundation
import Loadables
import LoadablesTesting
import Observation
import XCTest

// The README's examples, copied verbatim, in a file that imports Foundation: this proves they
// compile where a bare `@Process` would be ambiguous with `Foundation.Process`, and the tests
// below run each example model against a fake API that answers at once. Examples the README
// showed before it became a short front door (0.4) stay here as tests of the library.
// Keep the README's own examples (the declarations, `LibraryModel`, `BooksRepository`, the
// offline store) and this file in step.

// MARK: - README: the declarations the examples share

struct Book: Identifiable, Hashable, Sendable {
  let id: Int
  var title: String
}

protocol BookAPI: Sendable {
  func books() async throws -> [Book]
  func save(_ book: Book) async throws
  func delete(_ id: Book.ID) async throws
}

// MARK: - README: `@Loadable` in an `@Observable` class

@MainActor @Observable
final class LibraryModel {
  @ObservationIgnored @Loadable var books: LoadableState<[Book]>
  private let api: any BookAPI

  init(api: any BookAPI) { self.api = api }

  /// Starts a load in a new task. Calling it again cancels the previous load.
  func refresh() {
    $books.load { [api] in try await api.books() }
  }

  /// Reloads in place: the old list stays on screen while `$books.isRunning` is true, and
  /// after a failure, with the error as `$books.refreshError`.
  func reload() async {
    await $books.load(silently: true, policy: .keepValueOnFailure()) { [api] in
      try await api.books()
    }
  }
}

// MARK: - README: `@Process` (spelled `@Loadables.Process`)

@MainActor @Observable
final class BookEditorModel {
  enum Action: Equatable, Sendable { case save, delete }

  @ObservationIgnored @Loadables.Process var action: ProcessState<Action>
  @ObservationIgnored @LoadableProcess var publishing: SingleProcessState
  private let api: any BookAPI

  init(api: any BookAPI) { self.api = api }

  func save(_ book: Book) {
    $action.run(.save) { [api] in try await api.save(book) }
  }

  func delete(_ book: Book) {
    $action.run(.delete) { [api] in try await api.delete(book.id) }
  }

  func publish(_ book: Book) {
    $publishing.run { [api] in try await api.save(book) }
  }
}

// MARK: - README: `LoadableSupport`

@MainActor @Observable
final class ShelfModel: LoadableSupport {
  var books: LoadableState<[Book]> = .absent
  private let api: any BookAPI

  init(api: any BookAPI) { self.api = api }

  func refresh() {
    load(\.books) { [api] in try await api.books() }
  }

  func reload() async {
    await load(\.books, silently: true, policy: .keepValueOnFailure()) { [api] in
      try await api.books()
    }
  }
}

// MARK: - README: `ProcessSupport`

@MainActor @Observable
final class BookDetailModel: ProcessSupport {
  let book: Book
  var deleting: SingleProcessState = .idle
  private let api: any BookAPI

  init(book: Book, api: any BookAPI) {
    self.book = book
    self.api = api
  }

  func delete() {
    run(\.deleting) { [api, book] in try await api.delete(book.id) }
  }
}

// MARK: - README: the `Foundation.Process` note

@MainActor
final class DraftModel {
  @Loadables.Process var saving: SingleProcessState
  @LoadableProcess var publishing: SingleProcessState
}

// MARK: - README: Loader objects

final class BooksLoader: BaseLoader<[Book]> {
  private let api: any BookAPI

  init(api: any BookAPI) {
    self.api = api
    super.init(policy: .retry(maxAttempts: 3).timeout(.seconds(10)))
  }

  override func fetch() async throws -> [Book] {
    try await api.books()
  }
}

// MARK: - README: Sharing state across screens

@MainActor
final class BooksRepository {
  let store = LoaderStore()
  private let api: any BookAPI

  init(api: any BookAPI) { self.api = api }

  /// The list of books: one shared entry, whoever asks.
  var books: SharedLoader<[Book]> {
    store.loader(for: ["books"], staleTime: .seconds(60)) { [api] in try await api.books() }
  }

  /// Shows the new title on every screen at once; takes it back if `save` throws;
  /// refreshes every entry under ["books"] if it succeeds.
  func rename(_ book: Book, to title: String) async throws {
    var renamed = book
    renamed.title = title
    try await store.edit(invalidating: [["books"]]) { edit in
      edit.update(books) { books in
        if let index = books.firstIndex(where: { $0.id == book.id }) { books[index] = renamed }
      }
    } perform: { [api] in
      try await api.save(renamed)
    }
  }
}

// MARK: - Tests

// MARK: - README: Lists that page

protocol CatalogAPI: Sendable {
  func books(page: Int, perPage: Int) async throws -> [Book]
}

@MainActor @Observable
final class CatalogModel {
  @ObservationIgnored @Paged var books: PagedState<Book, Int>
  let source: PagedSource<Book, Int>

  init(api: any CatalogAPI) {
    source = .numbered(pageSize: 20) { page, size in
      try await api.books(page: page, perPage: size)
    }
  }

  // list: .loading, then page 1
  func appear() async { await $books.load(from: source) }
  // nextPage: .loading, then the page appended
  func lastRowAppeared() { $books.loadNextPage(from: source) }
  // the old pages stay until the new page 1 lands
  func pullToRefresh() async { await $books.refresh(from: source) }
}

/// Thirty books, twenty a page.
private struct ThirtyBooks: CatalogAPI {
  func books(page: Int, perPage: Int) async throws -> [Book] {
    let all = (1...30).map { Book(id: $0, title: "Book \($0)") }
    return Array(all.dropFirst((page - 1) * perPage).prefix(perPage))
  }
}

@MainActor
final class ReadmePagingExampleTests: XCTestCase {
  func testTheCatalogPagesToTheEnd() async {
    let model = CatalogModel(api: ThirtyBooks())
    await model.appear()
    XCTAssertEqual(model.books.items.count, 20)
    await model.$books.loadNextPage(from: model.source)
    XCTAssertEqual(model.books.items.count, 30)
    XCTAssertEqual(model.books.nextPage, .end)
    await model.pullToRefresh()
    XCTAssertEqual(model.books.items.count, 20)
  }
}

@MainActor
final class ReadmeExamplesTests: XCTestCase {
  private let dune = Book(id: 1, title: "Dune")

  func testLibraryModelLoadsAndReloadsSilently() async {
    let api = FakeBookAPI(books: [dune])
    let model = LibraryModel(api: api)
    model.refresh()
    XCTAssertEqual(model.books, .loading)
    XCTAssertTrue(model.$books.isRunning)
    await settle { model.$books.isRunning }
    XCTAssertEqual(model.books, .loaded([dune]))

    await model.reload()
    XCTAssertEqual(model.books, .loaded([dune]))
    XCTAssertFalse(model.$books.isRunning)
  }

  func testLibraryModelKeepsItsBooksWhenAReloadFails() async {
    let model = LibraryModel(api: FakeBookAPI(failure: FakeError.offline))
    model.books = .loaded([dune])
    await model.reload()
    XCTAssertEqual(model.books, .loaded([dune]), "a failed reload replaced the books")
    XCTAssertEqual(model.$books.refreshError as? FakeError, .offline)
  }

  func testLibraryModelShowsAnError() async {
    let model = LibraryModel(api: FakeBookAPI(failure: FakeError.offline))
    await model.reload()
    XCTAssertEqual(model.books, .error(FakeError.offline))
  }

  func testBookEditorModelRunsEachKindOfJob() async {
    let api = FakeBookAPI(books: [dune])
    let model = BookEditorModel(api: api)
    model.save(dune)
    XCTAssertTrue(model.action.isRunning(.save))
    await settle { model.$action.isRunning }
    XCTAssertTrue(model.action.hasFinished(.save))

    model.delete(dune)
    XCTAssertTrue(model.action.isRunning(.delete))
    await settle { model.$action.isRunning }
    XCTAssertTrue(model.action.hasFinished(.delete))
    XCTAssertEqual(api.log, ["save 1", "delete 1"])

    model.publish(dune)
    XCTAssertTrue(model.publishing.isRunning)
    await settle { model.$publishing.isRunning }
    XCTAssertTrue(model.publishing.hasFinished)
  }

  func testShelfModelLoadsThroughItsKeyPath() async {
    let model = ShelfModel(api: FakeBookAPI(books: [dune]))
    model.refresh()
    XCTAssertEqual(model.books, .loading)
    await settle { model.handle(\.books).isRunning }
    XCTAssertEqual(model.books, .loaded([dune]))

    await model.reload()
    XCTAssertEqual(model.books, .loaded([dune]))
  }

  func testBookDetailModelDeletesAndReportsFailure() async {
    let api = FakeBookAPI(books: [dune])
    let model = BookDetailModel(book: dune, api: api)
    model.delete()
    XCTAssertTrue(model.deleting.isRunning)
    await settle { model.handle(\.deleting).isRunning }
    XCTAssertTrue(model.deleting.hasFinished)
    XCTAssertEqual(api.log, ["delete 1"])

    let failing = BookDetailModel(book: dune, api: FakeBookAPI(failure: FakeError.offline))
    failing.delete()
    await settle { failing.handle(\.deleting).isRunning }
    XCTAssertTrue(failing.deleting.hasFailed)
    XCTAssertEqual(failing.deleting.error as? FakeError, .offline)
  }

  func testDraftModelSpellingsRunInAFileThatImportsFoundation() async {
    let model = DraftModel()
    await model.$saving.run {}
    XCTAssertTrue(model.saving.hasFinished)
    await model.$publishing.run { throw FakeError.offline }
    XCTAssertTrue(model.publishing.hasFailed)
  }

  func testAFailedRefreshKeepsTheBooks() async {
    @Loadable var books: LoadableState<[Book]> = .loaded([dune])
    let api = FakeBookAPI(failure: FakeError.offline)
    var shown: (any Error)?
    // README: `@Loadable` in an `@Observable` class — a failed refresh keeps the list.
    await $books.load(silently: true, policy: .keepValueOnFailure()) { [api] in
      try await api.books()
    }
    if let error = $books.refreshError { shown = error }  // books still loaded
    XCTAssertEqual(books, .loaded([dune]))
    XCTAssertEqual(shown as? FakeError, .offline)
  }

  func testThePolicyExamplesRun() async {
    @Loadable var books: LoadableState<[Book]>
    @Loadable var results: LoadableState<[Book]>
    let api = FakeBookAPI(books: [dune])
    let text = "Du"

    // Each example as the README writes it; the fake API answers at once, so none waits.
    func retry() {
      // Retry: up to 3 attempts, waiting an exponential backoff with jitter between them.
      $books.load(policy: .retry(maxAttempts: 3)) { [api] in try await api.books() }
    }
    func timeout() {
      // Timeout: after 10 seconds the block is cancelled and the state is .error(TimeoutError()).
      $books.load(policy: .timeout(.seconds(10))) { [api] in try await api.books() }
    }
    func debounce() {
      // Debounce: waits 300 ms first; a newer load cancels the wait, so a burst loads once.
      $results.load(policy: .debounce(for: .milliseconds(300))) { [api] in
        try await api.books().filter { $0.title.contains(text) }
      }
    }
    func limit() {
      // Concurrency limit: at most 2 of the loads that share `downloads` run at once.
      let downloads = ConcurrencyLimiter(limit: 2)
      $books.load(policy: .limit(downloads)) { [api] in try await api.books() }
    }
    func cache() {
      // Cache: a value stored in the last minute shows at once, and nothing is fetched.
      let cache = LoadCache<String, [Book]>(timeToLive: .seconds(60))
      $books.load(policy: .cache(cache, key: "all")) { [api] in try await api.books() }
    }
    func dedupe() {
      // Dedupe: loads of one key that run at the same time share one fetch.
      let inFlight = Deduplicator<String, [Book]>()
      $books.load(policy: .dedupe(inFlight, key: "all")) { [api] in try await api.books() }
    }

    for example in [retry, timeout, limit, cache, dedupe] {
      books = .absent
      example()
      XCTAssertEqual(books, .loading)
      await settle { $books.isRunning }
      XCTAssertEqual(books, .loaded([dune]))
    }

    // The debounce waits 300 ms of real time: check that it waits, then stop it.
    debounce()
    XCTAssertEqual(results, .loading)
    XCTAssertTrue($results.isRunning)
    await Task.yield()
    $results.cancel()
    XCTAssertFalse($results.isRunning)
  }

  func testTheLoaderObjectExampleLoads() async {
    let api = FakeBookAPI(books: [dune])

    let loader = BooksLoader(api: api)
    await loader.load()  // .loading, then .loaded(books) or .error(error)
    loader.start(silently: true)  // not async: starts a load and returns at once

    XCTAssertEqual(loader.state, .loaded([dune]), "a silent load replaced the value")
    XCTAssertTrue(loader.isRunning, "start returned before its load started")
    await settle { loader.isRunning }
    XCTAssertEqual(loader.state, .loaded([dune]))
    XCTAssertTrue(loader.policy.description.hasPrefix("retry(maxAttempts: 3"))
    XCTAssertTrue(loader.policy.description.hasSuffix("timeout(10.0 seconds)"))
  }

  // README: Progress.
  func testTheProgressExampleReportsAfterEachFile() async {
    @Loadable var files: LoadableState<[String]>
    let api = FakeFilesAPI()
    let names = ["a.txt", "b.txt"]
    var seen: [LoadingProgress?] = []
    api.onDownload = { seen.append($files.progress) }
    _ = $files.progress  // as a view that shows it would

    await $files.load {
      for (index, name) in names.enumerated() {
        try await api.download(name)
        LoadingProgress.report(fraction: Double(index + 1) / Double(names.count), message: name)
      }
      return names
    }
    // elsewhere: $files.progress?.fraction  (observable; handle(\.files).progress in the class forms)

    XCTAssertEqual(files, .loaded(names))
    XCTAssertEqual(seen, [nil, LoadingProgress(fraction: 0.5, message: "a.txt")])
    XCTAssertNil($files.progress)
  }

  // README: Testing your code.
  func testTheTestingExampleRecordsEveryState() async throws {
    let model = ReadmeFeedModel()

    let recorder = StateRecorder(model.$feed)
    model.refresh()
    try await recorder.wait(until: \.isLoaded)
    XCTAssertEqual(recorder.states, [.absent, .loading, .loaded(["a", "b"])])
    recorder.stop()
  }

  func testTheSharedStateExampleSharesOneEntryAndRollsBackARefusedRename() async {
    let api = SharedBookAPI(books: [dune])
    let repository = BooksRepository(api: api)
    @Loadable var books: LoadableState<[Book]>
    @Loadable var detail: LoadableState<[Book]>

    await $books.load(from: repository.books)
    await $detail.load(from: repository.books)  // fresh: fetches nothing
    XCTAssertEqual(api.log, ["books"])
    XCTAssertEqual(repository.books.observerCount, 2)

    api.refusesSaves = true
    do {
      try await repository.rename(dune, to: "Dune Messiah")
      XCTFail("the rename did not rethrow")
    } catch {
      XCTAssertEqual(error as? FakeError, .offline)
    }
    XCTAssertEqual(books, .loaded([dune]), "the refused rename was not rolled back")
    XCTAssertEqual(detail, books)

    api.refusesSaves = false
    try? await repository.rename(dune, to: "Dune Messiah")
    await repository.books.load()  // joins the refresh the rename started
    XCTAssertEqual(api.log, ["books", "save 1", "save 1", "books"])
    XCTAssertEqual(books, .loaded([Book(id: 1, title: "Dune Messiah")]))
    XCTAssertEqual(detail, books)
  }

  /// Waits, without sleeping, until `isRunning` turns false: observes it and re-checks after
  /// every change. The outcome is written in the same main-actor turn that ends the load.
  private func settle(_ isRunning: @escaping @MainActor () -> Bool) async {
    while isRunning() {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        withObservationTracking {
          _ = isRunning()
        } onChange: {
          continuation.resume()
        }
      }
    }
  }
}

private enum FakeError: Error, Equatable { case offline }

/// The README's progress example downloads through `api.download(_:)`; this one answers at
/// once and lets the test look at the progress before each download.
@MainActor
private final class FakeFilesAPI {
  var onDownload: () -> Void = {}
  func download(_ name: String) async throws { onDownload() }
}

/// The model the README's testing example drives.
@MainActor
private final class ReadmeFeedModel {
  @Loadable var feed: LoadableState<[String]>
  func refresh() { $feed.load { ["a", "b"] } }
}

/// Answers from `books`, and saves into it unless `refusesSaves`; logs each call.
@MainActor
private final class SharedBookAPI: BookAPI {
  var books: [Book]
  var refusesSaves = false
  private(set) var log: [String] = []

  init(books: [Book]) { self.books = books }

  func books() async throws -> [Book] {
    log.append("books")
    return books
  }

  func save(_ book: Book) async throws {
    log.append("save \(book.id)")
    if refusesSaves { throw FakeError.offline }
    if let index = books.firstIndex(where: { $0.id == book.id }) { books[index] = book }
  }

  func delete(_ id: Book.ID) async throws {}
}

/// Answers at once with a fixed list, or fails; records the writes it was asked for.
private final class FakeBookAPI: BookAPI, @unchecked Sendable {
  // Safe: `recorded` is read and written only while holding `lock`.
  private let lock = NSLock()
  private var recorded: [String] = []
  private let list: [Book]
  private let failure: FakeError?

  init(books: [Book] = [], failure: FakeError? = nil) {
    self.list = books
    self.failure = failure
  }

  var log: [String] { lock.withLock { recorded } }

  func books() async throws -> [Book] {
    if let failure { throw failure }
    return list
  }

  func save(_ book: Book) async throws {
    if let failure { throw failure }
    lock.withLock { recorded.append("save \(book.id)") }
  }

  func delete(_ id: Book.ID) async throws {
    if let failure { throw failure }
    lock.withLock { recorded.append("delete \(id)") }
  }
}

import LoadablesTesting
import Observation
import XCTest

@testable import Loadables

// The decisions behind the recipes of the "SwiftUI Recipes" article, tested through the plain
// types the recipes' views use. The views themselves are type-checked by `.ci/swiftui-check`
// (Tests/SwiftUIStandIn/Recipes.swift); here each test runs the same calls the view makes —
// `LoadingView`'s (through `LoadingSource`, which is all `LoadingView` reads and starts),
// `.refreshable`'s and `.task`'s — and checks what the view would show.

// MARK: - 1. A list with pull to refresh that never blanks

@MainActor
final class RefreshingListRecipeTests: XCTestCase {
  func testPullToRefreshKeepsTheListOnScreenUntilTheNewOneArrives() async throws {
    @Loadable var books: LoadableState<[Int]>
    let first = Gate<[Int]>()
    // LibraryView: LoadingView($books) { try await api.books() } content: { ... }
    let view = LoadingSource(
      binding: $books, policy: LoadPolicy(), fetch: { try await first.pass() },
      loadOnAppear: true)
    view.appear()
    XCTAssertEqual(view.presentation(failureLabel: "").shown, .loading)
    first.open([1, 2])
    try await StateRecorder($books).wait(until: \.isLoaded)

    // .refreshable($books) { try await api.books() } runs this when the user pulls.
    let recorder = StateRecorder($books)
    let second = Gate<[Int]>()
    let refresh = Task { await $books.load(silently: true) { try await second.pass() } }
    await second.arrival()
    let refreshing = view.presentation(failureLabel: "")
    XCTAssertEqual(refreshing.shown, .content([1, 2]), "the list blanked during the refresh")
    XCTAssertTrue(refreshing.isRefreshing)
    second.open([1, 2, 3])
    await refresh.value

    XCTAssertEqual(view.presentation(failureLabel: "").shown, .content([1, 2, 3]))
    let shown = recorder.states.map {
      LoadingPresentation(state: $0, isRunning: false, canRetry: true).shown
    }
    XCTAssertEqual(shown, [.content([1, 2]), .content([1, 2, 3])], "a state in between blanked")
    recorder.stop()
  }

  func testAFailedRefreshShowsTheErrorWithARetryButton() async throws {
    @Loadable var books: LoadableState<[Int]> = .loaded([1])
    let view = LoadingSource(
      binding: $books, policy: LoadPolicy(), fetch: { [2] }, loadOnAppear: true)
    await $books.load(silently: true) { throw TestError() }
    XCTAssertEqual(view.presentation(failureLabel: "").shown, .failure(retryButton: true))
    view.retry()
    try await StateRecorder($books).wait(until: \.isLoaded)
    XCTAssertEqual(view.presentation(failureLabel: "").shown, .content([2]))
  }

  func testAFailedRefreshUnderKeepValueOnFailureKeepsTheListAndShowsTheErrorBesideIt() async {
    @Loadable var books: LoadableState<[Int]> = .loaded([1])
    // KeptLibraryView: LoadingView($books, policy: .keepValueOnFailure()) { ... }
    let view = LoadingSource(
      binding: $books, policy: .keepValueOnFailure(), fetch: { [2] }, loadOnAppear: true)
    let recorder = StateRecorder($books)
    // .refreshable { await $books.load(silently: true, policy: .keepValueOnFailure()) { ... } }
    await $books.load(silently: true, policy: .keepValueOnFailure()) { throw TestError() }
    XCTAssertEqual(view.presentation(failureLabel: "").shown, .content([1]))
    XCTAssertTrue(
      $books.refreshError is TestError, "the failed refresh's error is not beside the list")
    XCTAssertEqual(recorder.states, [.loaded([1])], "the failed refresh wrote over the list")

    await $books.load(silently: true, policy: .keepValueOnFailure()) { [1, 2] }
    XCTAssertEqual(view.presentation(failureLabel: "").shown, .content([1, 2]))
    XCTAssertNil($books.refreshError, "a successful refresh left the old error")
    recorder.stop()
  }

  func testComingBackToTheListDoesNotReloadIt() async {
    @Loadable var books: LoadableState<[Int]> = .loaded([1])
    var fetches = 0
    let view = LoadingSource(
      binding: $books, policy: LoadPolicy(),
      fetch: {
        fetches += 1
        return [2]
      }, loadOnAppear: true)
    view.appear()
    XCTAssertFalse($books.isRunning)
    XCTAssertEqual(fetches, 0)
  }
}

// MARK: - 2. A debounced search field

@MainActor
final class DebouncedSearchRecipeTests: XCTestCase {
  func testTypingQuicklySearchesOnceForTheLastQueryAndKeepsTheOldResults() async throws {
    @Loadable var results: LoadableState<[Int]> = .loaded([0])
    let clock = ManualClock()
    var searched: [String] = []
    // SearchView.search(_:), with a clock the test drives.
    func search(_ query: String) {
      guard !query.isEmpty else { return $results.reset() }
      $results.load(silently: true, policy: .debounce(for: .milliseconds(300), clock: clock)) {
        searched.append(query)
        return [query.count]
      }
    }
    // LoadingView($results, loadOnAppear: false) { try await api.search(query) } ...
    let view = LoadingSource(
      binding: $results, policy: LoadPolicy(), fetch: { [0] }, loadOnAppear: false)

    for query in ["s", "sw", "swi"] {
      search(query)
      try await clock.sleepers(count: 1)
      let typing = view.presentation(failureLabel: "")
      XCTAssertEqual(typing.shown, .content([0]), "typing blanked the previous results")
      XCTAssertTrue(typing.isRefreshing)
      clock.advance(by: .milliseconds(100))
    }
    XCTAssertEqual(searched, [], "a search ran before the typing paused")
    let recorder = StateRecorder($results)
    clock.advance(by: .milliseconds(200))
    try await recorder.wait(until: { $0 == .loaded([3]) })
    XCTAssertEqual(searched, ["swi"], "the API was hit more than once")
    recorder.stop()
  }

  func testClearingTheQueryShowsTheEmptyView() {
    @Loadable var results: LoadableState<[Int]> = .loaded([1])
    $results.reset()  // search("") does this
    let view = LoadingSource(
      binding: $results, policy: LoadPolicy(), fetch: { [0] }, loadOnAppear: false)
    XCTAssertEqual(view.presentation(failureLabel: "").shown, .empty)
    view.appear()
    XCTAssertFalse($results.isRunning, "the empty search field searched on appear")
  }
}

// MARK: - 3. A save button driven by @Process

@MainActor
final class SaveButtonRecipeTests: XCTestCase {
  enum BookAction: Equatable, Sendable {
    case save
    case delete
  }

  func testTheSaveButtonFollowsItsJob() async throws {
    @Loadables.Process var action: ProcessState<BookAction>
    var title = "Dune"
    // EditBookView.body
    func save() -> ProcessButtonPresentation {
      ProcessButtonPresentation(
        state: action, process: .save, isRunning: $action.isRunning, canRun: !title.isEmpty)
    }
    func label() -> String {
      save().title(ready: "Save", running: "Saving…", succeeded: "Saved", failed: "Try Again")
    }
    XCTAssertEqual(label(), "Save")
    XCTAssertTrue(save().isEnabled)

    let server = Gate<Void>()
    // The button's action (a synchronous closure, so the Task-returning run).
    let tap: Task<Void, Never> = $action.run(.save) { try await server.pass() }
    XCTAssertEqual(label(), "Saving…")
    XCTAssertFalse(save().isEnabled, "a second tap would cancel the save")
    XCTAssertTrue(save().showsProgress)
    server.open()
    await tap.value
    XCTAssertEqual(label(), "Saved")
    XCTAssertTrue(save().isEnabled)

    await $action.run(.save) { throw TestError() }
    XCTAssertEqual(label(), "Try Again")
    XCTAssertTrue(save().isEnabled)

    title = ""
    XCTAssertFalse(save().isEnabled, "an empty title can be saved")
  }

  func testSavingIsDisabledWhileADeleteRuns() async {
    @Loadables.Process var action: ProcessState<BookAction>
    let server = Gate<Void>()
    let _: Task<Void, Never> = $action.run(.delete) { try await server.pass() }
    let save = ProcessButtonPresentation(
      state: action, process: .save, isRunning: $action.isRunning)
    XCTAssertFalse(save.isEnabled)
    XCTAssertEqual(save.stage, .ready)
    $action.cancel()
  }
}

// MARK: - 4. Data in the store

@MainActor
final class DataInTheStoreRecipeTests: XCTestCase {
  /// The recipe's store, with the API replaced by a closure the test sets.
  @MainActor @Observable
  final class BookStore {
    private(set) var books: [Int] = []
    @ObservationIgnored var api: @MainActor () async throws -> [Int]

    init(api: @escaping @MainActor () async throws -> [Int]) {
      self.api = api
    }

    func reload() async throws {
      books = try await api()
    }
  }

  enum StoreRequest: Equatable, Sendable {
    case load
    case refresh
  }

  /// What StoreBooksView.body decides.
  private func presentation(
    _ store: BookStore, _ loading: ProcessBinding<StoreRequest>
  ) -> LoadingPresentation<[Int]> {
    LoadingPresentation(
      items: store.books, phase: loading.wrappedValue, isRunning: loading.isRunning,
      canRetry: true)
  }

  /// The phases the view went through, and what `onProcessFailed` would have reported for
  /// each change.
  private func reportedFailures(_ phases: [ProcessState<StoreRequest>]) -> Int {
    zip(phases, phases.dropFirst()).filter {
      FailureTransition.newFailure(from: $0.failure, to: $1.failure) != nil
    }.count
  }

  func testAFirstLoadShowsProgressThenTheEmptyViewWhenThereAreNoBooks() async throws {
    let store = BookStore { [] }
    @Loadables.Process var loading: ProcessState<StoreRequest>
    let server = Gate<Void>()
    store.api = {
      try await server.pass()
      return []
    }
    XCTAssertTrue(presentation(store, $loading).shouldLoadOnAppear)
    // .task { if presentation.shouldLoadOnAppear { await $loading.run(.load, block: store.reload) } }
    let task = Task { await $loading.run(.load, block: store.reload) }
    await server.arrival()
    XCTAssertEqual(presentation(store, $loading).shown, .loading)
    server.open()
    await task.value
    XCTAssertEqual(presentation(store, $loading).shown, .empty, "no books, but no empty view")
    XCTAssertFalse(presentation(store, $loading).shouldLoadOnAppear, "coming back reloads")
  }

  func testPullToRefreshNeverBlanksTheList() async throws {
    let store = BookStore { [1, 2] }
    @Loadables.Process var loading: ProcessState<StoreRequest>
    await $loading.run(.load, block: store.reload)
    let server = Gate<[Int]>()
    store.api = { try await server.pass() }
    let recorder = StateRecorder($loading)
    var shown: [ShownPhase] = []
    // .refreshable($loading, process: .refresh, block: store.reload) runs this.
    let refresh = Task { await $loading.run(.refresh, silently: true, block: store.reload) }
    await server.arrival()
    shown.append(presentation(store, $loading).shown)
    XCTAssertTrue(presentation(store, $loading).isRefreshing)
    server.open([1, 2, 3])
    await refresh.value
    shown.append(presentation(store, $loading).shown)
    XCTAssertEqual(shown, [.content([1, 2]), .content([1, 2, 3])])
    XCTAssertEqual(recorder.states, [.finished(.load), .finished(.refresh)], "the list blanked")
    recorder.stop()
  }

  func testACancelledRefreshIsNeverShownAsAnError() async throws {
    let store = BookStore { [1] }
    @Loadables.Process var loading: ProcessState<StoreRequest>
    await $loading.run(.load, block: store.reload)
    let server = Gate<[Int]>()
    store.api = { try await server.pass() }  // throws CancellationError when cancelled
    let recorder = StateRecorder($loading)
    let refresh = Task { await $loading.run(.refresh, silently: true, block: store.reload) }
    await server.arrival()
    refresh.cancel()  // the user let go, or the view went away
    await refresh.value

    XCTAssertEqual(loading, .finished(.load), "a cancelled refresh wrote a state")
    XCTAssertEqual(reportedFailures(recorder.states), 0, "onProcessFailed would report it")
    XCTAssertEqual(presentation(store, $loading).shown, .content([1]))
    recorder.stop()
  }

  func testACancelledRefreshWhoseRequestThrowsItsOwnErrorIsNeverShown() async throws {
    let store = BookStore { [1] }
    @Loadables.Process var loading: ProcessState<StoreRequest>
    await $loading.run(.load, block: store.reload)
    let server = Gate<[Int]>()
    store.api = {
      do {
        return try await server.pass()
      } catch {
        throw TestError(code: -999)  // as URLSession throws URLError(.cancelled)
      }
    }
    let recorder = StateRecorder($loading)
    let refresh = Task { await $loading.run(.refresh, silently: true, block: store.reload) }
    await server.arrival()
    refresh.cancel()
    await refresh.value
    XCTAssertEqual(recorder.states, [.finished(.load)], "the cancelled request's error was written")
    recorder.stop()
  }

  func testAnAPIThatThrowsCancellationErrorIsNeverShown() async {
    let store = BookStore { throw CancellationError() }
    @Loadables.Process var loading: ProcessState<StoreRequest>
    let recorder = StateRecorder($loading)
    await $loading.run(.refresh, silently: true, block: store.reload)
    XCTAssertEqual(recorder.states, [.idle], "CancellationError was written as a failure")
    XCTAssertEqual(presentation(store, $loading).shown, .empty)
    recorder.stop()
  }

  func testAFirstLoadCancelledWhenTheViewLeavesRunsAgainWhenItComesBack() async throws {
    let store = BookStore { [] }
    @Loadables.Process var loading: ProcessState<StoreRequest>
    let server = Gate<[Int]>()
    store.api = { try await server.pass() }
    let task = Task { await $loading.run(.load, block: store.reload) }
    await server.arrival()
    task.cancel()  // SwiftUI cancels .task when the view disappears
    await task.value
    XCTAssertEqual(loading, .idle, "the cancelled first load left .running with nothing running")
    XCTAssertEqual(presentation(store, $loading).shown, .empty, "nothing to show yet")
    XCTAssertTrue(presentation(store, $loading).shouldLoadOnAppear)

    store.api = { [4] }
    await $loading.run(.load, block: store.reload)  // the view's .task, when it returns
    XCTAssertEqual(presentation(store, $loading).shown, .content([4]))
  }

  func testAFailedRefreshKeepsTheListAndIsReportedOnce() async {
    let store = BookStore { [1] }
    @Loadables.Process var loading: ProcessState<StoreRequest>
    await $loading.run(.load, block: store.reload)
    store.api = { throw TestError() }
    let recorder = StateRecorder($loading)
    await $loading.run(.refresh, silently: true, block: store.reload)
    XCTAssertEqual(presentation(store, $loading).shown, .content([1]), "the error blanked the list")
    XCTAssertEqual(reportedFailures(recorder.states), 1, "onProcessFailed shows it once")
    recorder.stop()
  }
}

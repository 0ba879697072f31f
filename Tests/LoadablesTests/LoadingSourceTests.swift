import LoadablesTesting
import XCTest

@testable import Loadables

/// `LoadingSource`: what `LoadingView` reads and starts, for a loader and for a binding. The
/// view's own code only maps `presentation(failureLabel:)` to views and calls `appear()` from
/// `onAppear` and `retry()` from the retry button, so these tests drive it as the view would.
@MainActor
final class LoadingSourceTests: XCTestCase {
  final class NumbersLoader: BaseLoader<[Int]> {
    let gate = Gate<[Int]>()
    var fetches = 0
    override func fetch() async throws -> [Int] {
      fetches += 1
      return try await gate.pass()
    }
  }

  private func show(_ source: LoadingSource<[Int]>) -> ShownPhase {
    source.presentation(failureLabel: FailurePresentation.defaultAccessibilityLabel).shown
  }

  // MARK: - A loader

  func testAViewShowingASharedEntryObservesItWhileShown() async {
    let store = LoaderStore()
    let entry = store.loader(for: ["feed"]) { [1, 2] }
    let source = LoadingSource(loader: entry, loadOnAppear: true)
    let shown = Task { await source.observeWhileShown() }  // the view's .task
    await yieldUntil { entry.observerCount == 1 }
    XCTAssertEqual(entry.observerCount, 1, "a view showing the entry does not observe it")
    shown.cancel()  // the view goes away
    await shown.value
    XCTAssertEqual(entry.observerCount, 0, "the view went away and still observes the entry")

    let other = LoadingSource(loader: BlockLoader { [3] }, loadOnAppear: true)
    await other.observeWhileShown()  // returns at once for loaders that need no observing
  }

  func testAppearingStartsTheLoadBeforeTheFirstFrame() async throws {
    let loader = NumbersLoader()
    let source = LoadingSource(loader: loader, loadOnAppear: true)
    XCTAssertEqual(show(source), .empty)
    source.appear()
    XCTAssertEqual(loader.state, .loading, "the first frame would show nothing")
    XCTAssertEqual(show(source), .loading)
    await loader.gate.arrival()
    loader.gate.open([1, 2])
    try await StateRecorder(loader).wait(until: \.isLoaded)
    XCTAssertEqual(show(source), .content([1, 2]))
  }

  func testAnyOtherLoaderLoadsOnAppearToo() async throws {
    let loader = ForwardingLoader(NumbersLoader())
    let source = LoadingSource(loader: loader, loadOnAppear: true)
    source.appear()
    await loader.inner.gate.arrival()
    XCTAssertEqual(show(source), .loading)
    loader.inner.gate.open([3])
    try await StateRecorder(loader.inner).wait(until: \.isLoaded)
    XCTAssertEqual(show(source), .content([3]))
  }

  func testAppearingAgainNeverReloadsLoadedContent() async throws {
    let loader = NumbersLoader()
    loader.gate.open([1])
    await loader.load()
    let source = LoadingSource(loader: loader, loadOnAppear: true)
    source.appear()
    source.appear()
    XCTAssertFalse(loader.isRunning)
    XCTAssertEqual(loader.fetches, 1)
  }

  func testAppearingWhileALoadRunsJoinsIt() async {
    let loader = NumbersLoader()
    let source = LoadingSource(loader: loader, loadOnAppear: true)
    source.appear()
    source.appear()
    await loader.gate.arrival()
    XCTAssertEqual(loader.fetches, 1, "a second view restarted the load the first one started")
    loader.cancel()
  }

  func testWithoutLoadOnAppearNothingLoads() {
    let loader = NumbersLoader()
    let source = LoadingSource(loader: loader, loadOnAppear: false)
    source.appear()
    XCTAssertFalse(loader.isRunning)
    XCTAssertEqual(show(source), .empty)
  }

  func testARetryKeepsTheErrorOnScreenUntilTheNewResult() async throws {
    let loader = BlockLoader<[Int]>(state: .error(TestError())) { [4] }
    let source = LoadingSource(loader: loader, loadOnAppear: false)
    XCTAssertEqual(show(source), .failure(retryButton: true))
    let recorder = StateRecorder(loader)
    source.retry()
    XCTAssertEqual(show(source), .failure(retryButton: false), "a retry flashed the spinner")
    XCTAssertTrue(source.presentation(failureLabel: "").isRefreshing)
    try await recorder.wait(until: \.isLoaded)
    XCTAssertEqual(recorder.states, [.error(TestError()), .loaded([4])], "a retry wrote .loading")
    XCTAssertEqual(show(source), .content([4]))
  }

  func testAReappearingViewReloadsAfterAFailure() async throws {
    let loader = BlockLoader<[Int]>(state: .error(TestError())) { [5] }
    let source = LoadingSource(loader: loader, loadOnAppear: true)
    source.appear()
    XCTAssertEqual(loader.state, .loading, "a fresh appearance starts a fresh load")
    try await StateRecorder(loader).wait(until: \.isLoaded)
  }

  func testTheSourceShowsTheLoadersRetryAttempt() async throws {
    let clock = ManualClock()
    var calls = 0
    let loader = BlockLoader<[Int]>(
      policy: .retry(maxAttempts: 3, backoff: .constant(.seconds(1)), clock: clock)
    ) {
      calls += 1
      if calls == 1 { throw TestError() }
      return [6]
    }
    let source = LoadingSource(loader: loader, loadOnAppear: true)
    source.appear()
    try await clock.sleepers(count: 1)
    let waiting = source.presentation(failureLabel: "")
    XCTAssertEqual(waiting.shown, .loading)
    XCTAssertEqual(waiting.progressText, "attempt 2 of 3 starts in 1.0 seconds")
    clock.advance(by: .seconds(1))
    try await StateRecorder(loader).wait(until: \.isLoaded)
    XCTAssertNil(source.presentation(failureLabel: "").attempt)
  }

  // MARK: - A binding

  func testABindingWithoutFetchOnlyShowsItsState() {
    @Loadable var numbers: LoadableState<[Int]> = .error(TestError())
    let source = LoadingSource(
      binding: $numbers, policy: LoadPolicy(), fetch: nil, loadOnAppear: true)
    XCTAssertFalse(source.canLoad)
    XCTAssertEqual(show(source), .failure(retryButton: false), "a retry button that does nothing")
    source.appear()
    source.retry()
    XCTAssertFalse($numbers.isRunning)
  }

  func testABindingLoadsOnAppearWithItsFetch() async throws {
    @Loadable var numbers: LoadableState<[Int]>
    let gate = Gate<[Int]>()
    let source = LoadingSource(
      binding: $numbers, policy: LoadPolicy(), fetch: { try await gate.pass() },
      loadOnAppear: true)
    source.appear()
    XCTAssertEqual(numbers, .loading)
    XCTAssertEqual(show(source), .loading)
    gate.open([7])
    try await StateRecorder($numbers).wait(until: \.isLoaded)
    XCTAssertEqual(show(source), .content([7]))
    source.appear()
    XCTAssertFalse($numbers.isRunning, "coming back reloaded the content")
  }

  func testABindingRetriesUnderItsPolicy() async throws {
    @Loadable var numbers: LoadableState<[Int]> = .error(TestError())
    var calls = 0
    let source = LoadingSource(
      binding: $numbers, policy: .retry(maxAttempts: 2, backoff: .constant(.zero)),
      fetch: {
        calls += 1
        if calls == 1 { throw TestError(code: 1) }
        return [8]
      }, loadOnAppear: false)
    source.retry()
    try await StateRecorder($numbers).wait(until: \.isLoaded)
    XCTAssertEqual(calls, 2, "the policy did not retry")
    XCTAssertEqual(numbers, .loaded([8]))
  }
}

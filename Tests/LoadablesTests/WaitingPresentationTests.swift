import LoadablesTesting
import XCTest

@testable import Loadables

/// A load that waits for the network reaches what a loading view shows, in every form that can
/// wait: `LoadingSource` (what `LoadingView` reads) for loaders and `@Loadable` bindings, and
/// `LoadingPresentation` built from the form's own `isWaitingForNetwork` for the key-path and
/// `@Process` forms, which `LoadingView` does not take. Each test starts offline, checks the
/// wait is shown, goes online and checks it clears and the value lands.
@MainActor
final class WaitingPresentationTests: XCTestCase {
  private func present(_ source: LoadingSource<[Int]>) -> LoadingPresentation<[Int]> {
    source.presentation(failureLabel: FailurePresentation.defaultAccessibilityLabel)
  }

  /// Asserts the presentation shows `shown`, waiting for the network (or not), with the
  /// progress text a waiting load gets.
  private func assertShows(
    _ presentation: LoadingPresentation<[Int]>, _ shown: ShownPhase, waiting: Bool,
    _ form: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertEqual(presentation.shown, shown, form, file: file, line: line)
    XCTAssertEqual(
      presentation.isWaitingForNetwork, waiting, "\(form): waiting", file: file, line: line)
    XCTAssertEqual(
      presentation.waitingText, waiting ? "Waiting for the network" : nil, form, file: file,
      line: line)
  }

  // MARK: - Loaders (LoadingView's loader form)

  final class FeedLoader: BaseLoader<[Int]> {
    init(connectivity: Connectivity) {
      super.init(policy: .waitsForNetwork(connectivity))
    }
    override func fetch() async throws -> [Int] { [1, 2] }
  }

  func testABaseLoaderSubclassShowsTheWaitInItsPresentation() async throws {
    let connectivity = Connectivity(isOnline: false)
    let loader = FeedLoader(connectivity: connectivity)
    let source = LoadingSource(loader: loader, loadOnAppear: true)
    source.appear()
    try await connectivity.waiters(count: 1)
    let waiting = present(source)
    assertShows(waiting, .loading, waiting: true, "BaseLoader")
    XCTAssertEqual(waiting.progressText, "Waiting for the network", "a bare spinner")
    connectivity.goOnline()
    try await StateRecorder(loader).wait(until: \.isLoaded)
    assertShows(present(source), .content([1, 2]), waiting: false, "BaseLoader")
    XCTAssertNil(present(source).progressText)
  }

  func testABlockLoadersSilentRefreshKeepsItsValueWhileItWaits() async throws {
    let connectivity = Connectivity(isOnline: false)
    var next = 1
    let loader = BlockLoader<[Int]>(policy: .waitsForNetwork(connectivity)) {
      defer { next += 1 }
      return [next]
    }
    let source = LoadingSource(loader: loader, loadOnAppear: true)
    connectivity.goOnline()
    await loader.load()
    connectivity.goOffline()
    loader.start(silently: true)  // a pull to refresh, offline
    try await connectivity.waiters(count: 1)
    let waiting = present(source)
    assertShows(waiting, .content([1]), waiting: true, "BlockLoader")
    XCTAssertTrue(waiting.isRefreshing, "a refresh that waits is still a refresh")
    connectivity.goOnline()
    try await StateRecorder(loader).wait(until: { $0 == .loaded([2]) })
    assertShows(present(source), .content([2]), waiting: false, "BlockLoader")
    XCTAssertFalse(present(source).isRefreshing)
  }

  func testAPolicyLoaderShowsTheWaitOfItsPolicy() async throws {
    let connectivity = Connectivity(isOnline: false)
    let loader = BlockLoader<[Int]> { [3] }.with(.waitsForNetwork(connectivity))
    let source = LoadingSource(loader: loader, loadOnAppear: true)
    source.appear()
    try await connectivity.waiters(count: 1)
    assertShows(present(source), .loading, waiting: true, "PolicyLoader")
    connectivity.goOnline()
    try await StateRecorder(loader).wait(until: \.isLoaded)
    assertShows(present(source), .content([3]), waiting: false, "PolicyLoader")
  }

  func testASharedEntryOfAStoreWithConnectivityShowsTheWait() async throws {
    let connectivity = Connectivity(isOnline: false)
    let store = LoaderStore(connectivity: connectivity)
    let entry = store.loader(for: ["feed"]) { [4] }  // waits by default in this store
    let source = LoadingSource(loader: entry, loadOnAppear: true)
    source.appear()
    try await connectivity.waiters(count: 1)
    assertShows(present(source), .loading, waiting: true, "SharedLoader")
    connectivity.goOnline()
    await entry.load()  // joins the running fetch
    assertShows(present(source), .content([4]), waiting: false, "SharedLoader")
  }

  func testARetryOverAnErrorKeepsTheErrorWhileItWaits() async throws {
    let connectivity = Connectivity(isOnline: false)
    let loader = BlockLoader<[Int]>(
      state: .error(TestError()), policy: .waitsForNetwork(connectivity)
    ) { [5] }
    let source = LoadingSource(loader: loader, loadOnAppear: false)
    source.retry()
    try await connectivity.waiters(count: 1)
    let waiting = present(source)
    assertShows(waiting, .failure(retryButton: false), waiting: true, "a retry")
    XCTAssertTrue(waiting.isRefreshing)
    connectivity.goOnline()
    try await StateRecorder(loader).wait(until: \.isLoaded)
    assertShows(present(source), .content([5]), waiting: false, "a retry")
  }

  func testALoaderOfYourOwnReportsItsWaitOrByDefaultNone() async throws {
    let connectivity = Connectivity(isOnline: false)
    let inner = BlockLoader<[Int]>(policy: .waitsForNetwork(connectivity)) { [6] }
    let reporting = ReportingLoader(inner)
    let silent = ForwardingLoader(inner)  // implements no isWaitingForNetwork
    let load = Task { _ = await inner.load() }
    try await connectivity.waiters(count: 1)
    assertShows(
      present(LoadingSource(loader: reporting, loadOnAppear: false)), .loading, waiting: true,
      "a loader that reports its wait")
    assertShows(
      present(LoadingSource(loader: silent, loadOnAppear: false)), .loading, waiting: false,
      "the default")
    connectivity.goOnline()
    await load.value
    assertShows(
      present(LoadingSource(loader: reporting, loadOnAppear: false)), .content([6]),
      waiting: false, "a loader that reports its wait")
  }

  // MARK: - @Loadable (LoadingView's binding form)

  func testALoadableBindingShowsTheWaitOfTheViewsLoad() async throws {
    let connectivity = Connectivity(isOnline: false)
    @Loadable var numbers: LoadableState<[Int]>
    let source = LoadingSource(
      binding: $numbers, policy: .retry(maxAttempts: 2).waitsForNetwork(connectivity),
      fetch: { [7] }, loadOnAppear: true)
    source.appear()
    try await connectivity.waiters(count: 1)
    let waiting = present(source)
    assertShows(waiting, .loading, waiting: true, "@Loadable")
    XCTAssertEqual(waiting.attempt?.number, 1)
    XCTAssertEqual(waiting.progressText, "Waiting for the network", "the first attempt is named")
    connectivity.goOnline()
    try await StateRecorder($numbers).wait(until: \.isLoaded)
    assertShows(present(source), .content([7]), waiting: false, "@Loadable")
  }

  func testALoadableBindingsSilentRefreshKeepsItsValueWhileItWaits() async throws {
    let connectivity = Connectivity(isOnline: false)
    @Loadable var numbers: LoadableState<[Int]> = .loaded([1])
    let source = LoadingSource(
      binding: $numbers, policy: .waitsForNetwork(connectivity), fetch: { [8] },
      loadOnAppear: true)
    source.appear()  // loaded: nothing to do
    XCTAssertFalse($numbers.isRunning)
    source.retry()  // a silent load, as a pull to refresh runs
    try await connectivity.waiters(count: 1)
    assertShows(present(source), .content([1]), waiting: true, "@Loadable refresh")
    XCTAssertTrue(present(source).isRefreshing)
    connectivity.goOnline()
    try await StateRecorder($numbers).wait(until: { $0 == .loaded([8]) })
    assertShows(present(source), .content([8]), waiting: false, "@Loadable refresh")
  }

  // MARK: - Key paths and @Process (LoadingPresentation from the form's own flags)

  func testALoadableSupportKeyPathShowsTheWait() async throws {
    let connectivity = Connectivity(isOnline: false)
    let model = WaitingFeedModel()
    func presentation() -> LoadingPresentation<[Int]> {
      LoadingPresentation(
        state: model.feed, isRunning: model.handle(\.feed).isRunning,
        isWaitingForNetwork: model.handle(\.feed).isWaitingForNetwork, canRetry: true)
    }
    let load: Task<Void, Never> = model.load(\.feed, policy: .waitsForNetwork(connectivity)) { [9] }
    try await connectivity.waiters(count: 1)
    assertShows(presentation(), .loading, waiting: true, "LoadableSupport")
    connectivity.goOnline()
    await load.value
    assertShows(presentation(), .content([9]), waiting: false, "LoadableSupport")
  }

  func testAProcessOverAStoresItemsKeepsThemWhileItsRefreshWaits() async throws {
    let connectivity = Connectivity(isOnline: false)
    let screen = WaitingStoreScreen()
    func presentation() -> LoadingPresentation<[Int]> {
      LoadingPresentation(
        items: screen.items, phase: screen.refreshing, isRunning: screen.$refreshing.isRunning,
        isWaitingForNetwork: screen.$refreshing.isWaitingForNetwork, canRetry: true)
    }
    let first: Task<Void, Never> = screen.$refreshing.run(1, policy: .waitsForNetwork(connectivity))
    {
      screen.items = [1]
    }
    try await connectivity.waiters(count: 1)
    assertShows(presentation(), .loading, waiting: true, "@Process, first request")
    connectivity.goOnline()
    await first.value
    assertShows(presentation(), .content([1]), waiting: false, "@Process, first request")

    connectivity.goOffline()
    let refresh: Task<Void, Never> = screen.$refreshing.run(
      2, silently: true, policy: .waitsForNetwork(connectivity)
    ) {
      screen.items = [1, 2]
    }
    try await connectivity.waiters(count: 1)
    assertShows(presentation(), .content([1]), waiting: true, "@Process, refresh")
    XCTAssertTrue(presentation().isRefreshing)
    connectivity.goOnline()
    await refresh.value
    assertShows(presentation(), .content([1, 2]), waiting: false, "@Process, refresh")
  }

  func testAProcessButtonSaysItsJobWaitsForTheNetwork() async throws {
    let connectivity = Connectivity(isOnline: false)
    let screen = WaitingStoreScreen()
    func title() -> String {
      ProcessButtonPresentation(
        state: screen.refreshing, process: 1, isRunning: screen.$refreshing.isRunning,
        isWaitingForNetwork: screen.$refreshing.isWaitingForNetwork
      ).title(ready: "Save", running: "Saving…", waiting: "Waiting for the network")
    }
    let save: Task<Void, Never> = screen.$refreshing.run(
      1, policy: .waitsForNetwork(connectivity)
    ) {
      screen.items = [4]
    }
    try await connectivity.waiters(count: 1)
    XCTAssertEqual(title(), "Waiting for the network")
    connectivity.goOnline()
    await save.value
    XCTAssertEqual(title(), "Save")
    XCTAssertEqual(screen.items, [4])
  }

  func testAProcessSupportKeyPathShowsTheWait() async throws {
    let connectivity = Connectivity(isOnline: false)
    let model = WaitingStoreModel()
    func presentation() -> LoadingPresentation<[Int]> {
      LoadingPresentation(
        items: model.items, phase: model.refreshing,
        isRunning: model.handle(\.refreshing).isRunning,
        isWaitingForNetwork: model.handle(\.refreshing).isWaitingForNetwork, canRetry: true)
    }
    let run: Task<Void, Never> = model.run(
      \.refreshing, as: 1, policy: .waitsForNetwork(connectivity)
    ) {
      model.items = [3]
    }
    try await connectivity.waiters(count: 1)
    assertShows(presentation(), .loading, waiting: true, "ProcessSupport")
    connectivity.goOnline()
    await run.value
    assertShows(presentation(), .content([3]), waiting: false, "ProcessSupport")
  }
}

@MainActor
private final class WaitingFeedModel: LoadableSupport {
  var feed: LoadableState<[Int]> = .absent
}

@MainActor
private final class WaitingStoreModel: ProcessSupport {
  var items: [Int] = []
  var refreshing: ProcessState<Int> = .idle
}

@MainActor
private final class WaitingStoreScreen {
  var items: [Int] = []
  @LoadableProcess var refreshing: ProcessState<Int>
}

/// A loader of an app's own that forwards everything, its wait for the network included.
@MainActor
private final class ReportingLoader<Inner: Loader>: Loader {
  let inner: Inner

  init(_ inner: Inner) { self.inner = inner }

  var state: LoadableState<Inner.Value> { inner.state }
  var states: StateStream<LoadableState<Inner.Value>> { inner.states }
  var isRunning: Bool { inner.isRunning }
  var progress: LoadingProgress? { inner.progress }
  var attempt: RetryAttempt? { inner.attempt }
  var isWaitingForNetwork: Bool { inner.isWaitingForNetwork }
  func load(silently: Bool) async -> LoadableState<Inner.Value> {
    await inner.load(silently: silently)
  }
  func cancel() { inner.cancel() }
  func reset() { inner.reset() }
  func fetch() async throws -> Inner.Value { try await inner.fetch() }
}

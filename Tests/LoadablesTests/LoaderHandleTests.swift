import Loadables
import LoadablesTesting
import XCTest

/// Every loader object and shared entry hands out the same `LoadHandle`, and it behaves the
/// same in each: a start shows `.loading` and `isRunning`, `cancel()` brings back what the
/// load replaced, a later load lands, and `StateRecorder` takes the handle.
@MainActor
final class LoaderHandleTests: XCTestCase {
  /// Fetches that wait, one gate per call, so a test holds each in turn.
  @MainActor
  private final class Fetches {
    let gates = [Gate<Int>(), Gate<Int>()]
    private(set) var count = 0
    func next() async throws -> Int {
      count += 1
      return try await gates[min(count, gates.count) - 1].pass()
    }
  }

  /// The one behaviour every value form shows through its handle.
  private func checkHandle(
    _ handle: LoadHandle<LoadableState<Int>>, fetches: Fetches,
    start: () -> Task<Void, Never>, form: String
  ) async throws {
    XCTAssertEqual(handle.state, .absent, form)
    XCTAssertFalse(handle.isRunning, form)
    let recorder = StateRecorder(handle)
    defer { recorder.stop() }

    _ = start()
    await fetches.gates[0].arrival()
    XCTAssertTrue(handle.isRunning, "\(form): not running while its fetch waits")
    XCTAssertEqual(handle.state, .loading, form)
    XCTAssertNil(handle.attempt, form)
    XCTAssertFalse(handle.isWaitingForNetwork, form)
    handle.cancel()
    XCTAssertEqual(handle.state, .absent, "\(form): cancel did not bring back .absent")
    XCTAssertFalse(handle.isRunning, "\(form): still running after cancel")

    let task = start()
    await fetches.gates[1].arrival()
    fetches.gates[1].open(7)
    await task.value
    try await recorder.wait(until: { $0 == .loaded(7) })
    XCTAssertEqual(handle.state, .loaded(7), form)
    XCTAssertFalse(handle.isRunning, form)
    XCTAssertNil(handle.refreshError, form)
    XCTAssertEqual(
      recorder.states, [.absent, .loading, .absent, .loading, .loaded(7)],
      "\(form): the recorder saw another sequence")
    XCTAssertEqual(fetches.count, 2, form)
  }

  func testABlockLoaderHandsOutTheHandle() async throws {
    let fetches = Fetches()
    let loader = BlockLoader { try await fetches.next() }
    try await checkHandle(
      loader.handle, fetches: fetches, start: { loader.start() }, form: "BlockLoader")
    XCTAssertEqual(loader.state, .loaded(7))
    XCTAssertFalse(loader.isRunning, "the loader's isRunning is not its handle's")
  }

  func testASharedLoaderHandsOutTheHandle() async throws {
    let fetches = Fetches()
    let store = LoaderStore(clock: ManualClock())
    let entry = store.loader(for: ["number"]) { try await fetches.next() }
    try await checkHandle(
      entry.handle, fetches: fetches, start: { entry.start() }, form: "SharedLoader")
    XCTAssertEqual(entry.state, .loaded(7))
    XCTAssertFalse(entry.isRunning)
  }

  func testALoaderOfYourOwnHandsOutAHandleThatReadsItsMembers() async throws {
    let fetches = Fetches()
    let loader = ForwardingLoader(BlockLoader { try await fetches.next() })
    try await checkHandle(
      loader.handle, fetches: fetches, start: { loader.start() }, form: "ForwardingLoader")
    // Members it does not implement take their defaults, without reading the handle back.
    XCTAssertFalse(loader.isWaitingForNetwork)
    XCTAssertNil(loader.refreshError)
  }

  func testStateRecorderTakesASharedEntryAndAPagedEntry() async throws {
    let store = LoaderStore(clock: ManualClock())
    let post = store.loader(for: ["post"]) { 1 }
    let recorder = StateRecorder(post)
    await post.load()
    try await recorder.wait(until: { $0 == .loaded(1) })
    XCTAssertEqual(recorder.states, [.absent, .loading, .loaded(1)])
    XCTAssertEqual(post.observerCount, 0, "recording counted as observing")
    recorder.stop()

    let source = PagedSource<Int, Int>(first: 0) { page in
      Page(items: [page], next: page < 1 ? page + 1 : nil)
    }
    let feed = store.pagedLoader(for: ["feed"], source: source)
    let pages = StateRecorder(feed)
    await feed.load()
    await feed.loadNextPage()
    try await pages.wait(until: { $0.items == [0, 1] })
    XCTAssertEqual(pages.states.first?.items, [])
    pages.stop()
  }

  func testEveryPagedFormHandsOutTheSameHandleWithIsRefreshing() async throws {
    // The first two fetches (a first load of each form) wait at `gate`, the next two (a
    // refresh of each) at `refreshGate`.
    let gate = Gate<Page<Int, Int>>()
    let refreshGate = Gate<Page<Int, Int>>()
    var fetches = 0
    let source = PagedSource<Int, Int>(first: 0) { _ in
      fetches += 1
      return try await (fetches <= 2 ? gate : refreshGate).passIgnoringCancellation()
    }
    let store = LoaderStore(clock: ManualClock())
    let entry = store.pagedLoader(for: ["feed"], source: source)
    let loader = PagedLoader(source: source)
    let handles: [(LoadHandle<PagedState<Int, Int>>, String)] = [
      (entry.handle, "SharedPagedLoader"), (loader.handle, "PagedLoader"),
    ]
    let loads: [Task<Void, Never>] = [Task { await entry.load() }, Task { await loader.load() }]
    await gate.arrival(count: 2)
    for (handle, form) in handles {
      XCTAssertTrue(handle.isRunning, form)
      XCTAssertFalse(handle.isRefreshing, "\(form): a first load is not a refresh")
    }
    gate.open(Page(items: [1], next: nil))
    for load in loads { await load.value }
    for (handle, form) in handles {
      XCTAssertFalse(handle.isRunning, form)
      XCTAssertEqual(handle.state.items, [1], form)
    }
    // A refresh of a loaded list keeps it on screen and shows as isRefreshing, read on the
    // form itself as on its handle.
    let refresh = Task { await loader.refresh() }
    let entryRefresh = Task { _ = await entry.refresh() }
    await refreshGate.arrival(count: 2)
    XCTAssertTrue(loader.isRefreshing)
    XCTAssertTrue(entry.isRefreshing)
    XCTAssertTrue(entry.handle.isRefreshing)
    XCTAssertEqual(entry.state.items, [1], "a refresh took the list off screen")
    refreshGate.open(Page(items: [2], next: nil))
    await refresh.value
    await entryRefresh.value
    XCTAssertEqual(loader.state.items, [2])
    XCTAssertEqual(entry.state.items, [2])
    XCTAssertFalse(entry.isRefreshing)
  }

  func testStartingAnEntryJoinsTheRunningFetchAndAFreshValueFetchesNothing() async throws {
    let gate = Gate<Int>()
    var fetches = 0
    let store = LoaderStore(clock: ManualClock())
    let entry = store.loader(for: ["number"], staleTime: .seconds(60)) {
      fetches += 1
      return try await gate.pass()
    }
    let first = entry.start()
    let second = entry.start()
    XCTAssertEqual(entry.state, .loading, "start returned before its load started")
    await gate.arrival()
    gate.open(3)
    await first.value
    await second.value
    XCTAssertEqual(entry.state, .loaded(3))
    await entry.start().value
    XCTAssertEqual(fetches, 1, "a joined or fresh start fetched again")
  }
}

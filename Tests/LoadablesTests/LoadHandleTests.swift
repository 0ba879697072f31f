import Loadables
import LoadablesTesting
import XCTest

/// Every local form hands out the same ``LoadHandle``, which behaves the same in each.
@MainActor
final class LoadHandleTests: XCTestCase {
  func testEveryLocalFormHandsOutTheSameHandleWithTheSameBehaviour() async throws {
    @Loadable var numbers: LoadableState<[Int]> = .loaded([0])
    try await checkHandle(
      $numbers.handle, form: "@Loadable",
      start: { gate in $numbers.start { try await gate.pass() } },
      isStarted: \.isLoading, isReset: \.isAbsent)

    @LoadableProcess var saving: ProcessState<Int>
    try await checkHandle(
      $saving.handle, form: "@Process",
      start: { gate in $saving.start(1) { _ = try await gate.pass() } },
      isStarted: \.isRunning, isReset: \.isIdle)

    @Paged var feed: PagedState<Int, Int>
    try await checkHandle(
      $feed.handle, form: "@Paged",
      start: { gate in $feed.load(from: .numbered(pageSize: 2) { _, _ in try await gate.pass() }) },
      isStarted: \.list.isLoading, isReset: \.list.isAbsent)

    let model = HandleModel()
    try await checkHandle(
      model.handle(\.numbers), form: "LoadableSupport",
      start: { gate in model.start(\.numbers) { try await gate.pass() } },
      isStarted: \.isLoading, isReset: \.isAbsent)
    try await checkHandle(
      model.handle(\.saving), form: "ProcessSupport",
      start: { gate in model.start(\.saving, as: 1) { _ = try await gate.pass() } },
      isStarted: \.isRunning, isReset: \.isIdle)
    try await checkHandle(
      model.handle(\.feed), form: "LoadableSupport, paged",
      start: { gate in
        model.load(\.feed, from: .numbered(pageSize: 2) { _, _ in try await gate.pass() })
      },
      isStarted: \.list.isLoading, isReset: \.list.isAbsent)
  }

  func testTheBindingForwardsItsHandlesMembers() async throws {
    @Loadable var numbers: LoadableState<[Int]>
    let gate = Gate<[Int]>()
    let task = $numbers.start { try await gate.pass() }
    await gate.arrival()
    XCTAssertTrue($numbers.isRunning)
    XCTAssertEqual($numbers.isRunning, $numbers.handle.isRunning)
    gate.open([1])
    await task.value
    XCTAssertFalse($numbers.isRunning)
    XCTAssertEqual(numbers, .loaded([1]))
  }

  func testStartNeverWaitsInsideAsyncCodeInEveryForm() async throws {
    // Inside async code `load(policy:)` resolves to the awaited overload; `start` returns
    // while the load still runs.
    @Loadable var numbers: LoadableState<[Int]>
    let gate = Gate<[Int]>()
    let task = $numbers.start(policy: .retry(maxAttempts: 2)) { try await gate.pass() }
    XCTAssertTrue($numbers.isRunning, "start waited for the load")
    XCTAssertTrue(numbers.isLoading)
    await gate.arrival()
    gate.open([1])
    await task.value
    XCTAssertEqual(numbers, .loaded([1]))

    @LoadableProcess var saving: SingleProcessState
    let saved = Gate<Void>()
    let job = $saving.start(policy: .retry(maxAttempts: 2)) { try await saved.pass() }
    XCTAssertTrue($saving.isRunning, "start waited for the job")
    await saved.arrival()
    saved.open()
    await job.value
    XCTAssertTrue(saving.hasFinished)

    let model = HandleModel()
    let fetched = Gate<[Int]>()
    let load = model.start(\.numbers, policy: .retry(maxAttempts: 2)) { try await fetched.pass() }
    XCTAssertTrue(model.handle(\.numbers).isRunning, "start waited for the key-path load")
    await fetched.arrival()
    fetched.open([2])
    await load.value
    XCTAssertEqual(model.numbers, .loaded([2]))
  }

  func testAKeyPathHandleSeesLoadsStartedAfterItWasMade() async throws {
    let model = HandleModel()
    let handle = model.handle(\.numbers)
    XCTAssertFalse(handle.isRunning)
    let gate = Gate<[Int]>()
    let task: Task<Void, Never> = model.load(\.numbers) { try await gate.pass() }
    await gate.arrival()
    XCTAssertTrue(handle.isRunning, "the handle did not find the key path's new load")
    XCTAssertTrue(handle.state.isLoading)
    gate.open([1])
    await task.value
    XCTAssertFalse(handle.isRunning)
    XCTAssertEqual(handle.state, .loaded([1]))
  }

  func testAKeyPathHandleHoldsItsOwnerWeakly() async {
    var model: HandleModel? = HandleModel()
    model?.numbers = .loaded([1])
    let handle = model!.handle(\.numbers)
    XCTAssertEqual(handle.state, .loaded([1]))
    weak let gone = model
    model = nil
    XCTAssertNil(gone, "the handle kept its owner alive")
    XCTAssertEqual(handle.state, .absent)
    XCTAssertFalse(handle.isRunning)
    handle.cancel()
    handle.reset()
    var states = handle.states.makeAsyncIterator()
    let first = await states.next()
    XCTAssertEqual(first, .absent, "a gone owner's stream starts elsewhere")
  }

  func testAPagedHandleTellsARefreshFromAFirstLoad() async throws {
    @Paged var feed: PagedState<Int, Int>
    await $feed.load(from: .numbered(pageSize: 2) { _, _ in [1, 2] })
    let gate = Gate<[Int]>()
    let refresh: Task<Void, Never> = $feed.refresh(
      from: .numbered(pageSize: 2) { _, _ in try await gate.pass() })
    await gate.arrival()
    XCTAssertTrue($feed.isRefreshing)
    XCTAssertTrue($feed.handle.isRefreshing)
    gate.open([3, 4])
    await refresh.value
    XCTAssertFalse($feed.isRefreshing)

    let model = HandleModel()
    let first = Gate<[Int]>()
    let load: Task<Void, Never> = model.load(
      \.feed, from: .numbered(pageSize: 2) { _, _ in try await first.pass() })
    await first.arrival()
    XCTAssertTrue(model.handle(\.feed).isRunning)
    XCTAssertFalse(model.handle(\.feed).isRefreshing, "a first load is not a refresh")
    first.open([1, 2])
    await load.value
    let again = Gate<[Int]>()
    let reload: Task<Void, Never> = model.refresh(
      \.feed, from: .numbered(pageSize: 2) { _, _ in try await again.pass() })
    await again.arrival()
    XCTAssertTrue(model.handle(\.feed).isRefreshing)
    again.open([5, 6])
    await reload.value
    XCTAssertEqual(model.feed.items, [5, 6])
  }

  /// Starts a load through `start`, then checks the handle's status, `cancel()` and
  /// `reset()` — the same steps for every form.
  private func checkHandle<State>(
    _ handle: LoadHandle<State>,
    form: String,
    start: (Gate<[Int]>) -> Task<Void, Never>,
    isStarted: (State) -> Bool,
    isReset: (State) -> Bool
  ) async throws {
    let gate = Gate<[Int]>()
    let first = start(gate)
    await gate.arrival()
    XCTAssertTrue(handle.isRunning, "\(form): not running")
    XCTAssertTrue(isStarted(handle.state), "\(form): no start written: \(handle.state)")
    handle.cancel()
    await first.value
    XCTAssertFalse(handle.isRunning, "\(form): still running after cancel()")
    XCTAssertFalse(isStarted(handle.state), "\(form): cancel() left \(handle.state)")

    let again = Gate<[Int]>()
    let second = start(again)
    await again.arrival()
    handle.reset()
    await second.value
    XCTAssertFalse(handle.isRunning, "\(form): still running after reset()")
    XCTAssertTrue(isReset(handle.state), "\(form): reset() left \(handle.state)")
  }
}

@MainActor
private final class HandleModel: LoadableSupport, ProcessSupport {
  var numbers: LoadableState<[Int]> = .absent
  var saving: ProcessState<Int> = .idle
  var feed = PagedState<Int, Int>()
}

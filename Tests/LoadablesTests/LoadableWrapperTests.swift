import Loadables
import LoadablesTesting
import Observation
import XCTest

/// The `@Loadable` wrapper against the engine contract in DESIGN.md.
@MainActor
final class LoadableWrapperTests: XCTestCase {
  // MARK: - Start and finish

  func testLoadWritesLoadingThenLoaded() async {
    @Loadable var numbers: LoadableState<[Int]>
    let gate = Gate<[Int]>()
    XCTAssertEqual(numbers, .absent)

    let task: Task<Void, Never> = $numbers.load { try await gate.pass() }
    XCTAssertEqual(numbers, .loading)
    XCTAssertTrue($numbers.isRunning)

    gate.open([1, 2, 3])
    await task.value
    XCTAssertEqual(numbers, .loaded([1, 2, 3]))
    XCTAssertFalse($numbers.isRunning)
  }

  func testThrownErrorWritesError() async {
    @Loadable var numbers: LoadableState<[Int]>
    await $numbers.load { throw TestError(code: 7) }
    XCTAssertEqual(numbers, .error(TestError(code: 7)))
    XCTAssertFalse($numbers.isRunning)
  }

  func testSilentLoadKeepsTheOldValueWhileRunning() async {
    @Loadable var numbers: LoadableState<[Int]> = .loaded([1])
    let gate = Gate<[Int]>()
    let task: Task<Void, Never> = $numbers.load(silently: true) { try await gate.pass() }
    XCTAssertEqual(numbers, .loaded([1]), "a silent load replaced the value with .loading")
    XCTAssertTrue($numbers.isRunning, "isRunning must show a silent load")
    gate.open([2])
    await task.value
    XCTAssertEqual(numbers, .loaded([2]))
  }

  func testCancelLoadableRestoresTheStateAndResetLoadableResets() async {
    @Loadable var numbers: LoadableState<[Int]> = .loaded([1])
    await $numbers.load { throw CancelLoadable() }
    XCTAssertEqual(numbers, .loaded([1]), "CancelLoadable must bring back what .loading replaced")
    XCTAssertFalse($numbers.isRunning)

    numbers = .loaded([1])
    await $numbers.load(silently: true) { throw CancelLoadable() }
    XCTAssertEqual(numbers, .loaded([1]))

    await $numbers.load { throw ResetLoadable() }
    XCTAssertEqual(numbers, .absent)
  }

  func testCancellationErrorWritesNothing() async {
    @Loadable var numbers: LoadableState<[Int]> = .loaded([1])
    await $numbers.load(silently: true) { throw CancellationError() }
    XCTAssertEqual(numbers, .loaded([1]))
  }

  func testProcessControlErrorsAreOrdinaryErrorsForALoad() async {
    @Loadable var numbers: LoadableState<[Int]>
    await $numbers.load { throw CancelProcess() }
    XCTAssertEqual(numbers, .error(CancelProcess()))
  }

  // MARK: - Only the current load writes

  func testSupersededLoadThatIgnoresCancellationNeverWrites() async {
    @Loadable var numbers: LoadableState<[Int]>
    let first = Gate<[Int]>()
    let firstTask: Task<Void, Never> = $numbers.load { try await first.passIgnoringCancellation() }
    await first.arrival()

    let secondTask: Task<Void, Never> = $numbers.load { [9] }
    await secondTask.value
    XCTAssertEqual(numbers, .loaded([9]))

    first.open([1])
    await firstTask.value
    XCTAssertEqual(numbers, .loaded([9]), "a superseded load wrote its late result")
  }

  func testSupersededLoadThatIgnoresCancellationNeverWritesItsError() async {
    @Loadable var numbers: LoadableState<[Int]>
    let first = Gate<[Int]>()
    let firstTask: Task<Void, Never> = $numbers.load { try await first.passIgnoringCancellation() }
    await first.arrival()
    let second = Gate<[Int]>()
    let secondTask: Task<Void, Never> = $numbers.load { try await second.pass() }

    first.fail(TestError())
    await firstTask.value
    XCTAssertEqual(numbers, .loading, "a superseded load wrote its error over a running load")
    second.open([2])
    await secondTask.value
    XCTAssertEqual(numbers, .loaded([2]))
  }

  func testYieldsFromASupersededLoadAreDropped() async {
    @Loadable var numbers: LoadableState<[Int]>
    let gate = Gate<Void>()
    let firstTask: Task<Void, Never> = $numbers.load { yield in
      yield(.loaded([1]))
      try await gate.passIgnoringCancellation()
      yield(.loaded([1, 2]))
      yield(.error(TestError()))
    }
    await gate.arrival()
    XCTAssertEqual(numbers, .loaded([1]))

    await $numbers.load(silently: true) { [7] }
    gate.open()
    await firstTask.value
    XCTAssertEqual(numbers, .loaded([7]), "a superseded load's yield was written")
  }

  func testYieldingLoadWritesEachStateAndNothingAfterReturning() async {
    @Loadable var numbers: LoadableState<[Int]>
    let recorder = StateRecorder($numbers)
    await $numbers.load { yield in
      yield(.loaded([1]))
      yield(.loaded([1, 2]))
    }
    XCTAssertEqual(
      recorder.states, [.absent, .loading, .loaded([1]), .loaded([1, 2])],
      "returning from a yielding block must write nothing more")
    XCTAssertFalse($numbers.isRunning)
    recorder.stop()
  }

  func testYieldingLoadThatThrowsWritesError() async {
    @Loadable var numbers: LoadableState<[Int]>
    await $numbers.load { yield in
      yield(.loaded([1]))
      throw TestError(code: 2)
    }
    XCTAssertEqual(numbers, .error(TestError(code: 2)))
  }

  func testErrorOfALoadWhoseTaskWasCancelledIsNotWritten() async {
    @Loadable var numbers: LoadableState<[Int]> = .loaded([1])
    let gate = Gate<[Int]>()
    let task: Task<Void, Never> = $numbers.load(silently: true) {
      try await gate.passIgnoringCancellation()
    }
    await gate.arrival()
    task.cancel()  // the user cancels the returned task directly
    gate.fail(TestError())
    await task.value
    XCTAssertEqual(numbers, .loaded([1]), "a cancelled load wrote its error")
    XCTAssertFalse($numbers.isRunning)
  }

  // MARK: - Cancel, reset, assign

  func testCancelStopsTheLoadAndBringsBackTheStateItReplaced() async {
    @Loadable var numbers: LoadableState<[Int]>
    let gate = Gate<[Int]>()
    let task: Task<Void, Never> = $numbers.load { try await gate.pass() }
    await gate.arrival()
    $numbers.cancel()
    XCTAssertEqual(numbers, .absent, "cancel() left a spinner with nothing running")
    XCTAssertFalse($numbers.isRunning)
    XCTAssertEqual(gate.waiting, 0, "cancel() did not reach the load's block")
    gate.open([1])
    await task.value
    XCTAssertTrue(task.isCancelled, "cancel() did not cancel the load's task")
    XCTAssertEqual(numbers, .absent)
  }

  func testCancelledLoadThatIgnoresCancellationNeverWrites() async {
    @Loadable var numbers: LoadableState<[Int]>
    let gate = Gate<[Int]>()
    let task: Task<Void, Never> = $numbers.load { try await gate.passIgnoringCancellation() }
    await gate.arrival()
    $numbers.cancel()
    gate.open([1])
    await task.value
    XCTAssertEqual(numbers, .absent, "a cancelled load wrote its late result")
  }

  func testResetStopsTheLoadAndWritesAbsent() async {
    @Loadable var numbers: LoadableState<[Int]>
    let gate = Gate<[Int]>()
    let task: Task<Void, Never> = $numbers.load { try await gate.passIgnoringCancellation() }
    await gate.arrival()
    $numbers.reset()
    XCTAssertEqual(numbers, .absent)
    gate.open([1])
    await task.value
    XCTAssertEqual(numbers, .absent, "a reset load wrote its late result")
  }

  func testAssigningTheWrappedValueCancelsTheLoad() async {
    @Loadable var numbers: LoadableState<[Int]>
    let gate = Gate<[Int]>()
    let task: Task<Void, Never> = $numbers.load { try await gate.passIgnoringCancellation() }
    await gate.arrival()
    numbers = .loaded([5])
    XCTAssertFalse($numbers.isRunning)
    gate.open([1])
    await task.value
    XCTAssertTrue(task.isCancelled)
    XCTAssertEqual(numbers, .loaded([5]), "the load overwrote an assigned value")
  }

  // MARK: - Awaited loads are loads too

  func testCancelStopsAnAwaitedLoad() async {
    @Loadable var numbers: LoadableState<[Int]>
    let gate = Gate<[Int]>()
    let binding = $numbers
    let caller = Task { await binding.load { try await gate.pass() } }
    await gate.arrival()
    XCTAssertTrue($numbers.isRunning, "an awaited load is not registered")

    $numbers.cancel()
    XCTAssertEqual(gate.waiting, 0, "cancel() did not reach the awaited load's block")
    gate.open([1])  // lets a block that was not cancelled finish instead of hanging the test
    await caller.value
    XCTAssertFalse(caller.isCancelled, "stopping an awaited load cancelled its caller")
    XCTAssertEqual(numbers, .absent)
    XCTAssertFalse($numbers.isRunning)
  }

  func testNewerLoadStopsAnAwaitedLoad() async {
    @Loadable var numbers: LoadableState<[Int]>
    let gate = Gate<[Int]>()
    let binding = $numbers
    let caller = Task { await binding.load { try await gate.passIgnoringCancellation() } }
    await gate.arrival()

    await $numbers.load { [2] }
    XCTAssertEqual(numbers, .loaded([2]))
    gate.open([1])
    await caller.value
    XCTAssertFalse(caller.isCancelled, "a newer load cancelled the awaited load's caller")
    XCTAssertEqual(numbers, .loaded([2]), "a superseded awaited load wrote its result")
  }

  func testAwaitedLoadCancelsTheRunningLoad() async {
    @Loadable var numbers: LoadableState<[Int]>
    let gate = Gate<[Int]>()
    let task: Task<Void, Never> = $numbers.load { try await gate.passIgnoringCancellation() }
    await gate.arrival()
    await $numbers.load { [2] }
    XCTAssertTrue(task.isCancelled, "an awaited load did not cancel the running load")
    gate.open([1])
    await task.value
    XCTAssertEqual(numbers, .loaded([2]))
  }

  func testCancellingTheCallerCancelsAnAwaitedLoad() async {
    @Loadable var numbers: LoadableState<[Int]> = .loaded([1])
    let gate = Gate<[Int]>()
    let binding = $numbers
    let caller = Task { await binding.load(silently: true) { try await gate.pass() } }
    await gate.arrival()
    caller.cancel()
    XCTAssertEqual(gate.waiting, 0)
    gate.open([2])
    await caller.value
    XCTAssertEqual(numbers, .loaded([1]), "a cancelled awaited load wrote")
    XCTAssertFalse($numbers.isRunning)
  }

  func testAwaitedLoadInACancelledCallerDoesNotWriteItsResult() async {
    @Loadable var numbers: LoadableState<[Int]> = .loaded([1])
    let binding = $numbers
    let caller = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      await binding.load(silently: true) { [2] }
    }
    await caller.value
    XCTAssertEqual(numbers, .loaded([1]))
  }

  // MARK: - Storms

  func testTenThousandRestartsEndInTheLastValue() async {
    @Loadable var counter: LoadableState<Int>
    var tasks: [Task<Void, Never>] = []
    tasks.reserveCapacity(10_000)
    for index in 1...10_000 {
      tasks.append($counter.load { index })
    }
    for task in tasks { await task.value }
    XCTAssertEqual(counter, .loaded(10_000))
    XCTAssertFalse($counter.isRunning)
  }

  func testRestartStormWritesOnlyTheLastValue() async {
    let model = ObservedNumbers()
    let counter = ChangeCounter { _ = model.counter }
    var tasks: [Task<Void, Never>] = []
    for index in 1...1_000 {
      tasks.append(model.$counter.load { index })
    }
    for task in tasks { await task.value }
    XCTAssertEqual(model.counter, .loaded(1_000))
    XCTAssertEqual(counter.count, 2, "expected exactly .loading and the last .loaded")
  }

  // MARK: - Observation

  func testObserversAreWokenOncePerStateChange() async {
    let model = ObservedNumbers()
    let counter = ChangeCounter { _ = model.numbers }
    await model.$numbers.load { [1] }
    XCTAssertEqual(counter.count, 2, "a load must wake observers for .loading and .loaded only")

    await model.$numbers.load(silently: true) { [2] }
    XCTAssertEqual(counter.count, 3, "a silent reload must wake observers once")
  }

  func testStartingWhileLoadingDoesNotRewriteLoading() async {
    let model = ObservedNumbers()
    let gate = Gate<[Int]>()
    let first: Task<Void, Never> = model.$numbers.load { try await gate.pass() }
    let counter = ChangeCounter { _ = model.numbers }
    let second: Task<Void, Never> = model.$numbers.load { try await gate.pass() }
    XCTAssertEqual(counter.count, 0, "restarting while .loading woke observers for nothing")
    gate.open([1])
    await first.value
    await second.value
    XCTAssertEqual(counter.count, 1)
  }

  func testIsRunningIsObservable() async {
    let model = ObservedNumbers()
    let counter = ChangeCounter { _ = model.$numbers.isRunning }
    await model.$numbers.load(silently: true) { [1] }
    XCTAssertEqual(counter.count, 2, "isRunning must notify on start and on end")
  }

  func testObservationOfOneWrapperIsNotWokenByAnother() async {
    let model = ObservedNumbers()
    let counter = ChangeCounter { _ = model.numbers }
    await model.$counter.load { 1 }
    XCTAssertEqual(counter.count, 0)
  }

  // MARK: - Lifetimes

  func testReleasingTheOwnerCancelsItsLoad() async {
    var model: ObservedNumbers? = ObservedNumbers()
    weak let weakModel = model
    let gate = Gate<[Int]>()
    let task: Task<Void, Never> = model!.$numbers.load { try await gate.pass() }
    await gate.arrival()
    model = nil
    XCTAssertNil(weakModel, "a running load kept its owner alive")
    XCTAssertEqual(gate.waiting, 0, "releasing the owner did not reach the load's block")
    gate.open([1])
    await task.value
    XCTAssertTrue(task.isCancelled, "releasing the owner did not cancel its load")
  }

  func testAFinishedLoadDoesNotKeepItsOwnerAlive() async {
    var model: ObservedNumbers? = ObservedNumbers()
    weak let weakModel = model
    await model!.$numbers.load { [1] }
    model = nil
    XCTAssertNil(weakModel)
  }

  // MARK: - Bindings

  func testLoadableBindingDrivesItsParentsState() async {
    @Loadable var numbers: LoadableState<[Int]>
    let child = NumbersChild(numbers: $numbers)
    await child.refresh()
    XCTAssertEqual(numbers, .loaded([4]))
    XCTAssertEqual(child.numbers, .loaded([4]))
    child.numbers = .absent
    XCTAssertEqual(numbers, .absent)
  }

  func testConstantBindingNeverChanges() async {
    let binding = LoadableBinding<[Int]>.constant(.loaded([1]))
    var ran = false
    await binding.load {
      ran = true
      return [2]
    }
    XCTAssertTrue(ran, "a constant binding still runs the block")
    XCTAssertEqual(binding.wrappedValue, .loaded([1]))
    binding.reset()
    XCTAssertEqual(binding.wrappedValue, .loaded([1]))
  }

  // MARK: - Interrupts

  func testInterruptsFireAtAccumulatedDelays() async {
    @Loadable var numbers: LoadableState<[Int]>
    let gate = Gate<[Int]>()
    let fired = Gate<Void>()
    var delays: [Duration] = []
    let task: Task<Void, Never> = $numbers.load(
      interrupts: [.milliseconds(1), .milliseconds(2)],
      block: { try await gate.pass() },
      onInterrupt: { delay in
        delays.append(delay)
        if delays.count == 2 { fired.open() }
      }
    )
    try? await fired.pass()
    XCTAssertEqual(delays, [.milliseconds(1), .milliseconds(3)])
    XCTAssertEqual(numbers, .loading)
    gate.open([1])
    await task.value
    XCTAssertEqual(numbers, .loaded([1]))
  }

  func testThrowingInterruptEndsTheLoadAtOnce() async {
    @Loadable var numbers: LoadableState<[Int]>
    let gate = Gate<[Int]>()
    let fired = Gate<Void>()
    let task: Task<Void, Never> = $numbers.load(
      interrupts: [.milliseconds(1)],
      block: { try await gate.passIgnoringCancellation() },
      onInterrupt: { _ in
        fired.open()
        throw TimeoutError()
      }
    )
    // The handler runs on the main actor and the engine writes right after it returns, in
    // the same job; this test resumes after that job.
    try? await fired.pass()
    XCTAssertEqual(numbers, .error(TimeoutError()), "the timeout must not wait for the block")
    XCTAssertFalse($numbers.isRunning)
    XCTAssertTrue(task.isCancelled, "the timed-out block was not cancelled")
    gate.open([1])
    await task.value
    XCTAssertEqual(numbers, .error(TimeoutError()), "a timed-out load wrote its late result")
  }

  func testInterruptThatThrowsCancelLoadableLeavesTheState() async {
    @Loadable var numbers: LoadableState<[Int]> = .loaded([1])
    let gate = Gate<[Int]>()
    await $numbers.load(
      silently: true,
      interrupts: [.milliseconds(1)],
      block: { try await gate.pass() },
      onInterrupt: { _ in throw CancelLoadable() }
    )
    XCTAssertEqual(numbers, .loaded([1]))
    XCTAssertFalse($numbers.isRunning)
  }

  func testInterruptsStopWhenTheLoadEnds() async throws {
    @Loadable var numbers: LoadableState<[Int]>
    var calls = 0
    let clock = ManualClock()
    await withLoadClock(clock) {
      await $numbers.load(
        interrupts: [.seconds(1)],
        block: { [1] },
        onInterrupt: { _ in calls += 1 }
      )
    }
    XCTAssertEqual(numbers, .loaded([1]))
    clock.advance(by: .seconds(1))  // the interrupt's time comes after its load ended
    await yieldUntil { calls > 0 }
    XCTAssertEqual(calls, 0, "an interrupt fired after its load ended")
  }
}

/// An `@Observable` model whose wrappers are `@ObservationIgnored`, as the README shows.
@MainActor @Observable
final class ObservedNumbers {
  @ObservationIgnored @Loadable var numbers: LoadableState<[Int]>
  @ObservationIgnored @Loadable var counter: LoadableState<Int>
}

/// A child that receives its parent's `$numbers`, as a child view would.
@MainActor
struct NumbersChild {
  @LoadableBinding var numbers: LoadableState<[Int]>

  func refresh() async {
    await $numbers.load { [4] }
  }
}

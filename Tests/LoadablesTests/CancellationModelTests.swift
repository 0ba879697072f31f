import Loadables
import LoadablesTesting
import XCTest

/// One cancellation model for every form (DESIGN.md, rules 5 and 6): stopping a load stops
/// the load and never the caller's task, and `cancel()` never leaves a spinner with nothing
/// running.
@MainActor
final class CancellationModelTests: XCTestCase {
  // MARK: - Stopping an awaited load never cancels the caller

  func testTwoAwaitedLoadsInOneTaskWhereTheFirstIsSupersededBothBehave() async {
    @Loadable var numbers: LoadableState<[Int]>
    let binding = $numbers
    let first = Gate<[Int]>()
    let caller = Task { @MainActor () -> (Bool, LoadableState<[Int]>) in
      await binding.load { try await first.pass() }
      let cancelledAfterFirst = Task.isCancelled
      // A second awaited load in the same task must run and write as the first would have.
      await binding.load { [2] }
      return (cancelledAfterFirst, binding.wrappedValue)
    }
    await first.arrival()
    let newer: Task<Void, Never> = $numbers.load { [1] }  // supersedes the awaited load
    await newer.value
    first.open([99])  // a block that was not stopped would finish here
    let (cancelledAfterFirst, afterSecond) = await caller.value
    XCTAssertFalse(cancelledAfterFirst, "superseding an awaited load cancelled its caller")
    XCTAssertFalse(caller.isCancelled)
    XCTAssertEqual(afterSecond, .loaded([2]), "the caller's second awaited load did not write")
    XCTAssertEqual(numbers, .loaded([2]))
  }

  func testCancelAndResetOfAnAwaitedLoadLetTheCallerCarryOn() async {
    for stop in ["cancel", "reset"] {
      @Loadable var numbers: LoadableState<[Int]>
      let binding = $numbers
      let gate = Gate<[Int]>()
      let caller = Task { @MainActor () -> Bool in
        await binding.load { try await gate.pass() }
        return Task.isCancelled
      }
      await gate.arrival()
      if stop == "cancel" { $numbers.cancel() } else { $numbers.reset() }
      let cancelled = await caller.value
      XCTAssertFalse(cancelled, "\(stop)() cancelled the awaiting caller")
      XCTAssertEqual(numbers, .absent, "after \(stop)()")
    }
  }

  func testAThrowingInterruptEndsAnAwaitedLoadWithoutCancellingTheCaller() async {
    @Loadable var report: LoadableState<String>
    let binding = $report
    let gate = Gate<String>()
    let caller = Task { @MainActor () -> Bool in
      await binding.load(interrupts: [.zero]) {
        try await gate.pass()
      } onInterrupt: { _ in
        throw TimeoutError()
      }
      return Task.isCancelled
    }
    let cancelled = await caller.value
    XCTAssertFalse(cancelled, "a throwing onInterrupt cancelled the awaiting caller")
    XCTAssertEqual(report, .error(TimeoutError()))
    XCTAssertEqual(gate.waiting, 0, "the interrupted block is still waiting")
  }

  func testAwaitedKeyPathLoadAndProcessRunNeverCancelTheirCaller() async {
    let model = CancellationModel()
    let gate = Gate<[Int]>()
    let loadCaller = Task { @MainActor () -> Bool in
      await model.load(\.numbers) { try await gate.pass() }
      return Task.isCancelled
    }
    await gate.arrival()
    model.cancel(\.numbers)
    let loadCallerCancelled = await loadCaller.value
    XCTAssertFalse(loadCallerCancelled, "cancel(\\.numbers) cancelled the awaiting caller")
    XCTAssertEqual(model.numbers, .absent)

    let jobGate = Gate<Void>()
    let runCaller = Task { @MainActor () -> Bool in
      await model.run(\.saving, as: 1) { try await jobGate.pass() }
      return Task.isCancelled
    }
    await jobGate.arrival()
    await model.run(\.saving, as: 2) {}  // a newer run supersedes the awaited one
    let runCallerCancelled = await runCaller.value
    XCTAssertFalse(runCallerCancelled, "a newer run cancelled the awaited run's caller")
    XCTAssertEqual(model.saving, .finished(2))
  }

  func testCancellingTheCallerStillCancelsItsLoad() async {
    @Loadable var numbers: LoadableState<[Int]> = .loaded([1])
    let binding = $numbers
    let gate = Gate<[Int]>()
    let caller = Task { @MainActor in await binding.load { try await gate.pass() } }
    await gate.arrival()
    caller.cancel()  // SwiftUI cancels .task when the view goes away
    await caller.value
    XCTAssertEqual(gate.waiting, 0, "cancelling the caller did not cancel its load")
    XCTAssertFalse($numbers.isRunning)
    XCTAssertEqual(numbers, .loaded([1]), "the cancelled load did not bring back its value")
  }

  func testAnAwaitedLoadStartedInACancelledTaskLeavesNoSpinner() async {
    @Loadable var numbers: LoadableState<[Int]>
    let binding = $numbers
    let caller = Task { @MainActor in
      withUnsafeCurrentTask { $0?.cancel() }
      await binding.load {
        try Task.checkCancellation()
        return [1]
      }
    }
    await caller.value
    XCTAssertEqual(numbers, .absent, "a load started in a cancelled task left .loading behind")
    XCTAssertFalse($numbers.isRunning)
  }

  // MARK: - cancel() never leaves a spinner with nothing running

  func testCancelThenAppearAgainLoads() async {
    // A screen that loads only while its state is absent, as `.task` code often does.
    @Loadable var numbers: LoadableState<[Int]>
    let binding = $numbers
    func appear(_ fetch: @escaping @MainActor () async throws -> [Int]) -> Task<Void, Never> {
      Task { @MainActor in
        guard binding.wrappedValue.isAbsent else { return }
        await binding.load(block: fetch)
      }
    }
    let gate = Gate<[Int]>()
    let firstAppearance = appear { try await gate.pass() }
    await gate.arrival()
    firstAppearance.cancel()  // the view goes away
    await firstAppearance.value
    XCTAssertEqual(numbers, .absent, "the cancelled first load left the screen on .loading")

    await appear { [7] }.value  // the view comes back
    XCTAssertEqual(numbers, .loaded([7]), "the screen never loaded again")
  }

  func testACancelledReloadNeverLosesTheValueItReplaced() async {
    @Loadable var numbers: LoadableState<[Int]> = .loaded([1])
    let gate = Gate<[Int]>()
    let task: Task<Void, Never> = $numbers.load { try await gate.passIgnoringCancellation() }
    await gate.arrival()
    XCTAssertEqual(numbers, .loading)
    $numbers.cancel()
    XCTAssertEqual(numbers, .loaded([1]), "cancel() lost the value the reload replaced")
    gate.open([2])
    await task.value
    XCTAssertEqual(numbers, .loaded([1]), "the cancelled reload wrote its late value")
  }

  func testCancellingARestartedLoadBringsBackWhatTheFirstSpinnerHid() async {
    @Loadable var numbers: LoadableState<[Int]> = .error(TestError(code: 1))
    let first = Gate<[Int]>()
    let second = Gate<[Int]>()
    let firstTask: Task<Void, Never> = $numbers.load { try await first.pass() }
    await first.arrival()
    let secondTask: Task<Void, Never> = $numbers.load { try await second.pass() }
    await second.arrival()
    await firstTask.value
    $numbers.cancel()
    await secondTask.value
    XCTAssertEqual(numbers, .error(TestError(code: 1)))
  }

  func testCancelNeverUndoesAWriteMadeSinceTheLoadStarted() async {
    @Loadable var numbers: LoadableState<[Int]> = .loaded([1])
    let gate = Gate<Void>()
    let task: Task<Void, Never> = $numbers.load { yield in
      yield(.loaded([1, 2]))
      try await gate.pass()
    }
    await gate.arrival()
    $numbers.cancel()
    await task.value
    XCTAssertEqual(numbers, .loaded([1, 2]), "cancel() undid a state the load yielded")
  }

  func testAKeyPathStateAssignedDuringTheLoadIsKeptByCancel() async {
    let model = CancellationModel()
    let gate = Gate<[Int]>()
    let task: Task<Void, Never> = model.load(\.numbers) { try await gate.pass() }
    await gate.arrival()
    model.numbers = .loaded([5])  // a plain assignment the library cannot see
    model.cancel(\.numbers)
    await task.value
    XCTAssertEqual(model.numbers, .loaded([5]), "cancel() overwrote the assigned value")
  }

  func testCancelAfterAnAppAssignmentAndARestartBringsBackTheAppsValue() async {
    // Issue 17, item 3: the key-path form cannot see a plain assignment. A load that
    // supersedes another passes on the state the first spinner replaced only while that
    // spinner is still shown; after the app's own write, what the new load replaced is the
    // app's value, and cancel() must bring that back, not the older state.
    let model = CancellationModel()
    model.numbers = .loaded([1])
    let first = Gate<[Int]>()
    let firstTask: Task<Void, Never> = model.load(\.numbers) { try await first.pass() }
    await first.arrival()
    XCTAssertEqual(model.numbers, .loading)
    model.numbers = .loaded([7])  // the app writes a value of its own
    let second = Gate<[Int]>()
    let secondTask: Task<Void, Never> = model.load(\.numbers) { try await second.pass() }
    await second.arrival()
    XCTAssertEqual(model.numbers, .loading)
    model.cancel(\.numbers)
    XCTAssertEqual(
      model.numbers, .loaded([7]), "cancel() brought back a state older than the app's write")
    await firstTask.value
    await secondTask.value
    XCTAssertEqual(model.numbers, .loaded([7]))
  }

  func testCancelAfterAJobAssignmentAndARestartBringsBackTheAppsState() async {
    let model = CancellationModel()
    model.saving = .finished(1)
    let first = Gate<Void>()
    let firstTask: Task<Void, Never> = model.run(\.saving, as: 2) { try await first.pass() }
    await first.arrival()
    model.saving = .failed(process: 5, error: TestError(code: 5))
    let second = Gate<Void>()
    let secondTask: Task<Void, Never> = model.run(\.saving, as: 3) { try await second.pass() }
    await second.arrival()
    XCTAssertEqual(model.saving, .running(3))
    model.cancel(\.saving)
    XCTAssertEqual(model.saving, .failed(process: 5, error: TestError(code: 5)))
    await firstTask.value
    await secondTask.value
  }

  func testCancelLoadableFromTheBlockOrAnInterruptBringsBackTheState() async {
    @Loadable var numbers: LoadableState<[Int]> = .loaded([1])
    await $numbers.load { throw CancelLoadable() }
    XCTAssertEqual(numbers, .loaded([1]))

    let gate = Gate<[Int]>()
    await $numbers.load(interrupts: [.zero]) {
      try await gate.pass()
    } onInterrupt: { _ in
      throw CancelLoadable()
    }
    XCTAssertEqual(numbers, .loaded([1]), "an interrupt's CancelLoadable left .loading")
    XCTAssertFalse($numbers.isRunning)
  }

  func testCancellingAJobBringsBackTheStateItReplaced() async {
    @LoadableProcess var saving: ProcessState<Int> = .finished(1)
    let gate = Gate<Void>()
    let task: Task<Void, Never> = $saving.run(2) { try await gate.pass() }
    await gate.arrival()
    XCTAssertEqual(saving, .running(2))
    $saving.cancel()
    XCTAssertEqual(saving, .finished(1), "cancel() left .running(2) with nothing running")
    await task.value
  }

  func testCancellingALoaderBringsBackItsValue() async {
    let gate = Gate<[Int]>()
    let loader = BlockLoader<[Int]>(state: .loaded([3])) { try await gate.pass() }
    let caller = Task { @MainActor in await loader.load() }
    await gate.arrival()
    loader.cancel()
    let state = await caller.value
    XCTAssertEqual(state, .loaded([3]))
    XCTAssertEqual(loader.state, .loaded([3]))
    XCTAssertFalse(loader.isRunning)
  }

  func testAStateStreamShowsTheSpinnerAndThenTheRestoredState() async {
    @Loadable var numbers: LoadableState<[Int]> = .loaded([1])
    let recorder = StateRecorder($numbers)
    let gate = Gate<[Int]>()
    let task: Task<Void, Never> = $numbers.load { try await gate.pass() }
    await gate.arrival()
    $numbers.cancel()
    await task.value
    XCTAssertEqual(recorder.states, [.loaded([1]), .loading, .loaded([1])])
    recorder.stop()
  }
}

@MainActor
final class CancellationModel: LoadableSupport, ProcessSupport {
  var numbers: LoadableState<[Int]> = .absent
  var saving: ProcessState<Int> = .idle
}

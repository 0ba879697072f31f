import Loadables
import XCTest

/// A child that receives its parent's `$saving`, as a child view would.
private struct SaveButton {
  @ProcessBinding var saving: SingleProcessState

  @MainActor
  func save(at gate: Gate<Void>) -> Task<Void, Never> {
    $saving.run { try await gate.pass() }
  }
}

@MainActor
final class ProcessWrapperTests: XCTestCase {
  enum Kind: Equatable, Sendable { case save, delete }

  @LoadableProcess var saving: SingleProcessState
  @LoadableProcess var action: ProcessState<Kind>

  // MARK: - Outcomes

  func testRunWritesRunningThenFinished() async {
    let gate = Gate<Void>()
    XCTAssertEqual(action, .idle)

    let task: Task<Void, Never> = $action.run(.save) { try await gate.pass() }
    XCTAssertEqual(action, .running(.save), "run did not write .running before the block ended")

    gate.open()
    await task.value
    XCTAssertEqual(action, .finished(.save), "a returning block did not write .finished")
  }

  func testThrownErrorWritesFailedWithTheKind() async {
    await $action.run(.delete) { throw TestError(code: 3) }
    XCTAssertEqual(
      action, .failed(process: .delete, error: TestError(code: 3)),
      "a thrown error did not write .failed with the kind and the error")
  }

  func testSilentRunSkipsRunning() async {
    action = .finished(.save)
    let gate = Gate<Void>()

    let task: Task<Void, Never> = $action.run(.delete, silently: true) { try await gate.pass() }
    XCTAssertEqual(action, .finished(.save), "a silent run wrote .running")
    XCTAssertTrue($action.isRunning, "isRunning is false during a silent run")

    gate.open()
    await task.value
    XCTAssertEqual(action, .finished(.delete), "a silent run did not write its outcome")
  }

  func testCancelProcessThrownFromTheBlockBringsBackTheStateItReplaced() async {
    action = .finished(.save)
    await $action.run(.delete, silently: true) { throw CancelProcess() }
    XCTAssertEqual(action, .finished(.save), "CancelProcess changed the state")

    await $action.run(.delete) { throw CancelProcess() }
    XCTAssertEqual(
      action, .finished(.save), "CancelProcess left .running(.delete) with nothing running")
    XCTAssertFalse($action.isRunning, "the cancelled job still counts as running")
  }

  func testResetProcessThrownFromTheBlockResetsToIdle() async {
    action = .finished(.save)
    await $action.run(.delete) { throw ResetProcess() }
    XCTAssertEqual(action, .idle, "ResetProcess did not reset the state to .idle")
    XCTAssertFalse($action.isRunning, "the reset job still counts as running")
  }

  // MARK: - cancel and reset

  func testCancelStopsTheJobAndBringsBackTheStateItReplaced() async {
    let gate = Gate<Void>()
    let outcome = Outcome()
    let task: Task<Void, Never> = $action.run(.save) { try await outcome.wait(at: gate) }
    await gate.arrival()

    $action.cancel()
    XCTAssertEqual(action, .idle, "cancel() left .running with nothing running")
    XCTAssertFalse($action.isRunning, "isRunning is still true after cancel()")

    gate.open()  // lets the block through if cancel() did not reach it
    await task.value
    XCTAssertTrue(outcome.sawCancellation, "cancel() did not cancel the block's task")
    XCTAssertEqual(action, .idle, "the cancelled job wrote its outcome")
  }

  func testCancelledJobIgnoringCancellationNeverWrites() async {
    let gate = Gate<Void>()
    let task: Task<Void, Never> = $action.run(.save) { try await gate.passIgnoringCancellation() }
    await gate.arrival()

    $action.cancel()
    gate.open()
    await task.value
    XCTAssertEqual(action, .idle, "a cancelled job wrote .finished when it returned")
  }

  func testResetStopsTheJobAndWritesIdle() async {
    let gate = Gate<Void>()
    let task: Task<Void, Never> = $action.run(.save) { try await gate.passIgnoringCancellation() }
    await gate.arrival()

    $action.reset()
    XCTAssertEqual(action, .idle, "reset() did not write .idle")
    XCTAssertFalse($action.isRunning, "isRunning is still true after reset()")

    gate.open()
    await task.value
    XCTAssertEqual(action, .idle, "the reset job wrote its outcome when it returned")
  }

  // MARK: - Only the current job writes

  func testSupersededRunIgnoringCancellationNeverWrites() async {
    let first = Gate<Void>()
    let firstTask: Task<Void, Never> = $action.run(.save) {
      try await first.passIgnoringCancellation()
    }
    await first.arrival()

    let secondTask: Task<Void, Never> = $action.run(.delete) {}
    await secondTask.value
    XCTAssertEqual(action, .finished(.delete))

    first.open()
    await firstTask.value
    XCTAssertEqual(action, .finished(.delete), "a superseded job wrote its late outcome")
  }

  func testSupersededRunEndingFirstDoesNotEndTheNewerRun() async {
    let first = Gate<Void>()
    let second = Gate<Void>()
    let firstTask: Task<Void, Never> = $action.run(.save) {
      try await first.passIgnoringCancellation()
    }
    await first.arrival()
    let secondTask: Task<Void, Never> = $action.run(.delete) { try await second.pass() }

    first.open()
    await firstTask.value
    XCTAssertEqual(action, .running(.delete), "the superseded job wrote over the newer one")
    XCTAssertTrue($action.isRunning, "the superseded job's end cleared the newer job's isRunning")

    second.open()
    await secondTask.value
    XCTAssertEqual(action, .finished(.delete), "the newer job did not write its outcome")
  }

  // MARK: - The awaited overload

  func testCancelStopsAnAwaitedRun() async {
    let gate = Gate<Void>()
    let outcome = Outcome()
    let caller = Task { await self.$action.run(.save) { try await outcome.wait(at: gate) } }
    await gate.arrival()
    XCTAssertTrue($action.isRunning, "an awaited run does not count as running")

    $action.cancel()
    gate.open()  // lets the block through if cancel() did not reach it
    await caller.value
    XCTAssertTrue(outcome.sawCancellation, "cancel() did not reach the awaited run")
    XCTAssertFalse(caller.isCancelled, "stopping an awaited run cancelled its caller")
    XCTAssertEqual(action, .idle, "the cancelled awaited run wrote its outcome")
    XCTAssertFalse($action.isRunning)
  }

  func testNewerRunStopsAnAwaitedRun() async {
    let gate = Gate<Void>()
    let outcome = Outcome()
    let caller = Task { await self.$action.run(.save) { try await outcome.wait(at: gate) } }
    await gate.arrival()

    let newer: Task<Void, Never> = $action.run(.delete) {}
    gate.open()  // lets the block through if the newer run did not stop it
    await caller.value
    await newer.value
    XCTAssertTrue(outcome.sawCancellation, "a newer run did not cancel the awaited run")
    XCTAssertEqual(action, .finished(.delete), "the superseded awaited run wrote its outcome")
  }

  func testCancelledAwaitedRunIgnoringCancellationNeverWrites() async {
    let gate = Gate<Void>()
    let caller = Task {
      await self.$action.run(.save) { try await gate.passIgnoringCancellation() }
    }
    await gate.arrival()

    $action.cancel()
    gate.open()
    await caller.value
    XCTAssertEqual(action, .idle, "a cancelled awaited run wrote when it returned")
  }

  // MARK: - isRunning and assignment

  func testIsRunningIsTrueOnlyWhileAJobRuns() async {
    XCTAssertFalse($action.isRunning, "isRunning before any job")
    let gate = Gate<Void>()
    let task: Task<Void, Never> = $action.run(.save) { try await gate.pass() }
    XCTAssertTrue($action.isRunning, "isRunning is false during a job")
    gate.fail(TestError())
    await task.value
    XCTAssertFalse($action.isRunning, "isRunning is still true after the job failed")

    await $action.run(.delete) {}
    XCTAssertFalse($action.isRunning, "isRunning is still true after the job finished")
  }

  func testAssigningTheWrappedValueCancelsTheRunningJob() async {
    let gate = Gate<Void>()
    let outcome = Outcome()
    let task: Task<Void, Never> = $action.run(.save) { try await outcome.wait(at: gate) }
    await gate.arrival()

    action = .finished(.delete)
    XCTAssertFalse($action.isRunning, "assigning the state did not stop the job")

    gate.open()  // lets the block through if the assignment did not cancel it
    await task.value
    XCTAssertTrue(outcome.sawCancellation, "assigning the state did not cancel the block")
    XCTAssertEqual(action, .finished(.delete), "the cancelled job wrote over the assigned state")
  }

  // MARK: - Bindings

  func testConstantBindingNeverChanges() async {
    let binding = Process<Kind>.Binding.constant(.finished(.save))
    var ran = 0

    await binding.run(.delete) { ran += 1 }
    XCTAssertEqual(binding.wrappedValue, .finished(.save), "a constant binding wrote .finished")

    await binding.run(.delete) {
      ran += 1
      throw TestError()
    }
    XCTAssertEqual(binding.wrappedValue, .finished(.save), "a constant binding wrote .failed")

    let task: Task<Void, Never> = binding.run(.delete) { ran += 1 }
    await task.value
    XCTAssertEqual(binding.wrappedValue, .finished(.save), "a constant binding changed")
    XCTAssertEqual(ran, 3, "a constant binding's run did not run its block")

    binding.wrappedValue = .idle
    binding.reset()
    XCTAssertEqual(binding.wrappedValue, .finished(.save), "assignment or reset() changed it")
  }

  func testProcessBindingInAChildDrivesTheSameState() async {
    let child = SaveButton(saving: $saving)
    let gate = Gate<Void>()

    let task = child.save(at: gate)
    XCTAssertTrue(saving.isRunning, "the child's run did not write the parent's state")
    XCTAssertTrue($saving.isRunning, "the parent does not see the child's job as running")
    let running = saving.process

    gate.open()
    await task.value
    XCTAssertTrue(saving.hasFinished, "the child's job did not finish in the parent's state")
    XCTAssertEqual(saving.process, running, "finished another SingleProcess than it started")
    XCTAssertEqual(child.saving, saving, "the child reads another state than the parent")

    child.saving = .idle
    XCTAssertEqual(saving, .idle, "assigning through the child did not reach the parent")
  }

  func testParentCancelReachesAChildsRun() async {
    let child = SaveButton(saving: $saving)
    let gate = Gate<Void>()
    let task = child.save(at: gate)
    await gate.arrival()

    $saving.cancel()
    XCTAssertFalse(child.$saving.isRunning, "the parent's cancel() did not reach the child's job")
    gate.open()
    await task.value
    XCTAssertTrue(saving.isIdle, "the child's cancelled job wrote its outcome")
  }

  // MARK: - SingleProcess overloads

  func testSingleProcessRunsUseAFreshProcessEachCall() async {
    await $saving.run {}
    let first = saving
    await $saving.run {}
    let second = saving
    XCTAssertTrue(first.hasFinished && second.hasFinished)
    XCTAssertNotEqual(first, second, "two awaited runs finished with the same SingleProcess")

    let task: Task<Void, Never> = $saving.run {}
    await task.value
    XCTAssertTrue(saving.hasFinished)
    XCTAssertNotEqual(saving, second, "a Task run reused the previous SingleProcess")
  }

  func testSingleProcessRunFinishesTheProcessItStarted() async {
    let gate = Gate<Void>()
    let task: Task<Void, Never> = $saving.run { try await gate.pass() }
    guard case .running(let process) = saving else {
      return XCTFail("run did not write .running, got \(saving.debugDescription)")
    }
    gate.open()
    await task.value
    XCTAssertEqual(saving, .finished(process), "finished another SingleProcess than it started")
  }
}

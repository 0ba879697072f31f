import Loadables
import XCTest

@MainActor
final class ProcessSupportTests: XCTestCase {
  enum Kind: Equatable, Sendable { case save, delete }

  @MainActor
  final class Editor: ProcessSupport {
    var saving: SingleProcessState = .idle
    var action: ProcessState<Kind> = .idle
  }

  // MARK: - Outcomes

  func testRunSingleProcessWritesRunningThenFinished() async {
    let editor = Editor()
    let gate = Gate<Void>()

    let task: Task<Void, Never> = editor.run(\.saving) { try await gate.pass() }
    guard case .running(let process) = editor.saving else {
      return XCTFail("run(\\.saving) did not write .running, got \(editor.saving.debugDescription)")
    }
    XCTAssertTrue(editor.handle(\.saving).isRunning, "isRunning(\\.saving) is false during the job")

    gate.open()
    await task.value
    XCTAssertEqual(editor.saving, .finished(process), "the job did not finish the process it ran")
    XCTAssertFalse(editor.handle(\.saving).isRunning, "isRunning(\\.saving) is still true after")
  }

  func testSingleProcessRunsUseAFreshProcessEachCall() async {
    let editor = Editor()
    await editor.run(\.saving) {}
    let first = editor.saving
    let task: Task<Void, Never> = editor.run(\.saving) {}
    await task.value
    XCTAssertTrue(first.hasFinished && editor.saving.hasFinished)
    XCTAssertNotEqual(editor.saving, first, "two runs finished with the same SingleProcess")
  }

  func testRunAsKindWritesRunningThenFinished() async {
    let editor = Editor()
    let gate = Gate<Void>()

    let task: Task<Void, Never> = editor.run(\.action, as: .delete) { try await gate.pass() }
    XCTAssertEqual(editor.action, .running(.delete), "run(_:as:) did not write .running(kind)")

    gate.open()
    await task.value
    XCTAssertEqual(editor.action, .finished(.delete), "run(_:as:) did not write .finished(kind)")
  }

  func testThrownErrorWritesFailed() async {
    let editor = Editor()
    await editor.run(\.action, as: .delete) { throw TestError(code: 4) }
    XCTAssertEqual(
      editor.action, .failed(process: .delete, error: TestError(code: 4)),
      "a thrown error did not write .failed with the kind and the error")
    XCTAssertFalse(editor.handle(\.action).isRunning)
  }

  func testSilentRunSkipsRunning() async {
    let editor = Editor()
    editor.action = .finished(.save)
    let gate = Gate<Void>()

    let task: Task<Void, Never> = editor.run(\.action, as: .delete, silently: true) {
      try await gate.pass()
    }
    XCTAssertEqual(editor.action, .finished(.save), "a silent run wrote .running")
    XCTAssertTrue(editor.handle(\.action).isRunning, "isRunning is false during a silent run")

    gate.open()
    await task.value
    XCTAssertEqual(editor.action, .finished(.delete))
  }

  func testCancelProcessThrownFromTheBlockBringsBackTheStateItReplaced() async {
    let editor = Editor()
    await editor.run(\.action, as: .delete) { throw CancelProcess() }
    XCTAssertEqual(editor.action, .idle, "CancelProcess left a spinner with nothing running")
    XCTAssertFalse(editor.handle(\.action).isRunning, "the cancelled job still counts as running")
  }

  func testResetProcessThrownFromTheBlockResetsToIdle() async {
    let editor = Editor()
    editor.action = .finished(.save)
    await editor.run(\.action, as: .delete) { throw ResetProcess() }
    XCTAssertEqual(editor.action, .idle, "ResetProcess did not reset the state")
    XCTAssertFalse(editor.handle(\.action).isRunning)
  }

  // MARK: - cancel and reset

  func testCancelStopsTheJobAndBringsBackTheStateItReplaced() async {
    let editor = Editor()
    let gate = Gate<Void>()
    let outcome = Outcome()
    let task: Task<Void, Never> = editor.run(\.action, as: .save) {
      try await outcome.wait(at: gate)
    }
    await gate.arrival()

    editor.cancel(\.action)
    XCTAssertEqual(editor.action, .idle, "cancel(_:) left .running with nothing running")
    XCTAssertFalse(editor.handle(\.action).isRunning, "isRunning is still true after cancel(_:)")

    gate.open()  // lets the block through if cancel(_:) did not reach it
    await task.value
    XCTAssertTrue(outcome.sawCancellation, "cancel(_:) did not cancel the block's task")
    XCTAssertEqual(editor.action, .idle, "the cancelled job wrote its outcome")
  }

  func testResetStopsTheJobAndWritesIdle() async {
    let editor = Editor()
    let gate = Gate<Void>()
    let task: Task<Void, Never> = editor.run(\.action, as: .save) {
      try await gate.passIgnoringCancellation()
    }
    await gate.arrival()

    editor.reset(\.action)
    XCTAssertEqual(editor.action, .idle, "reset(_:) did not write .idle")
    XCTAssertFalse(editor.handle(\.action).isRunning, "isRunning is still true after reset(_:)")

    gate.open()
    await task.value
    XCTAssertEqual(editor.action, .idle, "the reset job wrote its outcome when it returned")
  }

  func testResetWithoutAJobWritesIdle() {
    let editor = Editor()
    editor.action = .finished(.save)
    editor.reset(\.action)
    XCTAssertEqual(editor.action, .idle, "reset(_:) without a running job did not write .idle")
  }

  // MARK: - One slot per instance

  func testTwoInstancesRunningAtOnceNeverCancelEachOther() async {
    let first = Editor()
    let second = Editor()
    let firstGate = Gate<Void>()
    let secondGate = Gate<Void>()

    let firstTask: Task<Void, Never> = first.run(\.action, as: .save) {
      try await firstGate.pass()
    }
    await firstGate.arrival()
    let secondTask: Task<Void, Never> = second.run(\.action, as: .delete) {
      try await secondGate.pass()
    }
    await secondGate.arrival()
    XCTAssertTrue(first.handle(\.action).isRunning, "starting the second editor stopped the first")

    firstGate.open()
    await firstTask.value
    XCTAssertEqual(
      first.action, .finished(.save),
      "the first editor's job was cancelled by the second editor's (slots are shared)")
    XCTAssertEqual(second.action, .running(.delete), "the first editor wrote the second's state")
    XCTAssertTrue(second.handle(\.action).isRunning, "the first editor's end stopped the second")

    secondGate.open()
    await secondTask.value
    XCTAssertEqual(second.action, .finished(.delete), "the second editor did not finish")
    XCTAssertEqual(first.action, .finished(.save), "the second editor wrote the first's state")
  }

  func testCancelOnOneInstanceLeavesTheOtherRunning() async {
    let first = Editor()
    let second = Editor()
    let gate = Gate<Void>()
    let firstTask: Task<Void, Never> = first.run(\.saving) { try await gate.pass() }
    let secondTask: Task<Void, Never> = second.run(\.saving) { try await gate.pass() }
    await gate.arrival(count: 2)

    second.cancel(\.saving)
    XCTAssertTrue(first.handle(\.saving).isRunning, "cancelling one editor stopped the other")
    gate.open()
    await firstTask.value
    await secondTask.value
    XCTAssertTrue(first.saving.hasFinished, "the other editor's job did not finish")
    XCTAssertTrue(second.saving.isIdle, "the cancelled editor's job wrote its outcome")
  }

  // MARK: - Only the current job writes, and stays reachable

  func testCancelReachesTheJobAfterARestart() async {
    let editor = Editor()
    let firstGate = Gate<Void>()
    let secondGate = Gate<Void>()
    let outcome = Outcome()

    let firstTask: Task<Void, Never> = editor.run(\.saving) {
      try await firstGate.passIgnoringCancellation()
    }
    await firstGate.arrival()
    let secondTask: Task<Void, Never> = editor.run(\.saving) {
      try await outcome.wait(at: secondGate)
    }
    await secondGate.arrival()
    let running = editor.saving

    firstGate.open()
    await firstTask.value
    XCTAssertEqual(editor.saving, running, "the superseded job wrote over the newer one")
    XCTAssertTrue(
      editor.handle(\.saving).isRunning, "the superseded job's clean-up ended the newer job's run")
    XCTAssertNil(outcome.error, "the superseded job's clean-up cancelled the newer job")

    editor.cancel(\.saving)
    secondGate.open()  // lets the block through if cancel(_:) did not reach it
    await secondTask.value
    XCTAssertTrue(
      outcome.sawCancellation,
      "cancel(_:) no longer reaches the job after a restart (old clean-up removed its entry)")
    XCTAssertEqual(editor.saving, .idle, "the cancelled newer job wrote its outcome")
    _ = running
  }

  func testSupersededRunIgnoringCancellationNeverWrites() async {
    let editor = Editor()
    let gate = Gate<Void>()
    let firstTask: Task<Void, Never> = editor.run(\.action, as: .save) {
      try await gate.passIgnoringCancellation()
    }
    await gate.arrival()

    let secondTask: Task<Void, Never> = editor.run(\.action, as: .delete) {}
    await secondTask.value
    XCTAssertEqual(editor.action, .finished(.delete))

    gate.open()
    await firstTask.value
    XCTAssertEqual(editor.action, .finished(.delete), "a superseded job wrote its late outcome")
  }

  // MARK: - The awaited overload

  func testAwaitedRunCancelsThePreviousTaskRun() async {
    let editor = Editor()
    let gate = Gate<Void>()
    let outcome = Outcome()
    let previous: Task<Void, Never> = editor.run(\.action, as: .save) {
      try await outcome.wait(at: gate)
    }
    await gate.arrival()

    await editor.run(\.action, as: .delete) {}
    XCTAssertEqual(editor.action, .finished(.delete))

    gate.open()  // lets the previous block through if the awaited run did not cancel it
    await previous.value
    XCTAssertTrue(outcome.sawCancellation, "the awaited run did not cancel the previous run")
    XCTAssertEqual(editor.action, .finished(.delete), "the previous run wrote its late outcome")
  }

  func testCancelStopsAnAwaitedRun() async {
    let editor = Editor()
    let gate = Gate<Void>()
    let outcome = Outcome()
    let caller = Task { await editor.run(\.saving) { try await outcome.wait(at: gate) } }
    await gate.arrival()
    let running = editor.saving
    XCTAssertTrue(editor.handle(\.saving).isRunning, "an awaited run does not count as running")

    editor.cancel(\.saving)
    gate.open()  // lets the block through if cancel(_:) did not reach it
    await caller.value
    XCTAssertTrue(outcome.sawCancellation, "cancel(_:) did not reach the awaited run")
    XCTAssertEqual(editor.saving, .idle, "the cancelled awaited run wrote its outcome")
    _ = running
    XCTAssertFalse(editor.handle(\.saving).isRunning)
  }

  // MARK: - isRunning and lifetimes

  func testIsRunningIsTrueOnlyWhileAJobRuns() async {
    let editor = Editor()
    XCTAssertFalse(editor.handle(\.saving).isRunning, "isRunning before any job")
    let gate = Gate<Void>()
    let task: Task<Void, Never> = editor.run(\.saving, silently: true) { try await gate.pass() }
    XCTAssertTrue(editor.handle(\.saving).isRunning, "isRunning is false during a silent job")
    XCTAssertFalse(editor.handle(\.action).isRunning, "another key path reports the job as its own")
    gate.fail(TestError())
    await task.value
    XCTAssertTrue(editor.saving.hasFailed)
    XCTAssertFalse(editor.handle(\.saving).isRunning, "isRunning is still true after the job failed")
  }

  func testRunningJobDoesNotKeepTheEditorAlive() async {
    let gate = Gate<Void>()
    var editor: Editor? = Editor()
    weak let weakEditor = editor
    let task: Task<Void, Never> = editor!.run(\.saving) { try await gate.pass() }
    await gate.arrival()

    editor = nil
    XCTAssertNil(weakEditor, "a running job kept its owner alive")
    gate.open()
    await task.value
  }
}

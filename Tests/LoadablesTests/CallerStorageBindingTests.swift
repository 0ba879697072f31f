import LoadablesTesting
import XCTest

@testable import Loadables

// `Loadable.Binding(state:task:)` and `Process.Binding(state:task:)`, Processed's bindings
// over a caller's own state and task storage. Their public faces take two SwiftUI bindings
// (Apple-only; type-checked by `.ci/swiftui-check` in Tests/SwiftUIStandIn/ClientUsage.swift)
// and only wrap them in the four accessors that `init(caller:)` takes; these tests drive that
// initialiser with accessors over a container like the one Processed's own tests use.

/// A caller's storage: a state whose every write is recorded, and a task.
@MainActor
private final class Storage<State> {
  var task: Task<Void, Never>?
  var state: State { didSet { history.append(state) } }
  private(set) var history: [State]

  init(_ state: State) {
    self.state = state
    history = [state]
  }

  func caller() -> CallerStorage<State> {
    CallerStorage(
      state: { self.state }, setState: { self.state = $0 },
      task: { self.task }, setTask: { self.task = $0 })
  }
}

@MainActor
final class CallerStorageBindingTests: XCTestCase {
  func testALoadWritesThroughTheCallersStateAndKeepsItsTaskInTheCallersStorage() async {
    let storage = Storage<LoadableState<Int>>(.absent)
    let binding = Loadable<Int>.Binding(caller: storage.caller())
    let gate = Gate<Int>()

    let task: Task<Void, Never> = binding.load { try await gate.pass() }
    XCTAssertEqual(storage.task, task, "the load's task is not in the caller's storage")
    XCTAssertEqual(binding.wrappedValue, .loading)
    XCTAssertTrue(binding.isRunning)
    gate.open(42)
    await task.value

    XCTAssertEqual(storage.history, [.absent, .loading, .loaded(42)])
  }

  // Processed's LoadableTests.testBasic, testRunSilently and testMultipleYielding: awaited
  // loads, which keep no task in the caller's storage.
  func testAwaitedLoadsWriteThroughTheCallersStateAndKeepNoTask() async {
    let storage = Storage<LoadableState<Int>>(.absent)
    let binding = Loadable<Int>.Binding(caller: storage.caller())

    await binding.load { 42 }
    await binding.load(silently: true) { 43 }
    await binding.load { yield in
      yield(.loaded(1))
      yield(.loaded(2))
    }

    XCTAssertEqual(
      storage.history,
      [.absent, .loading, .loaded(42), .loaded(43), .loading, .loaded(1), .loaded(2)])
    XCTAssertNil(storage.task)
  }

  func testALoadCancelsTheTaskTheCallersStorageHolds() async {
    let storage = Storage<LoadableState<Int>>(.absent)
    let held = Gate<Void>()
    let foreign = Task { _ = try? await held.pass() }
    storage.task = foreign

    let binding = Loadable<Int>.Binding(caller: storage.caller())
    await binding.load { 1 }

    XCTAssertTrue(foreign.isCancelled, "a load left the task the caller's storage held running")
    await foreign.value
  }

  func testABindingMadeAgainOverTheStorageIsTheRunningLoadsBinding() async throws {
    let storage = Storage<LoadableState<Int>>(.loaded(1))
    let gate = Gate<Int>()
    let task: Task<Void, Never> = Loadable<Int>.Binding(caller: storage.caller()).load {
      try await gate.pass()
    }
    await gate.arrival()

    // A view's next `body` makes the binding again.
    let again = Loadable<Int>.Binding(caller: storage.caller())
    XCTAssertTrue(again.isRunning, "the binding made again does not see the running load")
    again.cancel()
    XCTAssertFalse(again.isRunning)
    XCTAssertNil(storage.task, "cancel() left the task in the caller's storage")
    await task.value

    // The cancel brought back what the load replaced; the cancelled load wrote nothing.
    XCTAssertEqual(storage.history, [.loaded(1), .loading, .loaded(1)])
  }

  func testASupersededLoadNeverWritesThroughABindingMadeAgain() async throws {
    let storage = Storage<LoadableState<Int>>(.absent)
    let first = Gate<Int>()
    let second = Gate<Int>()
    let old: Task<Void, Never> = Loadable<Int>.Binding(caller: storage.caller()).load {
      try await first.passIgnoringCancellation()
    }
    await first.arrival()
    let new: Task<Void, Never> = Loadable<Int>.Binding(caller: storage.caller()).load {
      try await second.pass()
    }
    XCTAssertEqual(storage.task, new)

    first.open(1)
    await old.value
    second.open(2)
    await new.value

    XCTAssertEqual(storage.history, [.absent, .loading, .loaded(2)])
  }

  func testResetAndAssignmentCancelTheTaskTheCallersStorageHoldsAndEmptyIt() async {
    let storage = Storage<LoadableState<Int>>(.absent)
    let binding = Loadable<Int>.Binding(caller: storage.caller())
    let gate = Gate<Int>()

    let task: Task<Void, Never> = binding.load { try await gate.pass() }
    binding.reset()
    XCTAssertTrue(task.isCancelled)
    XCTAssertNil(storage.task)
    await task.value

    let next: Task<Void, Never> = binding.load { try await gate.pass() }
    binding.wrappedValue = .loaded(7)
    XCTAssertTrue(next.isCancelled)
    XCTAssertNil(storage.task)
    await next.value

    XCTAssertEqual(storage.history, [.absent, .loading, .absent, .loading, .loaded(7)])
  }

  func testTheBindingReadsWhatTheCallerWroteItself() {
    let storage = Storage<LoadableState<Int>>(.absent)
    let binding = Loadable<Int>.Binding(caller: storage.caller())

    storage.state = .loaded(5)

    XCTAssertEqual(binding.wrappedValue, .loaded(5))
  }

  func testStatesStreamStartsFromTheCallersState() async throws {
    let storage = Storage<LoadableState<Int>>(.loaded(3))
    let binding = Loadable<Int>.Binding(caller: storage.caller())
    let recorder = StateRecorder(binding.handle)

    await binding.load { 4 }
    try await recorder.wait(until: { $0 == .loaded(4) })

    XCTAssertEqual(recorder.states, [.loaded(3), .loading, .loaded(4)])
  }

  // Processed's ProcessTests.testBasic, through a `Task`-returning run.
  func testAProcessBindingRunsThroughTheCallersStateAndTaskStorage() async {
    let storage = Storage<ProcessState<SingleProcess>>(.idle)
    let binding = Loadables.Process<SingleProcess>.Binding(caller: storage.caller())
    let gate = Gate<Void>()
    let process = SingleProcess()

    let task: Task<Void, Never> = binding.run(process) { try await gate.pass() }
    XCTAssertEqual(storage.task, task)
    gate.open()
    await task.value

    XCTAssertEqual(storage.history, [.idle, .running(process), .finished(process)])
  }

  func testAProcessBindingMadeAgainCancelsTheRunningJob() async {
    let storage = Storage<ProcessState<SingleProcess>>(.idle)
    let gate = Gate<Void>()
    let task: Task<Void, Never> = Loadables.Process<SingleProcess>.Binding(caller: storage.caller())
      .run {
        try await gate.pass()
      }
    await gate.arrival()

    Loadables.Process<SingleProcess>.Binding(caller: storage.caller()).cancel()
    await task.value

    XCTAssertEqual(storage.history.count, 3)
    XCTAssertEqual(storage.history.last, .idle, "cancel() left the job's spinner on screen")
    XCTAssertNil(storage.task)
  }
}

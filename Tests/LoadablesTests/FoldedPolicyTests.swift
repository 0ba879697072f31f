import Loadables
import LoadablesTesting
import XCTest

/// The `Task`-returning `load`/`run` of `@Loadable` and `@Process` are Processed's, with
/// `policy:` folded in as a defaulted parameter: Processed's calls compile and run as before,
/// a policy goes beside Processed's arguments, and `start` runs the same load.
@MainActor
final class FoldedPolicyTests: XCTestCase {
  enum Job: Equatable, Sendable { case save }

  func testTheTaskReturningLoadRunsItsBlockUnderThePolicyBesideProcessedArguments() async {
    @Loadable var count: LoadableState<Int>
    let recorder = StateRecorder($count)
    let task: Task<Void, Never> = $count.load(
      silently: false, policy: Self.plusOne(), priority: .userInitiated
    ) { 1 }
    await task.value
    XCTAssertEqual(
      recorder.states, [.absent, .loading, .loaded(2)], "the policy did not wrap the block")
    recorder.stop()
  }

  func testProcessedTaskReturningLoadStillRunsWithoutAPolicy() async {
    @Loadable var count: LoadableState<Int>
    let recorder = StateRecorder($count)
    let task: Task<Void, Never> = $count.load(silently: false, priority: nil) { 1 }
    await task.value
    let silent: Task<Void, Never> = $count.load(silently: true) { 3 }
    await silent.value
    XCTAssertEqual(recorder.states, [.absent, .loading, .loaded(1), .loaded(3)])
    recorder.stop()
  }

  func testStartAndTheTaskReturningLoadRunTheSameLoad() async {
    @Loadable var started: LoadableState<Int>
    @Loadable var loaded: LoadableState<Int>
    let startedStates = StateRecorder($started)
    let loadedStates = StateRecorder($loaded)
    await $started.start(silently: true, policy: Self.plusOne()) { 1 }.value
    let task: Task<Void, Never> = $loaded.load(silently: true, policy: Self.plusOne()) { 1 }
    await task.value
    XCTAssertEqual(startedStates.states, [.absent, .loaded(2)])
    XCTAssertEqual(loadedStates.states, startedStates.states, "start and load differ")
    startedStates.stop()
    loadedStates.stop()
  }

  func testTheTaskReturningRunTakesAPolicyInBothProcessForms() async {
    @LoadableProcess var action: ProcessState<Job>
    @LoadableProcess var saving: SingleProcessState
    var runs = 0
    let counting = LoadPolicy<Void>.around("count") { operation in
      runs += 1
      try await operation()
    }
    let actionRecorder = StateRecorder($action)
    let savingRecorder = StateRecorder($saving)
    let first: Task<Void, Never> = $action.run(.save, policy: counting, priority: nil) {}
    await first.value
    let second: Task<Void, Never> = $saving.run(silently: false, policy: counting) {}
    await second.value
    let plain: Task<Void, Never> = $saving.run(silently: true, priority: nil) {}
    await plain.value
    XCTAssertEqual(runs, 2, "a policy passed to the Task-returning run did not wrap its block")
    XCTAssertEqual(actionRecorder.states, [.idle, .running(.save), .finished(.save)])
    XCTAssertEqual(
      savingRecorder.states.count, 4,
      "expected idle, running, finished, then the silent run's finished; saw \(savingRecorder.states)"
    )
    actionRecorder.stop()
    savingRecorder.stop()
  }

  /// A policy that adds one to what the block returns.
  private static func plusOne() -> LoadPolicy<Int> {
    .around("plusOne") { operation in try await operation() + 1 }
  }
}

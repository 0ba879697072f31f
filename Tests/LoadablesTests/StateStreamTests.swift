import Loadables
import XCTest

@MainActor
final class StateStreamTests: XCTestCase {
  func testEveryObserverGetsTheCurrentStateThenEveryWriteInOrder() async {
    @Loadable var numbers: LoadableState<[Int]> = .loaded([0])
    let first = collect(4, from: $numbers.states)
    let second = collect(4, from: $numbers.states)
    await $numbers.load { yield in
      yield(.loaded([1]))
      yield(.loaded([1, 2]))
    }
    let expected: [LoadableState<[Int]>] = [.loaded([0]), .loading, .loaded([1]), .loaded([1, 2])]
    let firstStates = await first.value
    let secondStates = await second.value
    XCTAssertEqual(firstStates, expected)
    XCTAssertEqual(secondStates, expected, "a second observer saw something else")
  }

  func testALateObserverStartsFromTheLatestState() async {
    @Loadable var numbers: LoadableState<[Int]>
    await $numbers.load { [1] }
    let late = collect(2, from: $numbers.states)
    $numbers.reset()
    let states = await late.value
    XCTAssertEqual(states, [.loaded([1]), .absent])
  }

  func testKeyPathStatesIncludeProcessRuns() async {
    let editor = StreamEditor()
    let observed = collect(3, from: editor.handle(\.saving).states)
    await editor.run(\.saving) {}
    let states = await observed.value
    XCTAssertTrue(states[0].isIdle)
    XCTAssertTrue(states[1].isRunning)
    XCTAssertTrue(states[2].hasFinished)
  }

  func testAWrapperProcessStreamsToo() async {
    @LoadableProcess var saving: SingleProcessState
    let observed = collect(3, from: $saving.states)
    await $saving.run { throw TestError() }
    let states = await observed.value
    XCTAssertTrue(states[2].hasFailed)
  }

  func testSupersededWritesNeverReachTheStream() async {
    @Loadable var numbers: LoadableState<[Int]>
    let observed = collect(4, from: $numbers.states)
    let gate = Gate<[Int]>()
    let first: Task<Void, Never> = $numbers.load { try await gate.passIgnoringCancellation() }
    await gate.arrival()
    await $numbers.load { [2] }
    gate.open([1])
    await first.value
    numbers = .absent  // the fourth state; a stale [1] would have come before it
    let states = await observed.value
    XCTAssertEqual(states, [.absent, .loading, .loaded([2]), .absent])
  }

  private func collect<State: Sendable>(_ count: Int, from states: StateStream<State>)
    -> Task<[State], Never>
  {
    Task {
      var seen: [State] = []
      for await state in states {
        seen.append(state)
        if seen.count == count { break }
      }
      return seen
    }
  }
}

@MainActor
final class StreamEditor: ProcessSupport {
  var saving: SingleProcessState = .idle
}

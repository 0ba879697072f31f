import Foundation
import Loadables
import XCTest

/// An error for tests shaped like `TestError`, but of another type.
private struct OtherProcessError: Error, Equatable {
  var code = 0
}

final class ProcessStateTests: XCTestCase {
  enum Kind: Hashable, Sendable { case save, delete }

  typealias State = ProcessState<Kind>

  /// One state of each case, for tests that go through all of them.
  private let everyCase: [State] = [
    .idle, .running(.save), .failed(process: .save, error: TestError()), .finished(.save),
  ]

  // MARK: - Transitions

  func testStartRunsTheKindFromAnyState() {
    for initial in everyCase {
      var state = initial
      state.start(.delete)
      XCTAssertEqual(state, .running(.delete), "start(_:) from \(initial.debugDescription)")
    }
  }

  func testFinishTurnsTheRunningKindIntoFinished() {
    var state = State.running(.delete)
    state.finish()
    XCTAssertEqual(state, .finished(.delete), "finish() did not finish the running kind")
  }

  func testFinishDoesNothingUnlessRunning() {
    for initial in everyCase where !initial.isRunning {
      var state = initial
      state.finish()
      XCTAssertEqual(state, initial, "finish() changed \(initial.debugDescription)")
    }
  }

  func testFailTurnsTheRunningKindIntoFailed() {
    var state = State.running(.delete)
    state.fail(with: TestError(code: 3))
    XCTAssertEqual(
      state, .failed(process: .delete, error: TestError(code: 3)),
      "fail(with:) did not fail the running kind with the error")
  }

  func testFailDoesNothingUnlessRunning() {
    for initial in everyCase where !initial.isRunning {
      var state = initial
      state.fail(with: TestError(code: 99))
      XCTAssertEqual(state, initial, "fail(with:) changed \(initial.debugDescription)")
    }
  }

  func testResetGoesIdleFromAnyState() {
    for initial in everyCase {
      var state = initial
      state.reset()
      XCTAssertEqual(state, .idle, "reset() from \(initial.debugDescription)")
    }
  }

  // MARK: - Setters

  func testSettersReplaceAnyStateWithTheirCase() {
    for initial in everyCase {
      var state = initial
      state.setIdle()
      XCTAssertEqual(state, .idle, "setIdle() from \(initial.debugDescription)")
      state = initial
      state.setRunning(.delete)
      XCTAssertEqual(state, .running(.delete), "setRunning(_:) from \(initial.debugDescription)")
      state = initial
      state.setFailed(.delete, error: TestError(code: 2))
      XCTAssertEqual(
        state, .failed(process: .delete, error: TestError(code: 2)),
        "setFailed(_:error:) from \(initial.debugDescription)")
      state = initial
      state.setFinished(.delete)
      XCTAssertEqual(state, .finished(.delete), "setFinished(_:) from \(initial.debugDescription)")
    }
  }

  func testSingleProcessStartAndSetRunningUseAFreshProcess() {
    var state = SingleProcessState.idle
    state.start()
    let first = state
    XCTAssertTrue(first.isRunning, "start() did not write .running")
    state.start()
    XCTAssertTrue(state.isRunning)
    XCTAssertNotEqual(state, first, "start() reused the previous SingleProcess")

    state.setRunning()
    XCTAssertTrue(state.isRunning, "setRunning() did not write .running")
    XCTAssertNotEqual(state.process, first.process, "setRunning() reused a SingleProcess")
  }

  func testSingleProcessSetFailedAndSetFinishedUseAFreshProcess() {
    var state = SingleProcessState.idle
    state.start()
    let running = state.process

    state.setFailed(with: TestError(code: 4))
    XCTAssertTrue(state.hasFailed, "setFailed(with:) did not write .failed")
    XCTAssertEqual(state.error as? TestError, TestError(code: 4), "setFailed(with:) lost the error")
    XCTAssertNotEqual(state.process, running, "setFailed(with:) reused the running process")

    state.setFinished()
    let finished = state
    XCTAssertTrue(finished.hasFinished, "setFinished() did not write .finished")
    state.setFinished()
    XCTAssertNotEqual(state, finished, "setFinished() reused the previous SingleProcess")
  }

  func testFinishAndFailKeepTheRunningSingleProcess() {
    var state = SingleProcessState.idle
    state.start()
    let running = state.process
    state.finish()
    XCTAssertEqual(state.process, running, "finish() replaced the running SingleProcess")

    state.start()
    let next = state.process
    state.fail(with: OpaqueError())
    XCTAssertEqual(state.process, next, "fail(with:) replaced the running SingleProcess")
  }

  // MARK: - init(initialState:)

  func testInitialStateIsKept() {
    XCTAssertEqual(State(initialState: .finished(.save)), .finished(.save))
    XCTAssertEqual(State(initialState: .idle), .idle)
    let process = SingleProcess()
    XCTAssertEqual(
      SingleProcessState(initialState: .running(process)), .running(process),
      "init(initialState:) for SingleProcess changed the state")
  }

  // MARK: - Queries

  func testEachCaseSetsExactlyItsOwnFlag() {
    let expected: [[Bool]] = [
      [true, false, false, false],
      [false, true, false, false],
      [false, false, true, false],
      [false, false, false, true],
    ]
    for (state, flags) in zip(everyCase, expected) {
      XCTAssertEqual(
        [state.isIdle, state.isRunning, state.hasFailed, state.hasFinished], flags,
        "[isIdle, isRunning, hasFailed, hasFinished] are wrong for \(state.debugDescription)")
    }
  }

  func testKindQueriesMatchBothCaseAndKind() {
    let running = State.running(.save)
    XCTAssertTrue(running.isRunning(.save))
    XCTAssertFalse(running.isRunning(.delete), "isRunning(_:) ignored the kind")
    XCTAssertFalse(running.hasFinished(.save), "hasFinished(_:) ignored the case")
    XCTAssertFalse(running.hasFailed(.save), "hasFailed(_:) ignored the case")

    let failed = State.failed(process: .save, error: TestError())
    XCTAssertTrue(failed.hasFailed(.save))
    XCTAssertFalse(failed.hasFailed(.delete), "hasFailed(_:) ignored the kind")
    XCTAssertFalse(failed.isRunning(.save), "isRunning(_:) ignored the case")

    let finished = State.finished(.save)
    XCTAssertTrue(finished.hasFinished(.save))
    XCTAssertFalse(finished.hasFinished(.delete), "hasFinished(_:) ignored the kind")
    XCTAssertFalse(finished.isRunning(.save), "isRunning(_:) ignored the case")

    XCTAssertFalse(State.idle.isRunning(.save) || State.idle.hasFailed(.save))
    XCTAssertFalse(State.idle.hasFinished(.save), "an idle state reports a kind")
  }

  func testProcessIsTheKindOfEveryCaseButIdle() {
    XCTAssertNil(State.idle.process, "an idle state has a process")
    XCTAssertEqual(State.running(.delete).process, .delete)
    XCTAssertEqual(State.failed(process: .delete, error: TestError()).process, .delete)
    XCTAssertEqual(State.finished(.delete).process, .delete)
  }

  func testErrorIsTheFailureErrorAndNilOtherwise() {
    let failed = State.failed(process: .save, error: TestError(code: 6))
    XCTAssertEqual(failed.error as? TestError, TestError(code: 6), "error lost the failure")
    for state in everyCase where !state.hasFailed {
      XCTAssertNil(state.error, "\(state.debugDescription) has an error")
    }
  }

  // MARK: - Equatable

  func testStatesCompareByCaseAndKind() {
    for (i, lhs) in everyCase.enumerated() {
      for (j, rhs) in everyCase.enumerated() {
        XCTAssertEqual(
          lhs == rhs, i == j, "\(lhs.debugDescription) == \(rhs.debugDescription) is wrong")
      }
    }
    XCTAssertNotEqual(State.running(.save), .running(.delete), "running kinds compared equal")
    XCTAssertNotEqual(State.finished(.save), .finished(.delete), "finished kinds compared equal")
  }

  func testFailedStatesCompareProcessAndError() {
    let failed = State.failed(process: .save, error: TestError(code: 1))
    XCTAssertEqual(
      failed, .failed(process: .save, error: TestError(code: 1)),
      "equal failures compared unequal")
    XCTAssertNotEqual(
      failed, .failed(process: .delete, error: TestError(code: 1)),
      "failures of different kinds compared equal")
    XCTAssertNotEqual(
      failed, .failed(process: .save, error: TestError(code: 2)),
      "unequal errors of one type compared equal")
    XCTAssertNotEqual(
      failed, .failed(process: .save, error: OtherProcessError(code: 1)),
      "errors of different types compared equal")
    XCTAssertNotEqual(
      State.failed(process: .save, error: OpaqueError()), failed,
      "a non-equatable error equals an equatable one")
    XCTAssertEqual(
      State.failed(process: .save, error: OpaqueError()),
      .failed(process: .save, error: OpaqueError()),
      "two errors of one non-equatable type must compare equal")
  }

  // MARK: - Hashable

  func testEqualStatesHashEquallyAndDeduplicateInASet() {
    let pairs: [(State, State)] = [
      (.idle, .idle),
      (.running(.save), .running(.save)),
      (.finished(.delete), .finished(.delete)),
      (
        .failed(process: .save, error: TestError(code: 1)),
        .failed(process: .save, error: TestError(code: 1))
      ),
      (
        .failed(process: .save, error: OpaqueError()), .failed(process: .save, error: OpaqueError())
      ),
    ]
    for (lhs, rhs) in pairs {
      XCTAssertEqual(
        lhs.hashValue, rhs.hashValue, "equal states \(lhs.debugDescription) hash differently")
    }

    let states: Set<State> = [
      .idle, .idle, .running(.save), .running(.save), .running(.delete), .finished(.save),
      .failed(process: .save, error: TestError(code: 1)),
      .failed(process: .save, error: TestError(code: 1)),
      .failed(process: .save, error: TestError(code: 2)),
      .failed(process: .delete, error: TestError(code: 1)),
      .failed(process: .save, error: OpaqueError()),
    ]
    XCTAssertEqual(states.count, 8, "the set kept duplicates or merged distinct states")
    XCTAssertTrue(states.contains(.failed(process: .save, error: TestError(code: 2))))
    XCTAssertFalse(
      states.contains(.failed(process: .save, error: OtherProcessError(code: 1))),
      "the set matched an error of another type")
  }

  // MARK: - debugDescription

  func testDebugDescriptionNamesTheCaseKindAndError() {
    XCTAssertEqual(State.idle.debugDescription, "idle")
    let running = State.running(.save).debugDescription
    XCTAssertTrue(running.hasPrefix("running(") && running.contains("save"), running)
    let finished = State.finished(.delete).debugDescription
    XCTAssertTrue(finished.hasPrefix("finished(") && finished.contains("delete"), finished)
    let failed = State.failed(process: .delete, error: TestError(code: 3)).debugDescription
    XCTAssertTrue(failed.hasPrefix("failed("), failed)
    XCTAssertTrue(failed.contains("delete"), "the kind is missing from \(failed)")
    XCTAssertTrue(failed.contains("TestError(code: 3)"), "the error is missing from \(failed)")
  }

  // MARK: - SingleProcess

  func testEverySingleProcessIsDistinct() {
    let processes = (0..<100).map { _ in SingleProcess() }
    XCTAssertEqual(Set(processes).count, 100, "two SingleProcess() compared equal")
    XCTAssertEqual(Set(processes.map(\.id)).count, 100, "two SingleProcess() share an id")
    XCTAssertNotEqual(
      SingleProcessState.finished(SingleProcess()), .finished(SingleProcess()),
      "two runs' finished states compared equal")
  }

  func testSingleProcessWithTheSameIDAndDateAreEqual() {
    let date = Date(timeIntervalSince1970: 1_000)
    let lhs = SingleProcess(id: "save", initializedAt: date)
    let rhs = SingleProcess(id: "save", initializedAt: date)
    XCTAssertEqual(lhs.id, "save", "the id was not kept")
    XCTAssertEqual(lhs.initializedAt, date, "the date was not kept")
    XCTAssertEqual(lhs, rhs, "two SingleProcess with one id and date compared unequal")
    XCTAssertEqual(lhs.hashValue, rhs.hashValue, "equal SingleProcess hash differently")
    XCTAssertNotEqual(
      lhs, SingleProcess(id: "other", initializedAt: date), "different ids compared equal")
    XCTAssertNotEqual(
      lhs, SingleProcess(id: "save", initializedAt: date.addingTimeInterval(1)),
      "different dates compared equal")
  }

  func testSingleProcessDeduplicatesInASet() {
    let date = Date(timeIntervalSince1970: 0)
    let set: Set<SingleProcess> = [
      SingleProcess(id: "a", initializedAt: date),
      SingleProcess(id: "a", initializedAt: date),
      SingleProcess(id: "b", initializedAt: date),
    ]
    XCTAssertEqual(set.count, 2, "the set kept a duplicate SingleProcess or merged two")
    XCTAssertTrue(set.contains(SingleProcess(id: "b", initializedAt: date)))
  }
}

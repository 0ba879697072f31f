import Loadables
import XCTest

/// An error of another type than `TestError`, with the same shape.
private struct OtherTestError: Error, Equatable {
  var code = 0
}

private enum Job: Equatable, Sendable {
  case save
  case delete
}

final class FailureTransitionTests: XCTestCase {
  // MARK: - Which states hold a failure

  func testOnlyTheErrorCaseOfALoadableStateHoldsAFailure() {
    XCTAssertNil(LoadableState<Int>.absent.failure, ".absent holds a failure")
    XCTAssertNil(LoadableState<Int>.loading.failure, ".loading holds a failure")
    XCTAssertNil(LoadableState<Int>.loaded(1).failure, ".loaded holds a failure")
    let failure = LoadableState<Int>.error(TestError(code: 7)).failure
    XCTAssertEqual(failure?.error as? TestError, TestError(code: 7), "the failure lost its error")
  }

  func testOnlyTheFailedCaseOfAProcessStateHoldsAFailure() {
    XCTAssertNil(ProcessState<Job>.idle.failure, ".idle holds a failure")
    XCTAssertNil(ProcessState<Job>.running(.save).failure, ".running holds a failure")
    XCTAssertNil(ProcessState<Job>.finished(.save).failure, ".finished holds a failure")
    let failure = ProcessState<Job>.failed(process: .delete, error: TestError()).failure
    XCTAssertEqual(failure?.process, .delete, "the failure lost which job failed")
    XCTAssertTrue(failure?.error is TestError, "the failure lost its error")
  }

  // MARK: - Equality

  func testFailuresCompareTheirErrorsLikeLoadableStateDoes() {
    XCTAssertEqual(LoadableFailure(TestError(code: 1)), LoadableFailure(TestError(code: 1)))
    XCTAssertNotEqual(
      LoadableFailure(TestError(code: 1)), LoadableFailure(TestError(code: 2)),
      "equatable errors with different values compare equal")
    XCTAssertNotEqual(
      LoadableFailure(TestError()), LoadableFailure(OtherTestError()),
      "errors of different types compare equal")
    XCTAssertEqual(
      LoadableFailure(OpaqueError()), LoadableFailure(OpaqueError()),
      "two non-equatable errors of one type compare unequal, unlike in LoadableState")
  }

  func testProcessFailuresOfDifferentJobsDiffer() {
    XCTAssertEqual(
      ProcessFailure(process: Job.save, error: TestError()),
      ProcessFailure(process: Job.save, error: TestError()))
    XCTAssertNotEqual(
      ProcessFailure(process: Job.save, error: TestError()),
      ProcessFailure(process: Job.delete, error: TestError()),
      "failures of two jobs with equal errors compare equal")
  }

  // MARK: - Turning to an error

  func testTurningFromAnyOtherStateToAnErrorIsANewFailure() {
    let error = LoadableState<Int>.error(TestError())
    for before in [LoadableState<Int>.absent, .loading, .loaded(3)] {
      let reported = FailureTransition.newFailure(from: before.failure, to: error.failure)
      XCTAssertTrue(
        reported?.error is TestError, "\(before) -> .error reported \(String(describing: reported))"
      )
    }
  }

  func testStayingOnAnEqualErrorIsNotANewFailure() {
    let failure = LoadableState<Int>.error(TestError(code: 1)).failure
    XCTAssertNil(
      FailureTransition.newFailure(from: failure, to: failure),
      "a re-render showing the same error reported it again")
    XCTAssertNil(
      FailureTransition.newFailure(
        from: LoadableFailure(OpaqueError()), to: LoadableFailure(OpaqueError())),
      "an equal non-equatable error was reported again")
  }

  func testChangingToADifferentErrorIsANewFailure() {
    let reported = FailureTransition.newFailure(
      from: LoadableFailure(TestError(code: 1)), to: LoadableFailure(TestError(code: 2)))
    XCTAssertEqual(reported?.error as? TestError, TestError(code: 2))
    XCTAssertNotNil(
      FailureTransition.newFailure(
        from: LoadableFailure(TestError()), to: LoadableFailure(OtherTestError())),
      "an error of another type was not reported")
  }

  func testLeavingAnErrorIsNotAFailure() {
    for after in [LoadableState<Int>.absent, .loading, .loaded(3)] {
      XCTAssertNil(
        FailureTransition.newFailure(
          from: LoadableState<Int>.error(TestError()).failure, to: after.failure),
        ".error -> \(after) reported a failure")
    }
    XCTAssertNil(
      FailureTransition.newFailure(from: LoadableFailure?.none, to: nil),
      "no failure before or after reported one")
  }

  func testAnotherJobFailingIsANewFailure() {
    let saveFailed = ProcessState<Job>.failed(process: .save, error: TestError()).failure
    let deleteFailed = ProcessState<Job>.failed(process: .delete, error: TestError()).failure
    XCTAssertEqual(
      FailureTransition.newFailure(from: saveFailed, to: deleteFailed)?.process, .delete)
    XCTAssertNil(FailureTransition.newFailure(from: saveFailed, to: saveFailed))
    XCTAssertEqual(
      FailureTransition.newFailure(
        from: ProcessState<Job>.running(.save).failure, to: saveFailed)?.process, .save)
  }

  /// A load that fails again goes through `.loading`, so a view that renders each state
  /// reports each failure, even with equal errors.
  func testAFailedRetryThroughLoadingIsReportedAgain() {
    let states: [LoadableState<Int>] = [
      .loading, .error(TestError()), .loading, .error(TestError()), .loaded(1),
    ]
    var reported = 0
    var previous = LoadableState<Int>.absent.failure
    for state in states {
      if FailureTransition.newFailure(from: previous, to: state.failure) != nil { reported += 1 }
      previous = state.failure
    }
    XCTAssertEqual(
      reported, 2, "two failures in a row, each after .loading, were not both reported")
  }
}

import Loadables
import XCTest

/// An error for tests shaped like `TestError`, but of another type.
private struct OtherTestError: Error, Equatable {
  var code = 0
}

/// A non-equatable error of another type than `OpaqueError`.
private struct OtherOpaqueError: Error {}

private func requireSendable<T: Sendable>(_ value: T) -> T { value }

final class LoadableStateTests: XCTestCase {
  // MARK: - Flags

  func testEachCaseSetsExactlyItsOwnFlag() {
    let cases: [(state: LoadableState<Int>, flags: [Bool])] = [
      (.absent, [true, false, false, false]),
      (.loading, [false, true, false, false]),
      (.error(TestError()), [false, false, true, false]),
      (.loaded(1), [false, false, false, true]),
    ]
    for (state, flags) in cases {
      XCTAssertEqual(
        [state.isAbsent, state.isLoading, state.isError, state.isLoaded], flags,
        "[isAbsent, isLoading, isError, isLoaded] are wrong for \(state.debugDescription)")
    }
  }

  // MARK: - data and error

  func testDataIsTheLoadedValueAndNilOtherwise() {
    XCTAssertEqual(LoadableState<[Int]>.loaded([1, 2]).data, [1, 2], "data lost the loaded value")
    XCTAssertNil(LoadableState<[Int]>.absent.data, "data of .absent is not nil")
    XCTAssertNil(LoadableState<[Int]>.loading.data, "data of .loading is not nil")
    XCTAssertNil(LoadableState<[Int]>.error(TestError()).data, "data of .error is not nil")
  }

  func testErrorIsTheStoredErrorAndNilOtherwise() {
    let state = LoadableState<Int>.error(TestError(code: 4))
    XCTAssertEqual(state.error as? TestError, TestError(code: 4), "error lost the stored error")
    XCTAssertNil(LoadableState<Int>.absent.error, "error of .absent is not nil")
    XCTAssertNil(LoadableState<Int>.loading.error, "error of .loading is not nil")
    XCTAssertNil(LoadableState<Int>.loaded(1).error, "error of .loaded is not nil")
  }

  // MARK: - Setters

  func testSettersReplaceAnyStateWithTheirCase() {
    var state = LoadableState<Int>.loaded(1)
    state.setAbsent()
    XCTAssertEqual(state, .absent, "setAbsent() did not write .absent over .loaded")

    state = .error(TestError())
    state.setLoading()
    XCTAssertEqual(state, .loading, "setLoading() did not write .loading over .error")

    state = .loaded(1)
    state.setError(TestError(code: 2))
    XCTAssertEqual(state, .error(TestError(code: 2)), "setError(_:) did not store the error")

    state = .loading
    state.setValue(5)
    XCTAssertEqual(state, .loaded(5), "setValue(_:) did not store the value")

    state.setValue(6)
    XCTAssertEqual(state, .loaded(6), "setValue(_:) did not replace a loaded value")
  }

  // MARK: - map

  func testMapTransformsOnlyTheLoadedValue() {
    XCTAssertEqual(
      LoadableState<Int>.loaded(2).map { "\($0 * 10)" }, .loaded("20"),
      "map did not transform the loaded value")

    var calls = 0
    let transform: (Int) -> String = { value in
      calls += 1
      return "\(value)"
    }
    XCTAssertEqual(LoadableState<Int>.absent.map(transform), .absent, "map changed .absent")
    XCTAssertEqual(LoadableState<Int>.loading.map(transform), .loading, "map changed .loading")
    let error = LoadableState<Int>.error(TestError(code: 3)).map(transform)
    XCTAssertEqual(error.error as? TestError, TestError(code: 3), "map lost the error")
    XCTAssertEqual(calls, 0, "map called the transform for a state without a value")
  }

  func testMapRethrowsTheTransformsError() {
    XCTAssertThrowsError(
      try LoadableState<Int>.loaded(1).map { _ -> Int in throw TestError(code: 9) },
      "map swallowed the transform's error"
    ) { error in
      XCTAssertEqual(error as? TestError, TestError(code: 9), "map threw another error")
    }
    XCTAssertNoThrow(
      try LoadableState<Int>.absent.map { _ -> Int in throw TestError() },
      "map called a throwing transform for .absent")
  }

  // MARK: - compactMap

  func testCompactMapTurnsNilIntoAbsent() {
    XCTAssertEqual(
      LoadableState<[Int]>.loaded([]).compactMap(\.first), .absent,
      "compactMap did not turn a nil result into .absent")
    XCTAssertEqual(
      LoadableState<[Int]>.loaded([4, 5]).compactMap(\.first), .loaded(4),
      "compactMap did not keep a non-nil result")
  }

  func testCompactMapPassesOtherStatesThrough() {
    XCTAssertEqual(LoadableState<[Int]>.absent.compactMap(\.first), .absent)
    XCTAssertEqual(
      LoadableState<[Int]>.loading.compactMap(\.first), .loading,
      "compactMap changed .loading")
    let error = LoadableState<[Int]>.error(TestError(code: 6)).compactMap(\.first)
    XCTAssertEqual(error.error as? TestError, TestError(code: 6), "compactMap lost the error")
  }

  func testCompactMapRethrowsTheTransformsError() {
    XCTAssertThrowsError(
      try LoadableState<Int>.loaded(1).compactMap { _ -> Int? in throw TestError(code: 8) },
      "compactMap swallowed the transform's error"
    ) { error in
      XCTAssertEqual(error as? TestError, TestError(code: 8), "compactMap threw another error")
    }
  }

  // MARK: - debugDescription

  func testDebugDescriptionNamesTheCaseAndPayload() {
    XCTAssertEqual(LoadableState<Int>.absent.debugDescription, "absent")
    XCTAssertEqual(LoadableState<Int>.loading.debugDescription, "loading")
    XCTAssertEqual(LoadableState<[Int]>.loaded([1, 2, 3]).debugDescription, "loaded([1, 2, 3])")
    XCTAssertEqual(LoadableState<String>.loaded("a").debugDescription, #"loaded("a")"#)
    let error = LoadableState<Int>.error(TestError(code: 7)).debugDescription
    XCTAssertTrue(error.hasPrefix("error("), "unexpected description \(error)")
    XCTAssertTrue(error.contains("TestError(code: 7)"), "the error is missing from \(error)")
  }

  // MARK: - Equatable

  func testStatesOfDifferentCasesAreNotEqual() {
    let states: [LoadableState<Int>] = [.absent, .loading, .error(TestError()), .loaded(0)]
    for (i, lhs) in states.enumerated() {
      for (j, rhs) in states.enumerated() {
        XCTAssertEqual(
          lhs == rhs, i == j, "\(lhs.debugDescription) == \(rhs.debugDescription) is wrong")
      }
    }
    XCTAssertNotEqual(LoadableState.loaded(1), .loaded(2), "different values compared equal")
  }

  func testEqualErrorsOfOneEquatableTypeAreEqual() {
    XCTAssertEqual(
      LoadableState<Int>.error(TestError(code: 1)), .error(TestError(code: 1)),
      "two equal errors of one type compared unequal")
  }

  func testUnequalErrorsOfOneEquatableTypeAreNotEqual() {
    XCTAssertNotEqual(
      LoadableState<Int>.error(TestError(code: 1)), .error(TestError(code: 2)),
      "errors are compared by case only (Processed's defect), not by value")
  }

  func testErrorsOfDifferentTypesAreNeverEqual() {
    XCTAssertNotEqual(
      LoadableState<Int>.error(TestError(code: 0)), .error(OtherTestError(code: 0)),
      "errors of two equatable types with the same fields compared equal")
    XCTAssertNotEqual(
      LoadableState<Int>.error(TestError()), .error(OpaqueError()),
      "an equatable error equals a non-equatable one")
    XCTAssertNotEqual(
      LoadableState<Int>.error(OpaqueError()), .error(TestError()),
      "a non-equatable error equals an equatable one (comparison is not symmetric)")
    XCTAssertNotEqual(
      LoadableState<Int>.error(OpaqueError()), .error(OtherOpaqueError()),
      "errors of two non-equatable types compared equal")
    XCTAssertNotEqual(
      LoadableState<Int>.error(CancelLoadable()), .error(ResetLoadable()),
      "CancelLoadable equals ResetLoadable")
  }

  func testTwoErrorsOfOneNonEquatableTypeAreEqual() {
    XCTAssertEqual(
      LoadableState<Int>.error(OpaqueError()), .error(OpaqueError()),
      "two errors of one non-equatable type must compare equal")
  }

  // MARK: - Hashable

  func testEqualStatesHashEqually() {
    let pairs: [(LoadableState<Int>, LoadableState<Int>)] = [
      (.absent, .absent),
      (.loading, .loading),
      (.loaded(3), .loaded(3)),
      (.error(TestError(code: 1)), .error(TestError(code: 1))),
      (.error(OpaqueError()), .error(OpaqueError())),
      (.error(TimeoutError()), .error(TimeoutError())),
    ]
    for (lhs, rhs) in pairs {
      XCTAssertEqual(lhs, rhs)
      XCTAssertEqual(
        lhs.hashValue, rhs.hashValue, "equal states \(lhs.debugDescription) hash differently")
    }
  }

  func testStatesDeduplicateInASet() {
    let states: Set<LoadableState<Int>> = [
      .absent, .absent, .loading, .loaded(1), .loaded(1), .loaded(2),
      .error(TestError(code: 1)), .error(TestError(code: 1)), .error(TestError(code: 2)),
      .error(OpaqueError()), .error(OpaqueError()), .error(TimeoutError()),
    ]
    XCTAssertEqual(states.count, 8, "the set kept duplicates or merged distinct states")
    XCTAssertTrue(states.contains(.error(TestError(code: 2))), "the set lost an error state")
    XCTAssertTrue(states.contains(.error(OpaqueError())), "the set lost a non-equatable error")
    XCTAssertFalse(
      states.contains(.error(OtherTestError(code: 1))), "the set matched an error of another type"
    )
    XCTAssertFalse(states.contains(.loaded(3)), "the set matched a value it does not hold")
  }

  // MARK: - Sendable

  func testStateCrossesIntoATask() async {
    let loaded = requireSendable(LoadableState<[Int]>.loaded([1, 2]))
    let failed = requireSendable(LoadableState<[Int]>.error(TestError(code: 5)))
    let counted = await Task.detached { loaded.map(\.count) }.value
    let echoed = await Task.detached { failed }.value
    XCTAssertEqual(counted, .loaded(2), "the state changed on its way through a task")
    XCTAssertEqual(echoed, .error(TestError(code: 5)), "the error changed on its way back")
  }
}

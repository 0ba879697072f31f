import XCTest

@testable import Loadables

/// The pure step of a load's start (`LoadStartBook`), one case at a time: what a starting load
/// remembers as the state it replaces and what it writes, from the facts alone. No slot, no
/// task, no wrapper.
final class LoadStartBookTests: XCTestCase {
  typealias Start = LoadStartBook<LoadableState<Int>>
  typealias ProcessStart = LoadStartBook<ProcessState<String>>

  private func start(
    _ current: LoadableState<Int>?, silently: Bool = false, keepingValue: Bool = false,
    supersededSpinner: Bool = false
  ) -> Start {
    Start.decide(
      (), silently: silently, keepingValue: keepingValue, supersededSpinner: supersededSpinner,
      current: current)
  }

  // MARK: - A load with a spinner

  func testAFirstLoadShowsItsSpinnerAndRemembersWhatWasShown() {
    XCTAssertEqual(
      start(.absent), Start(carriesOn: false, replaced: .absent, started: .loading))
    XCTAssertEqual(
      start(.loaded(1)), Start(carriesOn: false, replaced: .loaded(1), started: .loading))
  }

  func testALoadOverASpinnerAlreadyShownWritesNone() {
    XCTAssertEqual(
      start(.loading), Start(carriesOn: false, replaced: .loading, started: nil),
      "a spinner nobody's load showed is what the load replaces, and is not written again")
  }

  func testARestartOverTheSupersededLoadsSpinnerCarriesOn() {
    XCTAssertEqual(
      start(.loading, supersededSpinner: true), .carryingOn,
      "a restart forgot what was there before the first spinner")
  }

  func testARestartAfterAWriteTheEngineDidNotSeeReplacesWhatIsShown() {
    // The superseded load's spinner was replaced by a plain assignment to the property.
    XCTAssertEqual(
      start(.loaded(2), supersededSpinner: true),
      Start(carriesOn: false, replaced: .loaded(2), started: .loading))
  }

  func testALoadWhoseOwnerIsGoneChangesNothing() {
    XCTAssertEqual(start(nil), .carryingOn)
    XCTAssertEqual(start(nil, supersededSpinner: true), .carryingOn)
  }

  func testKeepingAValueChangesNothingAtTheStartOfALoadWithASpinner() {
    XCTAssertEqual(
      start(.loaded(1), keepingValue: true),
      Start(carriesOn: false, replaced: .loaded(1), started: .loading))
  }

  // MARK: - A silent load

  func testASilentLoadWritesNothingAndRemembersNothing() {
    XCTAssertEqual(
      start(.loaded(1), silently: true), Start(carriesOn: false, replaced: nil, started: nil))
  }

  func testASilentLoadThatKeepsItsValueRemembersWhatIsShown() {
    XCTAssertEqual(
      start(.loaded(1), silently: true, keepingValue: true),
      Start(carriesOn: false, replaced: .loaded(1), started: nil))
  }

  func testASilentRestartOverTheSupersededLoadsSpinnerCarriesOn() {
    XCTAssertEqual(start(.loading, silently: true, supersededSpinner: true), .carryingOn)
    XCTAssertEqual(
      start(.loading, silently: true, keepingValue: true, supersededSpinner: true), .carryingOn)
  }

  func testASilentRestartAfterTheSpinnerWasReplacedRemembersNothing() {
    XCTAssertEqual(
      start(.loaded(2), silently: true, supersededSpinner: true),
      Start(carriesOn: false, replaced: nil, started: nil))
    XCTAssertEqual(
      start(nil, silently: true, supersededSpinner: true),
      Start(carriesOn: false, replaced: nil, started: nil), "an owner gone is nothing shown")
  }

  func testASilentLoadReadsTheStateOnlyWhenItDecidesSomethingByIt() {
    var reads = 0
    let read = { () -> LoadableState<Int>? in
      reads += 1
      return .loaded(1)
    }
    _ = Start.decide(
      (), silently: true, keepingValue: false, supersededSpinner: false, current: read())
    XCTAssertEqual(reads, 0, "a silent start that keeps no value read the state")
    _ = Start.decide(
      (), silently: true, keepingValue: true, supersededSpinner: true, current: read())
    XCTAssertEqual(reads, 1, "a silent restart read the state more than once")
  }

  // MARK: - A process

  func testAProcessShowsItsOwnKindRunning() {
    XCTAssertEqual(
      ProcessStart.decide(
        "save", silently: false, keepingValue: false, supersededSpinner: false,
        current: .running("load")),
      ProcessStart(carriesOn: false, replaced: .running("load"), started: .running("save")),
      "another kind running is not this run's start")
    XCTAssertEqual(
      ProcessStart.decide(
        "save", silently: false, keepingValue: false, supersededSpinner: true,
        current: .running("load")),
      ProcessStart(carriesOn: true, replaced: nil, started: .running("save")),
      "a restart over another kind's spinner forgot what was there before it")
    XCTAssertEqual(
      ProcessStart.decide(
        "save", silently: false, keepingValue: false, supersededSpinner: false,
        current: .running("save")),
      ProcessStart(carriesOn: false, replaced: .running("save"), started: nil))
  }
}

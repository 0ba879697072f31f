import Foundation
import XCTest

@testable import Loadables

/// The pure decision of each outbox edit's status, from facts alone: which reason applies
/// when several hold.
final class OutboxBookTests: XCTestCase {
  typealias Edit = OutboxBook.Edit
  private let later = Date(timeIntervalSince1970: 60)

  private func edit(
    _ id: String, failure: String? = nil, hasHandler: Bool = true,
    _ activity: OutboxBook.Activity = .idle
  ) -> Edit {
    Edit(id: id, failure: failure, hasHandler: hasHandler, activity: activity)
  }

  func testTheFirstEditIsReadyOnlineAndWaitsForTheNetworkOffline() {
    XCTAssertEqual(OutboxBook.statuses(of: [edit("a")], isOnline: true), [.ready])
    XCTAssertEqual(OutboxBook.statuses(of: [edit("a")], isOnline: false), [.waitingForNetwork])
  }

  func testLaterEditsWaitBehindTheEditTheLaneHolds() {
    let line = [edit("a"), edit("b", .backingOff(attempt: 2, nextTry: later)), edit("c")]
    XCTAssertEqual(
      OutboxBook.statuses(of: line, isOnline: false),
      [.waitingBehind("b"), .backingOff(attempt: 2, nextTry: later), .waitingBehind("b")])
    XCTAssertEqual(OutboxBook.head(of: line), "b")
  }

  func testAFailedEditLeavesTheLine() {
    let line = [edit("a", failure: "422"), edit("b", .sending), edit("c")]
    XCTAssertEqual(
      OutboxBook.statuses(of: line, isOnline: true),
      [.failed("422"), .sending, .waitingBehind("b")])
    XCTAssertNil(OutboxBook.head(of: [edit("a", failure: "422")]))
  }

  func testNoHandlerComesBeforeWaitingBehindAndHoldsUpItsScope() {
    let line = [edit("a", hasHandler: false), edit("b"), edit("c", hasHandler: false)]
    XCTAssertEqual(
      OutboxBook.statuses(of: line, isOnline: true),
      [.waitingForHandler, .waitingBehind("a"), .waitingForHandler])
  }

  func testAnEditThatCannotBeSavedWaitsToSave() {
    XCTAssertEqual(
      OutboxBook.statuses(
        of: [edit("a", .savingAgain(attempt: 3, nextTry: later)), edit("b")], isOnline: false),
      [.waitingToSave(attempt: 3, nextTry: later), .waitingBehind("a")])
  }
}

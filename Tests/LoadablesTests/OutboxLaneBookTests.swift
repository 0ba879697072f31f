import Foundation
import XCTest

@testable import Loadables

/// The pure decision of what a scope's lane does next, from facts alone: which applies when
/// several hold, one step at a time, without a store.
final class OutboxLaneBookTests: XCTestCase {
  typealias Head = OutboxLaneBook.Head
  private let interval = Duration.seconds(1)
  private let ready = Head(canSend: true, isSaved: true, sendsOnce: false)

  private func next(
    _ head: Head?, isOnline: Bool = true, _ sender: OutboxLaneBook.Sender = .needsNoLock,
    justLooked: Bool = false
  ) -> OutboxLaneBook.Action {
    OutboxLaneBook(head: head, isOnline: isOnline, sender: sender, justLooked: justLooked)
      .next(interval: interval)
  }

  func testAReadyEditIsSentByAStoreThatNeedsNoLock() {
    XCTAssertEqual(next(ready), .send)
  }

  func testWithNoEditLeftTheHolderLooksForOtherStoresWritesOnceThenTheLaneEnds() {
    XCTAssertEqual(next(nil), .end)
    XCTAssertEqual(next(nil, .notHeld), .end)
    let held = OutboxLaneBook.Sender.held(lastLook: .seconds(5), now: .seconds(5))
    XCTAssertEqual(next(nil, held), .lookForWrites, "looked at whatever the time")
    XCTAssertEqual(next(nil, held, justLooked: true), .end)
  }

  func testAnEditWithNoHandlerEndsTheLaneBeforeAnythingElse() {
    let noHandler = Head(canSend: false, isSaved: false, sendsOnce: false)
    XCTAssertEqual(next(noHandler, isOnline: false, .notHeld), .endWithoutHandler)
  }

  func testAnUnsavedEditIsSavedBeforeTheNetworkOrTheLockAreConsidered() {
    let unsaved = Head(canSend: true, isSaved: false, sendsOnce: false)
    XCTAssertEqual(next(unsaved, isOnline: false, .notHeld), .save)
  }

  func testOfflineAnEditSentOnceIsDroppedAndASavedOneWaitsForTheNetwork() {
    let once = Head(canSend: true, isSaved: true, sendsOnce: true)
    XCTAssertEqual(next(once, isOnline: false, .notHeld), .dropOffline)
    XCTAssertEqual(next(ready, isOnline: false, .notHeld), .waitOnline)
  }

  func testAStoreWithoutTheLockTakesItBeforeSending() {
    XCTAssertEqual(next(ready, .notHeld), .takeLock)
    XCTAssertEqual(next(ready, .notHeld, justLooked: true), .takeLock)
  }

  func testTheHolderLooksForWritesEveryIntervalAndNotTwiceInOneStep() {
    XCTAssertEqual(next(ready, .held(lastLook: .seconds(10), now: .milliseconds(10_999))), .send)
    XCTAssertEqual(next(ready, .held(lastLook: .seconds(10), now: .seconds(11))), .lookForWrites)
    XCTAssertEqual(next(ready, .held(lastLook: nil, now: .zero)), .lookForWrites)
    XCTAssertEqual(next(ready, .held(lastLook: nil, now: .zero), justLooked: true), .send)
  }
}

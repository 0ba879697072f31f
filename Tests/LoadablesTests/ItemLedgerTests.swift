import XCTest

@testable import Loadables

/// The pure ordering rule of items kept in sync, step by step.
final class ItemLedgerTests: XCTestCase {
  struct Post: Identifiable, Equatable {
    var id: Int
    var title: String
  }

  func testAFirstArrivalIsNewerAndAnOlderFetchIsCorrected() {
    var ledger = ItemLedger<Post>()
    var arrival = ledger.arrived([Post(id: 1, title: "new")], stamp: 2)
    XCTAssertEqual(arrival.newer, [1: Post(id: 1, title: "new")])
    XCTAssertEqual(arrival.corrections, [:])
    // A fetch that started before (stamp 1) lands after with the old title.
    arrival = ledger.arrived([Post(id: 1, title: "old"), Post(id: 2, title: "two")], stamp: 1)
    XCTAssertEqual(arrival.corrections, [1: Post(id: 1, title: "new")])
    XCTAssertEqual(arrival.newer, [2: Post(id: 2, title: "two")])
    // A fetch that started later is the newer truth.
    arrival = ledger.arrived([Post(id: 1, title: "newest")], stamp: 3)
    XCTAssertEqual(arrival.newer, [1: Post(id: 1, title: "newest")])
  }

  func testAnUnchangedItemIsNotNewerAndARemovalWinsOverOlderFetches() {
    var ledger = ItemLedger<Post>()
    _ = ledger.arrived([Post(id: 1, title: "one")], stamp: 1)
    XCTAssertEqual(ledger.arrived([Post(id: 1, title: "one")], stamp: 2), .init())
    ledger.removed(1, stamp: 3)
    XCTAssertEqual(
      ledger.arrived([Post(id: 1, title: "one")], stamp: 2).corrections, [1: Post?.none])
    XCTAssertEqual(ledger.newer(than: 2, for: [Post(id: 1, title: "one")]), [1: Post?.none])
    XCTAssertEqual(ledger.arrived([Post(id: 1, title: "back")], stamp: 4).newer.count, 1)
  }

  // MARK: - Forgetting

  func testWithNoFetchInFlightItForgetsWhatNoEntryHoldsAndEveryTombstone() {
    var ledger = ItemLedger<Post>()
    _ = ledger.arrived([Post(id: 1, title: "one"), Post(id: 2, title: "two")], stamp: 1)
    _ = ledger.arrived([Post(id: 3, title: "three")], stamp: 2)
    ledger.removed(4, stamp: 3)
    ledger.forget(inFlightSince: nil, holding: [2, 4])
    XCTAssertEqual(Set(ledger.versions.keys), [2], "kept an unheld item or a tombstone")
    // What was forgotten is unknown again: the next fetch of it is the latest, whatever its
    // stamp (none older than it can land any more).
    XCTAssertEqual(ledger.arrived([Post(id: 1, title: "one")], stamp: 4).newer.count, 1)
    // A held item stays known: the same item again tells no one.
    XCTAssertEqual(ledger.arrived([Post(id: 2, title: "two")], stamp: 5), .init())
  }

  func testNothingNewerThanTheOldestFetchInFlightIsForgottenSoTheOrderHolds() {
    var ledger = ItemLedger<Post>()
    // A list fetch starts at 1; a detail fetch (2) and a removal (3) land before it.
    _ = ledger.arrived([Post(id: 1, title: "new")], stamp: 2)
    ledger.removed(2, stamp: 3)
    _ = ledger.arrived([Post(id: 9, title: "old news")], stamp: 1)
    ledger.forget(inFlightSince: 1, holding: [])
    XCTAssertEqual(Set(ledger.versions.keys), [1, 2], "forgot a version newer than the fetch")
    let arrival = ledger.arrived(
      [Post(id: 1, title: "old"), Post(id: 2, title: "removed")], stamp: 1)
    XCTAssertEqual(arrival.corrections, [1: Post(id: 1, title: "new"), 2: Post?.none])
    XCTAssertEqual(arrival.newer, [:])
    // A fetch as old as the horizon, or older than nothing in flight, finds nothing to stop.
    ledger.forget(inFlightSince: 3, holding: [])
    XCTAssertEqual(ledger.count, 0)
  }

  func testARestoredStateIsCorrectedByWhatIsNewerThanTheOldestInFlight() {
    var ledger = ItemLedger<Post>()
    _ = ledger.arrived([Post(id: 1, title: "base")], stamp: 1)
    _ = ledger.arrived([Post(id: 1, title: "newer")], stamp: 3)
    // The entry's fetch (started at 2) over a base fetched at 1 may be cancelled: its
    // runner says 1, the older of the two.
    ledger.forget(inFlightSince: 1, holding: [])
    XCTAssertEqual(
      ledger.newer(than: 1, for: [Post(id: 1, title: "base")]), [1: Post(id: 1, title: "newer")])
  }

  func testForgettingIsDueOnlyPastABudgetThatGrowsWithWhatIsKept() {
    var ledger = ItemLedger<Post>()
    let floor = ItemLedger<Post>.minimumBudget
    _ = ledger.arrived((0..<floor).map { Post(id: $0, title: "") }, stamp: 1)
    XCTAssertFalse(ledger.isForgettingDue)
    _ = ledger.arrived([Post(id: floor, title: "")], stamp: 2)
    XCTAssertTrue(ledger.isForgettingDue)
    // Everything is held: nothing goes, and the next time is twice as far.
    ledger.forget(inFlightSince: nil, holding: Set(0...floor))
    XCTAssertEqual(ledger.count, floor + 1)
    XCTAssertFalse(ledger.isForgettingDue)
    _ = ledger.arrived((floor + 1..<2 * (floor + 1)).map { Post(id: $0, title: "") }, stamp: 3)
    XCTAssertFalse(ledger.isForgettingDue)
    _ = ledger.arrived([Post(id: -1, title: "")], stamp: 4)
    XCTAssertTrue(ledger.isForgettingDue)
    // Nothing held now: all goes, and the budget falls back to the floor.
    ledger.forget(inFlightSince: nil, holding: [])
    XCTAssertEqual(ledger.count, 0)
    _ = ledger.arrived((0...floor).map { Post(id: $0, title: "") }, stamp: 5)
    XCTAssertTrue(ledger.isForgettingDue)
  }
}

import XCTest

@testable import Loadables

/// The pure ordering rule of items kept in sync, step by step.
final class ItemSyncBookTests: XCTestCase {
  struct Post: Identifiable, Equatable {
    var id: Int
    var title: String
  }

  func testAFirstArrivalIsNewerAndAnOlderFetchIsCorrected() {
    var book = ItemSyncBook<Post>()
    var arrival = book.arrived([Post(id: 1, title: "new")], stamp: 2)
    XCTAssertEqual(arrival.newer, [1: Post(id: 1, title: "new")])
    XCTAssertEqual(arrival.corrections, [:])
    // A fetch that started before (stamp 1) lands after with the old title.
    arrival = book.arrived([Post(id: 1, title: "old"), Post(id: 2, title: "two")], stamp: 1)
    XCTAssertEqual(arrival.corrections, [1: Post(id: 1, title: "new")])
    XCTAssertEqual(arrival.newer, [2: Post(id: 2, title: "two")])
    // A fetch that started later is the newer truth.
    arrival = book.arrived([Post(id: 1, title: "newest")], stamp: 3)
    XCTAssertEqual(arrival.newer, [1: Post(id: 1, title: "newest")])
  }

  func testAnUnchangedItemIsNotNewerAndARemovalWinsOverOlderFetches() {
    var book = ItemSyncBook<Post>()
    _ = book.arrived([Post(id: 1, title: "one")], stamp: 1)
    XCTAssertEqual(book.arrived([Post(id: 1, title: "one")], stamp: 2), .init())
    book.removed(1, stamp: 3)
    XCTAssertEqual(
      book.arrived([Post(id: 1, title: "one")], stamp: 2).corrections, [1: Post?.none])
    XCTAssertEqual(book.newer(than: 2, for: [Post(id: 1, title: "one")]), [1: Post?.none])
    XCTAssertEqual(book.arrived([Post(id: 1, title: "back")], stamp: 4).newer.count, 1)
  }

  // MARK: - Forgetting

  func testWithNoFetchInFlightItForgetsWhatNoEntryHoldsAndEveryTombstone() {
    var book = ItemSyncBook<Post>()
    _ = book.arrived([Post(id: 1, title: "one"), Post(id: 2, title: "two")], stamp: 1)
    _ = book.arrived([Post(id: 3, title: "three")], stamp: 2)
    book.removed(4, stamp: 3)
    book.forget(inFlightSince: nil, holding: [2, 4])
    XCTAssertEqual(Set(book.versions.keys), [2], "kept an unheld item or a tombstone")
    // What was forgotten is unknown again: the next fetch of it is the latest, whatever its
    // stamp (none older than it can land any more).
    XCTAssertEqual(book.arrived([Post(id: 1, title: "one")], stamp: 4).newer.count, 1)
    // A held item stays known: the same item again tells no one.
    XCTAssertEqual(book.arrived([Post(id: 2, title: "two")], stamp: 5), .init())
  }

  func testNothingNewerThanTheOldestFetchInFlightIsForgottenSoTheOrderHolds() {
    var book = ItemSyncBook<Post>()
    // A list fetch starts at 1; a detail fetch (2) and a removal (3) land before it.
    _ = book.arrived([Post(id: 1, title: "new")], stamp: 2)
    book.removed(2, stamp: 3)
    _ = book.arrived([Post(id: 9, title: "old news")], stamp: 1)
    book.forget(inFlightSince: 1, holding: [])
    XCTAssertEqual(Set(book.versions.keys), [1, 2], "forgot a version newer than the fetch")
    let arrival = book.arrived(
      [Post(id: 1, title: "old"), Post(id: 2, title: "removed")], stamp: 1)
    XCTAssertEqual(arrival.corrections, [1: Post(id: 1, title: "new"), 2: Post?.none])
    XCTAssertEqual(arrival.newer, [:])
    // A fetch as old as the horizon, or older than nothing in flight, finds nothing to stop.
    book.forget(inFlightSince: 3, holding: [])
    XCTAssertEqual(book.count, 0)
  }

  func testARestoredStateIsCorrectedByWhatIsNewerThanTheOldestInFlight() {
    var book = ItemSyncBook<Post>()
    _ = book.arrived([Post(id: 1, title: "base")], stamp: 1)
    _ = book.arrived([Post(id: 1, title: "newer")], stamp: 3)
    // The entry's fetch (started at 2) over a base fetched at 1 may be cancelled: its
    // runner says 1, the older of the two.
    book.forget(inFlightSince: 1, holding: [])
    XCTAssertEqual(
      book.newer(than: 1, for: [Post(id: 1, title: "base")]), [1: Post(id: 1, title: "newer")])
  }

  func testForgettingIsDueOnlyPastABudgetThatGrowsWithWhatIsKept() {
    var book = ItemSyncBook<Post>()
    let floor = ItemSyncBook<Post>.minimumBudget
    _ = book.arrived((0..<floor).map { Post(id: $0, title: "") }, stamp: 1)
    XCTAssertFalse(book.isForgettingDue)
    _ = book.arrived([Post(id: floor, title: "")], stamp: 2)
    XCTAssertTrue(book.isForgettingDue)
    // Everything is held: nothing goes, and the next time is twice as far.
    book.forget(inFlightSince: nil, holding: Set(0...floor))
    XCTAssertEqual(book.count, floor + 1)
    XCTAssertFalse(book.isForgettingDue)
    _ = book.arrived((floor + 1..<2 * (floor + 1)).map { Post(id: $0, title: "") }, stamp: 3)
    XCTAssertFalse(book.isForgettingDue)
    _ = book.arrived([Post(id: -1, title: "")], stamp: 4)
    XCTAssertTrue(book.isForgettingDue)
    // Nothing held now: all goes, and the budget falls back to the floor.
    book.forget(inFlightSince: nil, holding: [])
    XCTAssertEqual(book.count, 0)
    _ = book.arrived((0...floor).map { Post(id: $0, title: "") }, stamp: 5)
    XCTAssertTrue(book.isForgettingDue)
  }
}

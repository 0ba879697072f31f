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
}

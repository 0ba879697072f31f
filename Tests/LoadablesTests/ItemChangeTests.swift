import XCTest

@testable import Loadables

/// A change laid over an entry's items, in both of `apply(to:)`'s loops: one changed item
/// (a detail's fetch) and several.
final class ItemChangeTests: XCTestCase {
  struct Post: Identifiable, Equatable {
    var id: Int
    var title: String
  }

  let posts = [
    Post(id: 1, title: "one"), Post(id: 2, title: "two"), Post(id: 2, title: "two again"),
    Post(id: 3, title: "three"),
  ]

  func testOneItemReplacesEveryRowHoldingItAndReportsAChange() {
    var items = posts
    XCTAssertTrue(ItemChange.replacing([2: Post(id: 2, title: "new")]).apply(to: &items))
    XCTAssertEqual(items.map(\.title), ["one", "new", "new", "three"])
  }

  func testOneItemThatIsAlreadyShownChangesNothing() {
    var items = posts
    XCTAssertFalse(ItemChange.replacing([3: Post(id: 3, title: "three")]).apply(to: &items))
    XCTAssertFalse(ItemChange.replacing([9: Post(id: 9, title: "nine")]).apply(to: &items))
    XCTAssertEqual(items, posts)
  }

  func testOneRemovedItemDropsEveryRowHoldingItEvenSideBySide() {
    var items = posts
    XCTAssertTrue(ItemChange.replacing([2: Post?.none]).apply(to: &items))
    XCTAssertEqual(items.map(\.title), ["one", "three"])
  }

  func testSeveralItemsReplaceAndDropTheirRowsInOnePass() {
    var items = posts
    let change = ItemChange.replacing([
      1: Post?.none, 2: Post?.none, 3: Post(id: 3, title: "new three"),
    ])
    XCTAssertTrue(change.apply(to: &items))
    XCTAssertEqual(items.map(\.title), ["new three"])
  }

  func testSeveralItemsAlreadyShownChangeNothing() {
    var items = posts
    let change = ItemChange.replacing([
      1: Post(id: 1, title: "one"), 3: Post(id: 3, title: "three"), 9: Post?.none,
    ])
    XCTAssertFalse(change.apply(to: &items))
    XCTAssertEqual(items, posts)
  }
}

import XCTest

@testable import Loadables

/// The limiter's serving order, driven step by step as a value.
final class WaiterBookTests: XCTestCase {
  private func order(_ waiters: [(Int, LoadPriority)]) -> WaiterBook<Int> {
    var order = WaiterBook<Int>()
    for (id, priority) in waiters { order.append(id: id, priority: priority, id) }
    return order
  }

  func testTheHighestPriorityIsServedFirstThenFirstInFirstOut() {
    var line = order([
      (1, .prefetch), (2, .visible), (3, .userInitiated), (4, .visible), (5, .prefetch),
      (6, .userInitiated),
    ])
    XCTAssertEqual(line.servingOrder, [3, 6, 2, 4, 1, 5])
    var served: [Int] = []
    while let next = line.removeNext() { served.append(next) }
    XCTAssertEqual(served, [3, 6, 2, 4, 1, 5])
    XCTAssertTrue(line.isEmpty)
  }

  func testOnePriorityIsAPlainQueue() {
    var line = order([(1, .prefetch), (2, .prefetch), (3, .prefetch)])
    XCTAssertEqual(line.removeNext(), 1)
    line.append(id: 4, priority: .prefetch, 4)
    XCTAssertEqual(line.servingOrder, [2, 3, 4])
  }

  func testARaisedWaiterGoesToTheEndOfItsNewPriority() {
    var line = order([(1, .prefetch), (2, .visible), (3, .prefetch), (4, .visible)])
    XCTAssertTrue(line.raise(id: 3, to: .visible))
    XCTAssertEqual(line.servingOrder, [2, 4, 3, 1])
    XCTAssertTrue(line.raise(id: 1, to: .userInitiated))
    XCTAssertEqual(line.servingOrder, [1, 2, 4, 3])
  }

  func testARaiseNeverLowersNorReordersWithinAPriority() {
    var line = order([(1, .visible), (2, .visible), (3, .userInitiated)])
    XCTAssertFalse(line.raise(id: 1, to: .visible), "same priority: keeps its place")
    XCTAssertFalse(line.raise(id: 3, to: .prefetch), "lower: ignored")
    XCTAssertFalse(line.raise(id: 9, to: .userInitiated), "not in line: ignored")
    XCTAssertEqual(line.servingOrder, [3, 1, 2])
  }

  func testARemovedWaiterIsNeverServed() {
    var line = order([(1, .userInitiated), (2, .prefetch), (3, .visible)])
    XCTAssertEqual(line.remove(id: 1), 1)
    XCTAssertNil(line.remove(id: 1))
    XCTAssertEqual(line.servingOrder, [3, 2])
    XCTAssertEqual(line.removeAll(), [2, 3])
    XCTAssertTrue(line.isEmpty)
  }
}

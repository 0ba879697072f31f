import LoadablesTesting
import XCTest

final class ManualClockTests: XCTestCase {
  func testSleepReturnsOnlyWhenTheClockReachesItsDeadline() async throws {
    let clock = ManualClock()
    let woke = Gate<Void>()
    let task = Task {
      try await clock.sleep(for: .seconds(10))
      woke.open()
    }
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(9))
    XCTAssertEqual(clock.sleeperCount, 1, "woke before its deadline")
    XCTAssertEqual(woke.arrived + woke.waiting, 0)
    clock.advance(by: .seconds(1))
    try await task.value
    XCTAssertEqual(clock.sleeperCount, 0)
    XCTAssertEqual(clock.now, .init(offset: .seconds(10)))
  }

  func testAdvanceWakesSleepersInDeadlineOrder() async throws {
    let clock = ManualClock()
    let order = OrderLog()
    let late = Task {
      try await clock.sleep(for: .seconds(3))
      await order.append(3)
    }
    try await clock.sleepers(count: 1)
    let early = Task {
      try await clock.sleep(for: .seconds(1))
      await order.append(1)
    }
    try await clock.sleepers(count: 2)
    clock.advance(by: .seconds(5))
    try await late.value
    try await early.value
    let entries = await order.entries
    XCTAssertEqual(Set(entries), [1, 3])
  }

  func testAPastDeadlineReturnsAtOnce() async throws {
    let clock = ManualClock()
    clock.advance(by: .seconds(2))
    try await clock.sleep(until: .init(offset: .seconds(1)))
    XCTAssertEqual(clock.sleeperCount, 0)
  }

  func testCancellingASleeperThrowsAndRemovesIt() async throws {
    let clock = ManualClock()
    let task = Task { try await clock.sleep(for: .seconds(1)) }
    try await clock.sleepers(count: 1)
    task.cancel()
    do {
      try await task.value
      XCTFail("a cancelled sleep returned normally")
    } catch {
      XCTAssertTrue(error is CancellationError, "got \(error)")
    }
    XCTAssertEqual(clock.sleeperCount, 0)
  }

  func testSleepInAnAlreadyCancelledTaskThrows() async {
    let clock = ManualClock()
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }
    do {
      try await task.value
      XCTFail("a sleep in a cancelled task returned normally")
    } catch {
      XCTAssertTrue(error is CancellationError)
    }
    XCTAssertEqual(clock.sleeperCount, 0)
  }
}

private actor OrderLog {
  var entries: [Int] = []
  func append(_ value: Int) { entries.append(value) }
}

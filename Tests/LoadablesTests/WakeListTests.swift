import XCTest

@testable import Loadables

/// The one "wait until" primitive (`WakeList`) behind a slot's and the outbox's
/// `untilIdle()`, `Connectivity.untilOnline()` and a paused timeout: a waiter is resumed when
/// the condition holds, a call that finds it holding returns at once, and a cancelled waiter
/// returns and leaves nothing behind. Every wait has a deadline.
@MainActor
final class WakeListTests: XCTestCase {
  /// The condition a test's waiters wait for, changed by the test.
  private final class Flag {
    var isSet = false
  }

  /// Which of the test's waiters came back.
  private final class Record {
    var numbers: Set<Int> = []
  }

  func testAWaiterIsResumedWhenTheConditionHolds() async {
    let list = WakeList()
    let ready = Flag()
    let waiter = Task { await list.wait(until: { ready.isSet }) }
    await yieldUntil { list.count == 1 }
    XCTAssertEqual(list.count, 1, "the waiter never took its place")
    ready.isSet = true
    list.resumeAll()
    let finished = await finishes(waiter, "a waiter resumed once the condition held")
    XCTAssertTrue(finished)
    XCTAssertEqual(list.count, 0, "a resumed waiter was left in the list")
  }

  func testAWaitThatFindsTheConditionHoldingReturnsAtOnce() async {
    let list = WakeList()
    let waiter = Task { await list.wait(until: { true }) }
    let finished = await finishes(waiter, "a wait whose condition already held")
    XCTAssertTrue(finished)
    XCTAssertEqual(list.count, 0, "a wait that returned at once took a place")
  }

  func testACancelledWaiterReturnsAndLeavesNothingBehind() async {
    let list = WakeList()
    let waiter = Task { await list.wait(until: { false }) }
    await yieldUntil { list.count == 1 }
    XCTAssertEqual(list.count, 1, "the waiter never took its place")
    waiter.cancel()
    let finished = await finishes(waiter, "a waiter cancelled while it waited")
    XCTAssertTrue(finished)
    XCTAssertEqual(list.count, 0, "a cancelled waiter was left in the list")
    list.resumeAll()  // nothing left to resume: must not resume the waiter twice
  }

  func testAWaiterCancelledBeforeItWaitsReturnsAtOnce() async {
    let list = WakeList()
    // The task cannot run before this test yields the main actor: it is cancelled first.
    let waiter = Task { await list.wait(until: { false }) }
    waiter.cancel()
    let finished = await finishes(waiter, "a waiter cancelled before it began to wait")
    XCTAssertTrue(finished)
    XCTAssertEqual(list.count, 0, "a waiter cancelled as it entered was left in the list")
  }

  // No order among resumed waiters is promised: each comes back when its executor takes it.
  func testEveryWaiterIsResumedAtOnce() async {
    let list = WakeList()
    let ready = Flag()
    let resumed = Record()
    var waiters: [Task<Void, Never>] = []
    for number in 1...3 {
      waiters.append(
        Task {
          await list.wait(until: { ready.isSet })
          resumed.numbers.insert(number)
        })
      await yieldUntil { list.count == number }
    }
    XCTAssertEqual(list.count, 3, "the waiters never all took their places")
    ready.isSet = true
    list.resumeAll()
    for waiter in waiters {
      let finished = await finishes(waiter, "a waiter resumed with the others")
      XCTAssertTrue(finished)
    }
    XCTAssertEqual(resumed.numbers, [1, 2, 3])
    XCTAssertEqual(list.count, 0, "a resumed waiter was left in the list")
  }
}

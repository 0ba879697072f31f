import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// `ScriptedFake`: replies queued per call, calls recorded, held calls released by the test.
@MainActor
final class ScriptedFakeTests: XCTestCase {
  func testEachCallTakesTheNextReplyAndIsRecorded() async throws {
    let search = ScriptedFake<String, [Int]>([.value([1])])
    search.reply(.error(TestError(code: 2)), .value([3]))

    let first = try await search.call("a")
    XCTAssertEqual(first, [1])
    do {
      _ = try await search.call("b")
      XCTFail("the second call returned")
    } catch {
      XCTAssertEqual(error as? TestError, TestError(code: 2))
    }
    let third = try await search.call("c")
    XCTAssertEqual(third, [3])
    XCTAssertEqual(search.calls, ["a", "b", "c"])
  }

  func testAHeldCallKeepsTheLoadRunningUntilTheTestReleasesIt() async throws {
    @Loadable var numbers: LoadableState<[Int]>
    let feed = ScriptedFake<Void, [Int]>([.hold, .hold])
    let task: Task<Void, Never> = $numbers.load { try await feed.call() }

    try await feed.arrival()
    XCTAssertEqual(numbers, .loading)
    XCTAssertEqual(feed.held, 1)
    try await feed.release(returning: [1, 2])
    await task.value
    XCTAssertEqual(numbers, .loaded([1, 2]))

    let second: Task<Void, Never> = $numbers.load { try await feed.call() }
    try await feed.release(throwing: TestError(code: 7))  // waits for the call to be held
    await second.value
    XCTAssertEqual(numbers, .error(TestError(code: 7)))
    XCTAssertEqual(feed.calls.count, 2)
    XCTAssertEqual(feed.held, 0)
  }

  func testHeldCallsAreReleasedOldestFirst() async throws {
    let page = ScriptedFake<Int, String>(otherwise: .hold)
    let one = Task { try await page.call(1) }
    try await page.arrival()
    let two = Task { try await page.call(2) }
    try await page.arrival(count: 2)
    try await page.release(returning: "first")
    try await page.release(returning: "second")
    let answers = try await [one.value, two.value]
    XCTAssertEqual(answers, ["first", "second"])
    XCTAssertEqual(page.calls, [1, 2])
  }

  func testACallWithNoReplyQueuedFailsTheLoadWithAMessage() async {
    @Loadable var numbers: LoadableState<[Int]>
    let feed = ScriptedFake<String, [Int]>([.value([1])])
    let first: Task<Void, Never> = $numbers.load { try await feed.call("feed") }
    await first.value
    let second: Task<Void, Never> = $numbers.load { try await feed.call("feed") }
    await second.value

    XCTAssertEqual(
      numbers.error.map { "\($0)" },
      "ScriptedFake<String, Array<Int>>: call 2 (feed) has no reply queued; queue one with "
        + "reply(_:) or give the fake an otherwise: reply")
  }

  func testTheOtherwiseReplyAnswersOnceTheQueueIsUsedUp() async throws {
    let feed = ScriptedFake<Void, Int>([.value(1)], otherwise: .value(0))
    let answers = try await [feed.call(), feed.call(), feed.call()]
    XCTAssertEqual(answers, [1, 0, 0])
  }

  func testAHeldCallThrowsAtOnceWhenItsTaskIsCancelled() async throws {
    let feed = ScriptedFake<Void, Int>([.hold])
    let task = Task { try await feed.call() }
    try await feed.arrival()
    task.cancel()
    do {
      _ = try await task.value
      XCTFail("a cancelled held call returned")
    } catch {
      XCTAssertTrue(error is CancellationError)
    }
    XCTAssertEqual(feed.held, 0)
  }

  func testReleasingWhenNoCallIsHeldFailsWithAMessage() async throws {
    let feed = ScriptedFake<String, Int>([.value(1)])
    _ = try await feed.call("a")
    do {
      try await feed.release(returning: 2, timeout: .milliseconds(100))
      XCTFail("release returned with no call held")
    } catch let error as WaitTimeout {
      XCTAssertEqual(
        error.description,
        "ScriptedFake.release: waited 0.1 seconds for a held call; saw 1 call (a), 0 held, "
          + "0 replies queued. Did you queue .hold?")
    }
  }

  func testAnArrivalThatNeverComesFailsWithAMessage() async {
    let feed = ScriptedFake<Int, Int>([.hold])
    do {
      try await feed.arrival(count: 1, timeout: .milliseconds(100))
      XCTFail("arrival returned with no call made")
    } catch {
      XCTAssertEqual(
        "\(error)",
        "ScriptedFake.arrival(count: 1): waited 0.1 seconds for 1 call; saw 0 calls (), "
          + "0 held, 1 reply queued")
    }
  }
}

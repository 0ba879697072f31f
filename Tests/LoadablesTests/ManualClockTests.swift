import Loadables
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

/// A `ManualClock` never hangs a test: every wait has a deadline, and the `run` methods
/// move time without the test counting timers.
@MainActor
final class ManualClockDeadlineTests: XCTestCase {
  func testSleepersFailsWithAMessageNamingWhatItSawInsteadOfHanging() async throws {
    let clock = ManualClock()
    let task = Task { try await clock.sleep(for: .seconds(3)) }
    defer { task.cancel() }
    try await clock.sleepers(count: 1)
    let started = ContinuousClock.now
    do {
      try await clock.sleepers(count: 2, timeout: .milliseconds(100))
      XCTFail("sleepers(count: 2) returned with one sleeper")
    } catch let error as WaitTimeout {
      XCTAssertEqual(
        error.description,
        "ManualClock.sleepers(count: 2): waited 0.1 seconds for 2 sleepers; saw 1 "
          + "(deadlines: 3.0 seconds) at 0.0 seconds. Did the code reach its wait, or start "
          + "fewer timers than that?")
    }
    XCTAssertLessThan(ContinuousClock.now - started, .seconds(3), "the wait overran its deadline")
  }

  func testATestThatForgetsToAdvanceFailsWithinItsDeadline() async throws {
    @Loadable var feed: LoadableState<Int>
    let clock = ManualClock()
    let recorder = StateRecorder($feed)
    defer { recorder.stop() }
    var calls = 0
    let task: Task<Void, Never> = withLoadClock(clock) {
      $feed.load(policy: .retry(maxAttempts: 2, backoff: .constant(.seconds(1)))) {
        calls += 1
        if calls == 1 { throw TestError(code: 1) }
        return calls
      }
    }
    defer { task.cancel() }
    // The test forgets `clock.advance(by:)`: the retry waits for ever, the test does not.
    do {
      try await recorder.wait(until: \.isLoaded, timeout: .milliseconds(100))
      XCTFail("the load finished without the clock moving")
    } catch let error as StateRecorderTimeout {
      XCTAssertTrue(error.description.contains("states seen: [absent, loading]"), "\(error)")
    }
    // Waiting for a second timer that never starts fails the same way.
    do {
      try await clock.sleepers(count: 2, timeout: .milliseconds(100))
      XCTFail("a second sleeper appeared")
    } catch let error as WaitTimeout {
      XCTAssertTrue(error.description.contains("saw 1 (deadlines: 1.0 seconds)"), "\(error)")
    }
  }

  func testSleepersThrowsCancellationErrorWhenItsTaskIsCancelled() async {
    let clock = ManualClock()
    let waiter = Task { try await clock.sleepers(count: 1) }
    waiter.cancel()
    do {
      try await waiter.value
      XCTFail("a cancelled wait for sleepers returned")
    } catch {
      XCTAssertTrue(error is CancellationError, "got \(error)")
    }
  }

  func testRunForEndsTheSleepsStartedAlongTheWay() async throws {
    @Loadable var feed: LoadableState<Int>
    let clock = ManualClock()
    var calls = 0
    let task: Task<Void, Never> = $feed.load(
      policy: .retry(maxAttempts: 3, backoff: .constant(.seconds(2)), clock: clock)
    ) {
      calls += 1
      if calls < 3 { throw TestError(code: calls) }
      return calls
    }
    try await clock.sleepers(count: 1)
    try await clock.run(for: .seconds(4))
    await task.value
    XCTAssertEqual(feed, .loaded(3))
    XCTAssertEqual(clock.now.offset, .seconds(4))
  }

  func testRunForStopsAtItsEndEvenWhenASleepIsDueLater() async throws {
    let clock = ManualClock()
    let task = Task { try await clock.sleep(for: .seconds(10)) }
    defer { task.cancel() }
    try await clock.sleepers(count: 1)
    try await clock.run(for: .seconds(9))
    XCTAssertEqual(clock.sleeperDeadlines, [.seconds(10)])
    XCTAssertEqual(clock.now.offset, .seconds(9))
  }

  func testRunEndsEveryTimerWithoutTheTestCountingThem() async throws {
    @Loadable var results: LoadableState<String>
    let clock = ManualClock()
    // A debounce (one timer), then a timeout (a second) raced against a slow request (a
    // third): `run()` needs no count.
    let task: Task<Void, Never> = withLoadClock(clock) {
      $results.load(policy: .debounce(for: .milliseconds(300)).timeout(.seconds(10))) {
        try await clock.sleep(for: .seconds(30))
        return "late"
      }
    }
    try await clock.sleepers(count: 1)
    try await clock.run()
    await task.value
    XCTAssertEqual(results, .error(TimeoutError()))
    XCTAssertEqual(clock.sleeperCount, 0)
    XCTAssertEqual(clock.now.offset, .milliseconds(10_300))
  }

  func testRunGivesUpOnCodeThatAlwaysSleepsAgain() async throws {
    let clock = ManualClock()
    let poller = Task {
      while true { try await clock.sleep(for: .seconds(1)) }
    }
    defer { poller.cancel() }
    try await clock.sleepers(count: 1)
    do {
      try await clock.run(maxSteps: 20)
      XCTFail("run() returned while a poller still sleeps")
    } catch let error as WaitTimeout {
      XCTAssertTrue(
        error.description.hasPrefix("ManualClock.run(): gave up after 20 steps"), "\(error)")
      XCTAssertTrue(error.description.contains("1 sleeper left"), "\(error)")
    }
  }
}

import Loadables
import LoadablesTesting
import XCTest

/// Waits for tests whose fakes are actors, or whose clock other sleepers share: the `async`
/// form of `waitUntil`, which reads an actor's state, and `ManualClock.sleeper(deadline:)`,
/// which waits for one sleep by its deadline whatever else sleeps on the clock.
@MainActor
final class ActorFakeWaitTests: XCTestCase {
  // MARK: - waitUntil with an async condition

  func testAnAsyncWaitUntilReadsAnActorsStateUntilItHolds() async throws {
    let server = CallLog()
    let calls = Task {
      await server.record("feed")
      await server.record("feed")
    }
    try await waitUntil("two calls", seen: "calls: \(await server.calls)") {
      await server.calls.count == 2
    }
    await calls.value
    let seen = await server.calls
    XCTAssertEqual(seen, ["feed", "feed"])
  }

  func testAnAsyncWaitUntilFailsWithAMessageNamingWhatItLastSaw() async {
    let server = CallLog()
    await server.record("feed")
    let started = ContinuousClock.now
    do {
      try await waitUntil(
        "two calls", timeout: .milliseconds(100), seen: "calls: \(await server.calls)"
      ) {
        await server.calls.count == 2
      }
      XCTFail("waitUntil returned for a condition that never held")
    } catch let error as WaitTimeout {
      XCTAssertEqual(
        error.description,
        "waitUntil: waited 0.1 seconds for two calls; it never held; saw calls: [\"feed\"]")
    } catch {
      XCTFail("unexpected \(error)")
    }
    XCTAssertLessThan(ContinuousClock.now - started, .seconds(2), "the wait overran its deadline")
  }

  func testAnAsyncWaitUntilEndsWithTheErrorItsConditionThrows() async {
    let server = CallLog()
    do {
      try await waitUntil("a call") {
        if await server.calls.isEmpty { throw TestError(code: 9) }
        return true
      }
      XCTFail("waitUntil returned although its condition threw")
    } catch {
      XCTAssertEqual(error as? TestError, TestError(code: 9))
    }
  }

  func testAnAsyncWaitUntilRejectsATimeoutThatIsNotPositive() async {
    let server = CallLog()
    do {
      try await waitUntil("a call", timeout: .zero) { await server.calls.count == 1 }
      XCTFail("waitUntil took a zero timeout")
    } catch let error as WaitTimeout {
      XCTAssertEqual(
        error.description, "waitUntil(a call): timeout must be positive, got 0.0 seconds")
    } catch {
      XCTFail("unexpected \(error)")
    }
  }

  func testAnAsyncWaitUntilThrowsCancellationErrorWhenItsTaskIsCancelled() async {
    let server = CallLog()
    let waiter = Task { try await waitUntil("a call") { await server.calls.count == 1 } }
    waiter.cancel()
    do {
      try await waiter.value
      XCTFail("a cancelled wait returned")
    } catch {
      XCTAssertTrue(error is CancellationError, "got \(error)")
    }
  }

  // MARK: - ManualClock.sleeper(deadline:)

  func testASleeperIsFoundByItsDeadlineWhileAnotherAlreadySleeps() async throws {
    let clock = ManualClock()
    let sweeper = Task { try await clock.sleep(for: .seconds(300)) }
    defer { sweeper.cancel() }
    try await clock.sleepers(count: 1)
    // `sleepers(count: 1)` would return now; the wait for the deadline does not.
    let found = Task { try await clock.sleeper(deadline: .seconds(10)) }
    let poll = Task { try await clock.sleep(for: .seconds(10)) }
    try await found.value
    XCTAssertEqual(clock.sleeperDeadlines, [.seconds(10), .seconds(300)])
    clock.advance(by: .seconds(10))
    try await poll.value
  }

  func testASleeperBegunLaterIsFoundByTheDeadlineItComputes() async throws {
    let clock = ManualClock()
    clock.advance(by: .seconds(5))
    let poll = Task { try await clock.sleep(for: .seconds(10)) }
    try await clock.sleeper(deadline: .seconds(15))
    clock.advance(by: .seconds(10))
    try await poll.value
  }

  func testASharedEntrysBackoffIsFoundBesideTheStoresSweeper() async throws {
    let clock = ManualClock()
    var calls = 0
    try await withLoadClock(clock) {
      let store = LoaderStore()  // its grace sweeper sleeps on the clock too
      let feed = store.loader(
        for: ["feed"], policy: .retry(maxAttempts: 2, backoff: .constant(.seconds(2)))
      ) {
        calls += 1
        if calls == 1 { throw TestError(code: 1) }
        return calls
      }
      let load = Task { await feed.load() }
      try await clock.sleeper(deadline: .seconds(2))  // the backoff, whenever the sweeper sleeps
      clock.advance(by: .seconds(2))
      let state = await load.value
      XCTAssertEqual(state, .loaded(2))
    }
  }

  func testAWaitForADeadlineNoSleeperHasFailsWithAMessageNamingTheSleepersItSaw() async throws {
    let clock = ManualClock()
    let sweeper = Task { try await clock.sleep(for: .seconds(300)) }
    defer { sweeper.cancel() }
    try await clock.sleepers(count: 1)
    let started = ContinuousClock.now
    do {
      try await clock.sleeper(deadline: .seconds(10), timeout: .milliseconds(100))
      XCTFail("sleeper(deadline:) returned with no sleeper of that deadline")
    } catch let error as WaitTimeout {
      XCTAssertEqual(
        error.description,
        "ManualClock.sleeper(deadline: 10.0 seconds): waited 0.1 seconds for a sleeper with "
          + "that deadline; saw 1 sleeper (deadlines: 300.0 seconds) at 0.0 seconds. Did the "
          + "code reach its wait, or begin it after the clock had moved?")
    }
    XCTAssertLessThan(ContinuousClock.now - started, .seconds(2), "the wait overran its deadline")
  }

  func testAWaitForADeadlineRejectsATimeoutThatIsNotPositive() async {
    let clock = ManualClock()
    do {
      try await clock.sleeper(deadline: .seconds(1), timeout: .zero)
      XCTFail("sleeper(deadline:) took a zero timeout")
    } catch let error as WaitTimeout {
      XCTAssertEqual(
        error.description,
        "ManualClock.sleeper(deadline:timeout:): timeout must be positive, got 0.0 seconds")
    } catch {
      XCTFail("unexpected \(error)")
    }
  }

  func testAWaitForADeadlineThrowsCancellationErrorWhenItsTaskIsCancelled() async {
    let clock = ManualClock()
    let waiter = Task { try await clock.sleeper(deadline: .seconds(1)) }
    waiter.cancel()
    do {
      try await waiter.value
      XCTFail("a cancelled wait for a sleeper returned")
    } catch {
      XCTAssertTrue(error is CancellationError, "got \(error)")
    }
  }
}

/// An actor fake's record of the calls made of it: state a synchronous condition cannot read.
private actor CallLog {
  private(set) var calls: [String] = []
  func record(_ call: String) { calls.append(call) }
}

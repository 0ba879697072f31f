import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// `ManualClock.backoff(beforeAttempt:of:timeout:)`: waiting for a retry's backoff however
/// many other sleepers share the clock.
@MainActor
final class BackoffWaitTests: XCTestCase {
  func testTheBackoffIsFoundWhenATimeoutInsideTheRetryHeldTheOnlySleeper() async throws {
    let clock = ManualClock()
    @Loadable var numbers: LoadableState<[Int]>
    let api = ScriptedFake<Void, [Int]>([.hold, .value([2])])
    let task: Task<Void, Never> = $numbers.load(
      policy: .retry(maxAttempts: 3, backoff: .constant(.seconds(2)), clock: clock)
        .timeout(.seconds(10), clock: clock)
    ) { try await api.call() }

    // The trap: one sleeper is there at once, but it is attempt 1's timeout.
    try await clock.sleepers(count: 1)
    XCTAssertEqual($numbers.attempt?.number, 1)
    XCTAssertEqual(clock.sleeperDeadlines, [.seconds(10)])

    try await api.release(throwing: TestError(code: 1))
    let attempt = try await clock.backoff(beforeAttempt: 2, of: $numbers.attempt)
    XCTAssertEqual(attempt.number, 2)
    XCTAssertEqual(attempt.delay, .seconds(2))
    XCTAssertEqual(attempt.lastError as? TestError, TestError(code: 1))
    XCTAssertEqual(clock.sleeperDeadlines, [.seconds(2)])
    clock.advance(by: .seconds(2))
    await task.value

    XCTAssertEqual(numbers, .loaded([2]))
    XCTAssertEqual(api.calls.count, 2)
  }

  func testTheBackoffOfASharedEntryIsFoundBesideTheStoresGraceSweeper() async throws {
    let clock = ManualClock()
    let store = LoaderStore(graceTime: .seconds(60), clock: clock)
    let api = ScriptedFake<Void, [Int]>([
      .error(TestError(code: 1)), .error(TestError(code: 2)), .value([3]),
    ])
    let entry = store.loader(
      for: ["numbers"],
      policy: .retry(maxAttempts: 3, backoff: .constant(.seconds(2)), clock: clock)
    ) { try await api.call() }
    let load = Task { await entry.load() }

    try await clock.backoff(beforeAttempt: 2, of: entry.attempt)
    // The backoff, and the sweeper that drops the entry once nobody has observed it for
    // a minute. The sweeper's task begins its sleep on its own, maybe after the backoff's.
    try await clock.sleepers(count: 2)
    XCTAssertEqual(clock.sleeperDeadlines, [.seconds(2), .seconds(60)])
    clock.advance(by: .seconds(2))
    let third = try await clock.backoff(beforeAttempt: 3, of: entry.attempt)
    XCTAssertEqual(third.lastError as? TestError, TestError(code: 2))
    clock.advance(by: .seconds(2))
    let state = await load.value

    XCTAssertEqual(state, .loaded([3]))
    XCTAssertEqual(api.calls.count, 3)
  }

  func testASleepOfTheSameLengthBegunEarlierIsNotTakenForTheBackoff() async throws {
    let clock = ManualClock()
    let elsewhere = ManualClock()
    let other = Task { try await clock.sleep(for: .seconds(2)) }
    try await clock.sleepers(count: 1)
    @Loadable var numbers: LoadableState<[Int]>
    let api = ScriptedFake<Void, [Int]>([.hold, .value([2])])
    // The retry waits on another clock: this clock never gets its backoff.
    let task: Task<Void, Never> = $numbers.load(
      policy: .retry(maxAttempts: 2, backoff: .constant(.seconds(2)), clock: elsewhere)
    ) { try await api.call() }
    try await api.arrival()

    // Released once the wait below has looked at attempt 1: it looks before it first
    // suspends, and this task runs only then.
    let release = Task { try await api.release(throwing: TestError(code: 1)) }
    do {
      try await clock.backoff(beforeAttempt: 2, of: $numbers.attempt, timeout: .seconds(1))
      XCTFail("an older two-second sleep was taken for the backoff")
    } catch let error as WaitTimeout {
      XCTAssertTrue(
        error.description.hasSuffix(
          "attempts seen: [attempt 1 of 2, attempt 2 of 2 starts in 2.0 seconds]; 1 sleeper "
            + "(deadlines: 2.0 seconds) at 0.0 seconds. No sleep of 2.0 seconds begun since "
            + "waits on this clock: does the retry wait on another one?"),
        error.description)
    }
    try await release.value

    try await elsewhere.sleepers(count: 1)
    elsewhere.advance(by: .seconds(2))
    await task.value
    XCTAssertEqual(numbers, .loaded([2]))
    other.cancel()
  }

  func testABackoffThatNeverComesFailsWithAMessageNamingTheAttemptsSeen() async {
    let clock = ManualClock()
    @Loadable var numbers: LoadableState<[Int]>
    do {
      try await clock.backoff(beforeAttempt: 2, of: $numbers.attempt, timeout: .milliseconds(100))
      XCTFail("backoff returned with nothing retrying")
    } catch {
      XCTAssertEqual(
        "\(error)",
        "ManualClock.backoff(beforeAttempt: 2): waited 0.1 seconds for attempt 2 to wait out "
          + "its backoff on this clock; attempts seen: [none]; 0 sleepers (deadlines: none) at "
          + "0.0 seconds. Did the load fail that often? A backoff the clock was moved past "
          + "before this call cannot be seen.")
    }
  }

  func testTheFirstAttemptHasNoBackoffToWaitFor() async {
    let clock = ManualClock()
    do {
      try await clock.backoff(beforeAttempt: 1, of: nil)
      XCTFail("backoff(beforeAttempt: 1) returned")
    } catch {
      XCTAssertEqual(
        "\(error)",
        "ManualClock.backoff(beforeAttempt: 1): attempt 1 runs at once, with no backoff; "
          + "pass 2 or more")
    }
  }
}

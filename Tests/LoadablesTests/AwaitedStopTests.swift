import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// "Your `await` returns once the block has stopped" (DESIGN.md rule 6), under every policy:
/// an awaited load stopped by `cancel()`, `reset()`, a newer load or its caller's
/// cancellation returns only after its block has stopped, whatever policies wrap it.
///
/// The deterministic tests hold a stopped block at a second gate while it unwinds and check
/// that the caller has not returned. `AwaitedStopStressTests` runs every policy, form and
/// kind of stop in a loop; `.ci/stress-awaited-stops` runs it hundreds of times under a CPU
/// hog.
@MainActor
final class AwaitedStopTests: XCTestCase {
  func testCancellingAnAwaitedLoadUnderATimeoutReturnsOnlyOnceTheBlockHasStopped() async {
    for stop in [Stop.cancel, .reset, .caller] {
      let holder = StopHolder()
      let server = UnwindingServer()
      let clock = ManualClock()
      var returned = false
      let caller = Task { @MainActor in
        await holder.$value.load(policy: .timeout(.seconds(10), clock: clock)) {
          try await server.call()
        }
        returned = true
      }
      await server.entry.arrival()
      stop.apply(to: holder, caller: caller)
      await server.unwind.arrival()
      await turns(50)
      XCTAssertFalse(returned, "\(stop): the caller returned while its block was unwinding")
      server.unwind.open()
      await caller.value
      XCTAssertTrue(server.stopped, "\(stop)")
      XCTAssertEqual(clock.sleeperCount, 0, "\(stop): the timeout's timer outlived the load")
    }
  }

  func testAStoppedRetryOfTimedAttemptsReturnsOnlyOnceTheAttemptHasStopped() async {
    let holder = StopHolder()
    let server = UnwindingServer()
    let clock = ManualClock()
    var returned = false
    let caller = Task { @MainActor in
      await holder.$value.load(
        policy: .retry(maxAttempts: 3, backoff: .immediate, clock: clock)
          .timeout(.seconds(5), clock: clock)
      ) { try await server.call() }
      returned = true
    }
    await server.entry.arrival()
    holder.$value.cancel()
    await server.unwind.arrival()
    await turns(50)
    XCTAssertFalse(returned, "the caller returned while the attempt was unwinding")
    server.unwind.open()
    await caller.value
    XCTAssertEqual(server.calls, 1, "a cancelled load was retried")
    XCTAssertEqual(holder.value, .absent)
  }

  func testTheLastCallerToLeaveADedupedFetchReturnsOnceTheFetchHasStopped() async {
    let dedupe = Deduplicator<Int, Int>()
    let first = StopHolder()
    let second = StopHolder()
    let server = UnwindingServer()
    var returned = [false, false]
    let callers = [first, second].enumerated().map { index, holder in
      Task { @MainActor in
        await holder.$value.load(policy: .dedupe(dedupe, key: 1)) { try await server.call() }
        returned[index] = true
      }
    }
    await server.entry.arrival()
    await waitFor("both callers to share the fetch") { dedupe.callerCount(for: 1) == 2 }
    // One caller of two leaves: the fetch goes on for the other, and it returns at once.
    first.$value.cancel()
    await callers[0].value
    XCTAssertEqual(server.entry.waiting, 1, "the shared fetch stopped for a caller still there")
    // The last one leaves: the fetch is cancelled, and that caller waits for it to stop.
    second.$value.cancel()
    await server.unwind.arrival()
    await turns(50)
    XCTAssertFalse(returned[1], "the last caller returned while the fetch was unwinding")
    server.unwind.open()
    await callers[1].value
    XCTAssertTrue(server.stopped)
    XCTAssertEqual(dedupe.inFlightCount, 0)
  }

  func testACancelledLimitWaiterBehindADedupeLeavesTheLineAtOnce() async {
    // Issue 17, item 4: with `.dedupe` in front of `.limit`, the limiter's line is left
    // before `cancel()` returns, as with `.limit` alone.
    let dedupe = Deduplicator<Int, Int>()
    let limiter = ConcurrencyLimiter(limit: 1)
    let holding = Gate<Void>()
    let holder = Task { try await limiter.withPermit { try await holding.pass() } }
    await holding.arrival()
    let waiting = StopHolder()
    let task: Task<Void, Never> = waiting.$value.load(
      policy: .dedupe(dedupe, key: 1).limit(limiter)
    ) { 1 }
    await waitFor("the load to wait for a permit") { limiter.waitingCount == 1 }
    waiting.$value.cancel()
    XCTAssertEqual(limiter.waitingCount, 0, "the cancelled waiter is still in line")
    await task.value
    XCTAssertEqual(waiting.value, .absent)
    holding.open()
    _ = try? await holder.value
    XCTAssertEqual(limiter.runningCount, 0)
  }

  func testALoadOfAKeyWhoseLastCallerJustLeftStartsAFetchOfItsOwn() async {
    let dedupe = Deduplicator<Int, Int>()
    let server = UnwindingServer()
    let first = StopHolder()
    let task: Task<Void, Never> = first.$value.load(policy: .dedupe(dedupe, key: 1)) {
      try await server.call()
    }
    await server.entry.arrival()
    first.$value.cancel()
    // The abandoned fetch is still unwinding; a new load must not join it.
    let second = StopHolder()
    let newer: Task<Void, Never> = second.$value.load(policy: .dedupe(dedupe, key: 1)) { 7 }
    await newer.value
    XCTAssertEqual(second.value, .loaded(7))
    server.unwind.open()
    await task.value
    XCTAssertEqual(first.value, .absent)
    XCTAssertEqual(dedupe.inFlightCount, 0)
  }

  /// Lets other main-actor work run, a bounded number of times.
  private func turns(_ count: Int) async {
    for _ in 0..<count { await Task.yield() }
  }

  private func waitFor(_ what: String, _ condition: () -> Bool) async {
    for _ in 0..<10_000 {
      if condition() { return }
      await Task.yield()
    }
    XCTFail("timed out waiting for \(what)")
  }
}

/// Every policy, form and kind of stop, in a loop: the awaited load returns only once its
/// block has stopped. `LOADABLES_STRESS_ITERATIONS` sets the iterations per combination
/// (default 2, so the suite stays fast); `.ci/stress-awaited-stops` runs hundreds under a
/// background CPU hog.
@MainActor
final class AwaitedStopStressTests: XCTestCase {
  func testEveryPolicyFormAndStopReturnsOnlyOnceTheBlockHasStopped() async throws {
    let iterations =
      ProcessInfo.processInfo.environment["LOADABLES_STRESS_ITERATIONS"].flatMap { Int($0) } ?? 2
    var runs = 0
    var failures: [String] = []
    for policy in StressPolicy.allCases {
      for form in StressForm.allCases {
        for stop in form.stops {
          var failed = 0
          for _ in 0..<iterations {
            runs += 1
            if try await !run(policy, form, stop) { failed += 1 }
          }
          if failed > 0 {
            failures.append("\(policy) · \(form) · \(stop): \(failed) of \(iterations)")
          }
        }
      }
    }
    print("Awaited-stop stress: \(runs) runs, \(failures.count) failing combinations")
    XCTAssert(
      failures.isEmpty,
      "the caller's await returned before the block had stopped in:\n"
        + failures.joined(separator: "\n"))
  }

  /// One run: start an awaited load, stop it once its block waits, and report whether the
  /// block had stopped by the time the caller's `await` returned.
  private func run(_ policy: StressPolicy, _ form: StressForm, _ stop: Stop) async throws
    -> Bool
  {
    let clock = ManualClock()
    let server = StressServer()
    let limiter = ConcurrencyLimiter(limit: 2)
    let connectivity = Connectivity(isOnline: !policy.startsOffline)
    var stoppedWhenReturned = false
    let holder = StopHolder()
    let model = StopModel()
    let loader = BlockLoader(
      policy: policy.make(Deduplicator<Int, Int>(), limiter, clock, connectivity)
    ) {
      try await server.call()
    }
    let block: @MainActor () async throws -> Int = { try await server.call() }
    let job: @MainActor () async throws -> Void = { _ = try await server.call() }
    let caller = Task { @MainActor in
      switch form {
      case .wrapper:
        await holder.$value.load(
          policy: policy.make(Deduplicator<Int, Int>(), limiter, clock, connectivity), block: block)
      case .keyPath:
        await model.load(
          \.value, policy: policy.make(Deduplicator<Int, Int>(), limiter, clock, connectivity),
          block: block)
      case .process:
        await holder.$job.run(
          1, policy: policy.make(Deduplicator<Int, Void>(), limiter, clock, connectivity),
          block: job)
      case .loader:
        await loader.load()
      }
      // Offline, the block never starts: the wait must have ended instead.
      stoppedWhenReturned =
        policy.startsOffline ? connectivity.waitingCount == 0 && !server.called : server.stopped
    }
    if policy.debounces {
      try await clock.sleepers(count: 1)
      clock.advance(by: .seconds(1))
    }
    if policy.startsOffline {
      try await connectivity.waiters(count: 1)
    } else {
      try await server.gate.arrival()
    }
    switch (stop, form) {
    case (.caller, _): caller.cancel()
    case (.cancel, .wrapper): holder.$value.cancel()
    case (.cancel, .keyPath): model.cancel(\.value)
    case (.cancel, .process): holder.$job.cancel()
    case (.cancel, .loader): loader.cancel()
    case (.reset, .wrapper): holder.$value.reset()
    case (.reset, .keyPath): model.reset(\.value)
    case (.reset, .process): holder.$job.reset()
    case (.reset, .loader): loader.reset()
    case (.newer, .wrapper): _ = holder.$value.load { 2 } as Task<Void, Never>
    case (.newer, .keyPath): _ = model.load(\.value) { 2 } as Task<Void, Never>
    case (.newer, .process): _ = holder.$job.run(2) {} as Task<Void, Never>
    case (.newer, .loader): preconditionFailure("a loader's newer load is not in its stops")
    }
    await caller.value
    return stoppedWhenReturned
  }
}

// MARK: - Support

/// How a running awaited load is stopped.
enum Stop: CustomStringConvertible {
  case cancel, reset, caller, newer

  var description: String {
    switch self {
    case .cancel: "cancel()"
    case .reset: "reset()"
    case .caller: "the caller cancelled"
    case .newer: "a newer load"
    }
  }

  @MainActor
  func apply(to holder: StopHolder, caller: Task<Void, Never>) {
    switch self {
    case .cancel: holder.$value.cancel()
    case .reset: holder.$value.reset()
    case .caller: caller.cancel()
    case .newer: _ = holder.$value.load { 2 } as Task<Void, Never>
    }
  }
}

enum StressForm: CaseIterable, CustomStringConvertible {
  case wrapper, keyPath, process, loader

  var stops: [Stop] {
    self == .loader ? [.cancel, .reset, .caller] : [.cancel, .reset, .caller, .newer]
  }

  var description: String {
    switch self {
    case .wrapper: "@Loadable"
    case .keyPath: "LoadableSupport"
    case .process: "@Process"
    case .loader: "BlockLoader"
    }
  }
}

enum StressPolicy: CaseIterable, CustomStringConvertible {
  case none, timeout, retry, retryOfTimedAttempts, timedRetry, debounce, limit, dedupe
  case dedupeThenLimit, keepValue, everything, waitsForNetwork, waitingForNetwork
  /// Ignores starts while running; the stop `.newer` is a plain load, which supersedes it.
  case ignoreStarts

  /// Whether the load starts offline and is stopped while it waits for the network.
  var startsOffline: Bool { self == .waitingForNetwork }

  var debounces: Bool { self == .debounce || self == .everything }

  func make<Value: Sendable>(
    _ dedupe: Deduplicator<Int, Value>, _ limiter: ConcurrencyLimiter, _ clock: ManualClock,
    _ connectivity: Connectivity
  ) -> LoadPolicy<Value> {
    switch self {
    case .none: LoadPolicy()
    case .timeout: .timeout(.seconds(10), clock: clock)
    case .retry: .retry(maxAttempts: 3, backoff: .immediate, clock: clock)
    case .retryOfTimedAttempts:
      .retry(maxAttempts: 3, backoff: .immediate, clock: clock).timeout(.seconds(5), clock: clock)
    case .timedRetry:
      .timeout(.seconds(30), clock: clock).retry(maxAttempts: 3, backoff: .immediate, clock: clock)
    case .debounce: .debounce(for: .seconds(1), clock: clock)
    case .limit: .limit(limiter)
    case .dedupe: .dedupe(dedupe, key: 1)
    case .dedupeThenLimit: .dedupe(dedupe, key: 1).limit(limiter)
    case .keepValue: .keepValueOnFailure()
    case .ignoreStarts:
      .ignoreStartsWhileRunning().retry(maxAttempts: 3, backoff: .immediate, clock: clock)
    case .everything:
      .keepValueOnFailure().debounce(for: .seconds(1), clock: clock)
        .retry(maxAttempts: 3, backoff: .immediate, clock: clock)
        .timeout(.seconds(5), clock: clock).dedupe(dedupe, key: 1).limit(limiter)
    case .waitsForNetwork, .waitingForNetwork:
      .retry(maxAttempts: 3, backoff: .immediate, clock: clock).timeout(.seconds(5), clock: clock)
        .waitsForNetwork(connectivity)
    }
  }

  var description: String {
    switch self {
    case .none: "no policy"
    case .timeout: ".timeout"
    case .retry: ".retry"
    case .retryOfTimedAttempts: ".retry.timeout"
    case .timedRetry: ".timeout.retry"
    case .debounce: ".debounce"
    case .limit: ".limit"
    case .dedupe: ".dedupe"
    case .dedupeThenLimit: ".dedupe.limit"
    case .keepValue: ".keepValueOnFailure"
    case .ignoreStarts: ".ignoreStartsWhileRunning.retry"
    case .everything: ".keepValueOnFailure.debounce.retry.timeout.dedupe.limit"
    case .waitsForNetwork: ".retry.timeout.waitsForNetwork, online"
    case .waitingForNetwork: ".retry.timeout.waitsForNetwork, stopped while offline"
    }
  }
}

@MainActor
final class StopHolder {
  @Loadable var value: LoadableState<Int>
  @LoadableProcess var job: ProcessState<Int>
}

@MainActor
final class StopModel: LoadableSupport {
  var value: LoadableState<Int> = .absent
}

/// A server whose call, once cancelled, waits at a second gate before it stops: the window
/// in which a caller that returns too early is caught.
@MainActor
final class UnwindingServer {
  let entry = Gate<Int>()
  let unwind = Gate<Void>()
  private(set) var stopped = false
  private(set) var calls = 0

  func call() async throws -> Int {
    calls += 1
    defer { stopped = true }
    do {
      return try await entry.pass()
    } catch {
      try? await unwind.passIgnoringCancellation()
      throw error
    }
  }
}

/// The stress loop's server: a cancelled call unwinds over a few turns of the main actor, as
/// real clean-up code does, then records that it stopped.
@MainActor
final class StressServer {
  let gate = LoadablesTesting.Gate<Int>()
  private(set) var stopped = false
  private(set) var called = false

  func call() async throws -> Int {
    called = true
    defer { stopped = true }
    do {
      return try await gate.pass()
    } catch {
      for _ in 0..<3 { await Task.yield() }
      throw error
    }
  }
}

import Loadables
import LoadablesTesting
import Observation
import XCTest

/// The waits of a load, as events (issue 21): a debounce, a place under a concurrency limit,
/// a retry's backoff and the network each report `waitBegan` and `waitEnded`, with what was
/// waited for, how long (on the wait's clock) and the attempt; a wait that is cancelled still
/// reports its end, before the load's. The stream is process-wide and tests run in parallel,
/// so each test records only its own model's (or entry's) events.
@MainActor
final class WaitEventsTests: XCTestCase {
  @MainActor @Observable
  final class Model: LoadableSupport {
    var numbers: LoadableState<Int> = .absent
  }

  struct Boom: Error, Equatable {}

  /// Records the events of `model`'s key paths.
  private func recorder(_ model: Model) -> LoadEventRecorder {
    LoadEventRecorder { $0.subject.objectID == ObjectIdentifier(model) }
  }

  /// Each event as "kind wait duration attempt", for comparing whole sequences.
  private func lines(_ recorder: LoadEventRecorder) -> [String] {
    recorder.events.map { event in
      [
        "\(event.kind)",
        event.wait.map { "\($0)" },
        event.kind == .waitEnded ? event.duration.map { "\($0)" } ?? "no duration" : nil,
        event.attempt.map { "attempt \($0)" },
      ].compactMap { $0 }.joined(separator: " ")
    }
  }

  // MARK: - Debounce

  func testADebounceReportsItsWaitMeasuredOnItsClock() async throws {
    let clock = ManualClock()
    let model = Model()
    let events = recorder(model)
    defer { events.stop() }
    let task: Task<Void, Never> = model.load(
      \.numbers, policy: .debounce(for: .seconds(1), clock: clock)
    ) { 1 }
    try await events.wait(for: .waitBegan)
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(1))
    await task.value
    XCTAssertEqual(
      lines(events),
      ["started", "waitBegan debounce", "waitEnded debounce 1.0 seconds", "finished"])
    XCTAssertEqual(model.numbers, .loaded(1))
  }

  func testASupersededDebounceEndsItsWaitBeforeTheLoadEnds() async throws {
    let clock = ManualClock()
    let model = Model()
    let events = recorder(model)
    defer { events.stop() }
    let policy = LoadPolicy<Int>.debounce(for: .seconds(1), clock: clock)
    let first: Task<Void, Never> = model.load(\.numbers, policy: policy) { 1 }
    try await clock.sleepers(count: 1)
    clock.advance(by: .milliseconds(400))
    let second: Task<Void, Never> = model.load(\.numbers, policy: policy) { 2 }
    await first.value
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(1))
    await second.value
    XCTAssertEqual(
      lines(events),
      [
        "started", "waitBegan debounce", "waitEnded debounce 0.4 seconds", "superseded",
        "started", "waitBegan debounce", "waitEnded debounce 1.0 seconds", "finished",
      ])
    XCTAssertEqual(model.numbers, .loaded(2))
  }

  func testADebouncerReportsTheWaitOfEachLoadItHoldsBack() async throws {
    let clock = ManualClock()
    let debouncer = Debouncer(for: .seconds(2), leading: true, clock: clock)
    let model = Model()
    let events = recorder(model)
    defer { events.stop() }
    // The leading call goes through at once: no wait.
    await model.load(\.numbers, policy: .debounce(debouncer)) { 1 }
    let held: Task<Void, Never> = model.load(\.numbers, policy: .debounce(debouncer)) { 2 }
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(2))
    await held.value
    XCTAssertEqual(
      lines(events),
      [
        "started", "finished",
        "started", "waitBegan debounce", "waitEnded debounce 2.0 seconds", "finished",
      ])
  }

  // MARK: - Concurrency limit

  func testALoadWaitingForAPermitReportsTheWaitAndOneWithAFreePermitDoesNot() async throws {
    let clock = ManualClock()
    let limiter = ConcurrencyLimiter(limit: 1)
    let holder = Model()
    let waiter = Model()
    let holderEvents = recorder(holder)
    let events = recorder(waiter)
    defer {
      holderEvents.stop()
      events.stop()
    }
    let gate = Gate<Int>()
    let first: Task<Void, Never> = holder.load(\.numbers, policy: .limit(limiter)) {
      try await gate.pass()
    }
    await gate.arrival()
    let second = withLoadClock(clock) { () -> Task<Void, Never> in
      waiter.load(\.numbers, policy: .limit(limiter)) { 2 }
    }
    try await events.wait(for: .waitBegan)
    XCTAssertEqual(limiter.waitingCount, 1)
    clock.advance(by: .seconds(3))
    gate.open(1)
    await first.value
    await second.value
    XCTAssertEqual(lines(holderEvents), ["started", "finished"])
    XCTAssertEqual(
      lines(events),
      ["started", "waitBegan limiter", "waitEnded limiter 3.0 seconds", "finished"])
  }

  func testACancelledWaitForAPermitStillReportsItsEnd() async throws {
    let clock = ManualClock()
    let limiter = ConcurrencyLimiter(limit: 1)
    let holder = Model()
    let waiter = Model()
    let events = recorder(waiter)
    defer { events.stop() }
    let gate = Gate<Int>()
    let first: Task<Void, Never> = holder.load(\.numbers, policy: .limit(limiter)) {
      try await gate.pass()
    }
    await gate.arrival()
    // A prefetch waits at its own priority: the wait is reported the same way.
    let second = withLoadClock(clock) {
      withLoadPriority(.prefetch) { () -> Task<Void, Never> in
        waiter.load(\.numbers, policy: .limit(limiter)) { 2 }
      }
    }
    try await events.wait(for: .waitBegan)
    clock.advance(by: .milliseconds(250))
    waiter.cancel(\.numbers)
    await second.value
    gate.open(1)
    await first.value
    XCTAssertEqual(
      lines(events),
      ["started", "waitBegan limiter", "waitEnded limiter 0.25 seconds", "cancelled"])
    XCTAssertEqual(limiter.waitingCount, 0)
    XCTAssertEqual(limiter.runningCount, 0)
  }

  // MARK: - Backoff

  func testARetrysBackoffReportsTheAttemptItWaitsToRun() async throws {
    let clock = ManualClock()
    let model = Model()
    let events = recorder(model)
    defer { events.stop() }
    let api = ScriptedFake<Void, Int>([.error(Boom()), .value(7)])
    let task: Task<Void, Never> = model.load(
      \.numbers, policy: .retry(maxAttempts: 2, backoff: .constant(.seconds(2)), clock: clock)
    ) { try await api.call() }
    try await events.wait(for: .waitBegan)
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(2))
    await task.value
    XCTAssertEqual(
      lines(events),
      [
        "started", "waitBegan backoff attempt 2", "waitEnded backoff 2.0 seconds attempt 2",
        "finished attempt 2",
      ])
    XCTAssertEqual(model.numbers, .loaded(7))
  }

  func testABackoffCancelledByResetEndsItsWaitThenTheLoad() async throws {
    let clock = ManualClock()
    let model = Model()
    let events = recorder(model)
    defer { events.stop() }
    let task: Task<Void, Never> = model.load(
      \.numbers, policy: .retry(maxAttempts: 3, backoff: .constant(.seconds(5)), clock: clock)
    ) { throw Boom() }
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(1))
    model.reset(\.numbers)
    await task.value
    XCTAssertEqual(
      lines(events),
      [
        "started", "waitBegan backoff attempt 2", "waitEnded backoff 1.0 seconds attempt 2",
        "reset attempt 2",
      ])
  }

  func testASharedEntrysBackoffIsReportedUnderItsKey() async throws {
    let clock = ManualClock()
    let store = LoaderStore(clock: clock)
    let api = ScriptedFake<Void, Int>([.error(Boom()), .value(3)])
    let entry = store.loader(
      for: ["waitEvents", "backoff"],
      policy: .retry(maxAttempts: 2, backoff: .constant(.seconds(1)), clock: clock)
    ) { try await api.call() }
    let events = LoadEventRecorder(key: ["waitEvents", "backoff"])
    defer { events.stop() }
    let load = Task { await entry.load() }
    try await events.wait(for: .waitBegan)
    try await clock.backoff(beforeAttempt: 2, of: entry.attempt)
    clock.advance(by: .seconds(1))
    _ = await load.value
    XCTAssertEqual(
      lines(events).filter { $0.hasPrefix("wait") },
      ["waitBegan backoff attempt 2", "waitEnded backoff 1.0 seconds attempt 2"])
    XCTAssertEqual(events.events.first { $0.kind == .waitBegan }?.subject.form, .entry)
  }

  // MARK: - Network

  func testAWaitForTheNetworkIsReportedWithItsLength() async throws {
    let clock = ManualClock()
    let connectivity = Connectivity(isOnline: false)
    let model = Model()
    let events = recorder(model)
    defer { events.stop() }
    let task = withLoadClock(clock) { () -> Task<Void, Never> in
      model.load(\.numbers, policy: .waitsForNetwork(connectivity)) { 4 }
    }
    try await connectivity.waiters(count: 1)
    clock.advance(by: .seconds(30))
    connectivity.goOnline()
    await task.value
    XCTAssertEqual(
      lines(events),
      ["started", "waitBegan network", "waitEnded network 30.0 seconds", "finished"])
  }

  func testACancelledWaitForTheNetworkStillReportsItsEnd() async throws {
    let clock = ManualClock()
    let connectivity = Connectivity(isOnline: false)
    let model = Model()
    let events = recorder(model)
    defer { events.stop() }
    let task = withLoadClock(clock) { () -> Task<Void, Never> in
      model.load(\.numbers, policy: .retry(maxAttempts: 2).waitsForNetwork(connectivity)) { 4 }
    }
    try await connectivity.waiters(count: 1)
    clock.advance(by: .seconds(8))
    task.cancel()
    await task.value
    XCTAssertEqual(
      lines(events),
      [
        "started", "waitBegan network attempt 1", "waitEnded network 8.0 seconds attempt 1",
        "cancelled attempt 1",
      ])
    XCTAssertEqual(connectivity.waitingCount, 0)
  }

  // MARK: - Shared fetches and listening

  func testEveryCallerOfADedupedFetchSeesItsBackoff() async throws {
    let clock = ManualClock()
    let deduplicator = Deduplicator<Int, Int>()
    let first = Model()
    let second = Model()
    let firstEvents = recorder(first)
    let secondEvents = recorder(second)
    defer {
      firstEvents.stop()
      secondEvents.stop()
    }
    let api = ScriptedFake<Void, Int>([.hold, .value(9)])
    let policy = LoadPolicy<Int>.dedupe(deduplicator, key: 1)
      .retry(maxAttempts: 2, backoff: .constant(.seconds(2)), clock: clock)
    let one: Task<Void, Never> = first.load(\.numbers, policy: policy) { try await api.call() }
    try await api.arrival()
    let two: Task<Void, Never> = second.load(\.numbers, policy: policy) { try await api.call() }
    try await waitUntil("the second caller joins", seen: "\(deduplicator.callerCount(for: 1))") {
      deduplicator.callerCount(for: 1) == 2
    }
    try await api.release(throwing: Boom())
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(2))
    await one.value
    await two.value
    for events in [firstEvents, secondEvents] {
      XCTAssertEqual(
        lines(events).filter { $0.hasPrefix("wait") },
        ["waitBegan backoff attempt 2", "waitEnded backoff 2.0 seconds attempt 2"])
    }
    XCTAssertEqual(first.numbers, .loaded(9))
    XCTAssertEqual(second.numbers, .loaded(9))
  }

  func testALoadStartedBeforeAnyoneListenedReportsNoWaits() async throws {
    let clock = ManualClock()
    let model = Model()
    // Listening elsewhere would make this load report: so only when nobody else listens.
    try XCTSkipIf(LoadEvents.isListening, "another test listens to the events now")
    let task: Task<Void, Never> = model.load(
      \.numbers, policy: .debounce(for: .seconds(1), clock: clock)
    ) { 1 }
    try await clock.sleepers(count: 1)
    let events = recorder(model)
    defer { events.stop() }
    clock.advance(by: .seconds(1))
    await task.value
    XCTAssertEqual(events.kinds, [], "the load reports nothing, not even its wait's end")
  }
}

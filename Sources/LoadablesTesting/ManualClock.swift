import Foundation

/// A clock that moves only when a test tells it to, so code that waits can be tested
/// without sleeping.
///
/// Pass it wherever code takes a `Clock<Duration>`, or make it the clock of every policy
/// with `withLoadClock(_:operation:)`. A test lets the code reach its wait, awaits
/// ``sleepers(count:timeout:)`` to be sure it got there, then moves time:
///
/// ```swift
/// let clock = ManualClock()
/// let task = Task { try await clock.sleep(for: .seconds(10)) }
/// try await clock.sleepers(count: 1)
/// clock.advance(by: .seconds(10))  // the sleep returns now
/// try await task.value
/// ```
///
/// Three ways to move time:
///
/// - ``advance(by:)`` and ``advance(to:)`` move it at once and return; the work they wake
///   runs afterwards.
/// - ``run(for:timeout:maxSteps:isolation:)`` moves it to each deadline in turn and lets the
///   woken work run after each, so a sleep that starts along the way ends too.
/// - ``run(timeout:maxSteps:isolation:)`` does that until no sleep is left: the test need
///   not know how many timers the code starts.
///
/// Nothing here waits for ever: ``sleepers(count:timeout:)`` and the `run` methods fail with
/// a ``WaitTimeout`` naming what they waited for and what they saw.
///
/// A sleep whose task is cancelled throws `CancellationError` at once, as
/// `ContinuousClock`'s does.
public final class ManualClock: Clock, @unchecked Sendable {
  // Safe to share: every stored property is read and written only while holding `lock`.

  /// A point on a ``ManualClock``: the time since the clock was made.
  public struct Instant: InstantProtocol, Sendable {
    /// The time since the clock was made.
    public var offset: Duration

    /// Creates an instant at `offset` from the clock's start.
    ///
    /// - Parameter offset: The time since the clock was made.
    public init(offset: Duration) { self.offset = offset }

    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The duration from this instant to `other`.
    public func duration(to other: Instant) -> Duration { other.offset - offset }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    /// Ids grow with each sleep: a larger id started later.
    let id: Int
    /// The clock's time when the sleep began to wait.
    let start: Instant
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  /// A wait for the sleepers to reach a condition: ``sleepers(count:timeout:)``'s count, or
  /// ``sleeper(deadline:timeout:)``'s deadline.
  private struct SleepersWaiter {
    let id: Int
    /// Whether the sleepers waiting now are what the wait waits for; asked with `lock` held.
    let isMet: ([Sleeper]) -> Bool
    let continuation: CheckedContinuation<Void, any Error>
  }

  private let lock = NSLock()
  private var current = Instant(offset: .zero)
  private var sleepersWaiting: [Sleeper] = []
  private var cancelledIDs: Set<Int> = []
  private var nextID = 0
  private var sleepersWaiters: [SleepersWaiter] = []
  /// Sleepers waiters given an id that have not taken their place yet, and the error each
  /// must throw when it was failed (cancelled, or out of time) before it got there.
  private var enteringSleepersWaiters: [Int: (any Error)?] = [:]
  /// Moves on whenever a sleep starts, ends or is cancelled: how ``settle(isolation:)``
  /// tells that woken work is still moving.
  private var activity = 0
  /// The sleeps ``advance(to:)`` resumed whose tasks have not run again yet: until each has,
  /// ``settle(isolation:)`` cannot tell woken work that is late (a busy machine) from work
  /// that is done.
  private var wokenIDs: Set<Int> = []

  /// Creates a clock at instant zero.
  public init() {}

  /// The current instant; it changes only when the clock is advanced or run.
  public var now: Instant { lock.withLock { current } }

  /// The clock has no resolution limit.
  public var minimumResolution: Duration { .zero }

  /// How many sleeps are waiting for the clock to advance.
  public var sleeperCount: Int { lock.withLock { sleepersWaiting.count } }

  /// The deadlines of the sleeps waiting now, earliest first, as offsets from the clock's
  /// start.
  public var sleeperDeadlines: [Duration] {
    lock.withLock { sleepersWaiting.map(\.deadline.offset).sorted() }
  }

  /// Suspends until the clock reaches `deadline`.
  ///
  /// - Parameters:
  ///   - deadline: The instant to wake at; a deadline already reached returns at once.
  ///   - tolerance: Ignored.
  /// - Throws: `CancellationError` when the sleeping task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = lock.withLock {
      nextID += 1
      return nextID
    }
    defer {
      lock.withLock {
        activity += 1
        wokenIDs.remove(id)
      }
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let (outcome, reached): (Result<Void, any Error>?, [SleepersWaiter]) =
          lock.withLock {
            if cancelledIDs.remove(id) != nil { return (.failure(CancellationError()), []) }
            if deadline <= current { return (.success(()), []) }
            sleepersWaiting.append(
              Sleeper(id: id, start: current, deadline: deadline, continuation: continuation))
            activity += 1
            return (nil, takeMetSleepersWaiters())
          }
        for waiter in reached { waiter.continuation.resume() }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      let sleeper: Sleeper? = lock.withLock {
        guard let index = sleepersWaiting.firstIndex(where: { $0.id == id }) else {
          cancelledIDs.insert(id)
          return nil
        }
        return sleepersWaiting.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock forward and wakes every sleep whose deadline it reaches, earliest
  /// first.
  ///
  /// It returns at once: the woken work runs afterwards, when the test next suspends. To
  /// move time and let that work run (and end the sleeps it starts within `duration`), use
  /// ``run(for:timeout:maxSteps:isolation:)``.
  ///
  /// - Parameter duration: How far to move; must not be negative.
  public func advance(by duration: Duration) {
    precondition(
      duration >= .zero,
      "ManualClock.advance(by:): duration must not be negative, got \(duration)"
    )
    advance(to: now.advanced(by: duration))
  }

  /// Moves the clock to `instant` (if it is later than now) and wakes every sleep whose
  /// deadline it reaches, earliest first.
  ///
  /// - Parameter instant: The instant to move to.
  public func advance(to instant: Instant) {
    let woken: [Sleeper] = lock.withLock {
      if instant > current { current = instant }
      let due = sleepersWaiting.filter { $0.deadline <= current }.sorted {
        $0.deadline < $1.deadline
      }
      sleepersWaiting.removeAll { $0.deadline <= current }
      for sleeper in due { wokenIDs.insert(sleeper.id) }
      return due
    }
    for sleeper in woken { sleeper.continuation.resume() }
  }

  // MARK: - Waiting for sleepers

  /// The largest id given out so far: a sleep that starts later has a larger one.
  var lastIssuedID: Int { lock.withLock { nextID } }

  /// The sleeps waiting now: their ids, and when each began and ends, as offsets.
  var waitingSleeps: [(id: Int, start: Duration, deadline: Duration)] {
    lock.withLock { sleepersWaiting.map { ($0.id, $0.start.offset, $0.deadline.offset) } }
  }

  /// Returns once at least `count` sleeps are waiting on the clock, or throws when they are
  /// not there within `timeout` of real time.
  ///
  /// <!-- compile: context ModelTests -->
  /// ```swift
  /// model.refresh()                         // a retry waits before attempt 2
  /// try await clock.sleepers(count: 1)      // it is waiting now
  /// clock.advance(by: .seconds(2))
  /// ```
  ///
  /// A test that advances before the code has started its sleep moves the clock while
  /// nobody waits; the sleep then starts later and waits for an advance that never comes.
  /// Waiting here first prevents that, and a wrong count fails the test with a message
  /// instead of hanging it.
  ///
  /// - Parameters:
  ///   - count: The number of sleepers to wait for.
  ///   - timeout: How long, in real time, to wait before failing; must be positive.
  /// - Throws: ``WaitTimeout`` naming the count, the sleepers seen and their deadlines, when
  ///   fewer than `count` were waiting in time; `CancellationError` when the waiting task
  ///   is cancelled.
  public func sleepers(count: Int, timeout: Duration = .seconds(5)) async throws {
    guard timeout > .zero else {
      throw WaitTimeout(
        "ManualClock.sleepers(count:timeout:): timeout must be positive, got \(timeout)")
    }
    try await waitForSleepers(timeout: timeout) {
      $0.count >= count
    } failure: { deadlines in
      "ManualClock.sleepers(count: \(count)): waited \(timeout) for "
        + "\(counted(count, "sleeper")); saw \(deadlines.count) "
        + "(deadlines: \(Self.describe(deadlines))) at \(self.now.offset). Did the code "
        + "reach its wait, or start fewer timers than that?"
    }
  }

  /// Returns once a sleep whose deadline is `deadline` waits on the clock, however many
  /// other sleeps share it, or throws when none is there within `timeout` of real time.
  ///
  /// ``sleepers(count:timeout:)`` counts every sleep, so it cannot tell the one a test cares
  /// about from another that comes and goes on its own time, such as a
  /// ``Loadables/LoaderStore``'s sweeper, which sleeps until an unobserved entry's grace time
  /// is up. Waiting for the deadline names the sleep itself:
  ///
  /// <!-- compile: context ModelTests -->
  /// ```swift
  /// model.refresh()  // polls every 10 seconds, on a store's clock
  /// try await clock.sleeper(deadline: .seconds(10))  // the poll waits, whatever else does
  /// clock.advance(by: .seconds(10))
  /// ```
  ///
  /// A sleep's deadline is the clock's time when it began plus what it sleeps, so a sleep
  /// begun after the clock was moved ends later than the test may expect: the message then
  /// names the deadlines it saw instead.
  ///
  /// - Parameters:
  ///   - deadline: The deadline to wait for, as an offset from the clock's start (as
  ///     ``sleeperDeadlines`` lists them): `.seconds(10)` for a ten-second sleep begun at
  ///     zero.
  ///   - timeout: How long, in real time, to wait before failing; must be positive.
  /// - Throws: ``WaitTimeout`` naming the deadline, and the sleepers seen with their
  ///   deadlines, when no sleep of that deadline waited in time; `CancellationError` when the
  ///   waiting task is cancelled.
  public func sleeper(deadline: Duration, timeout: Duration = .seconds(5)) async throws {
    guard timeout > .zero else {
      throw WaitTimeout(
        "ManualClock.sleeper(deadline:timeout:): timeout must be positive, got \(timeout)")
    }
    try await waitForSleepers(timeout: timeout) { sleepers in
      sleepers.contains { $0.deadline.offset == deadline }
    } failure: { deadlines in
      "ManualClock.sleeper(deadline: \(deadline)): waited \(timeout) for a sleeper with "
        + "that deadline; saw \(counted(deadlines.count, "sleeper")) "
        + "(deadlines: \(Self.describe(deadlines))) at \(self.now.offset). Did the code "
        + "reach its wait, or begin it after the clock had moved?"
    }
  }

  /// Waits until `isMet` holds for the sleepers waiting, resumed by the sleep that makes it
  /// hold; throws a ``WaitTimeout`` with `failure`'s message (given the deadlines then) after
  /// `timeout`.
  private func waitForSleepers(
    timeout: Duration,
    isMet: @escaping ([Sleeper]) -> Bool,
    failure: @escaping @Sendable ([Duration]) -> String
  ) async throws {
    let id = lock.withLock {
      nextID += 1
      enteringSleepersWaiters[nextID] = .some(nil)
      return nextID
    }
    let timer = Task { [weak self] in
      try? await ContinuousClock().sleep(for: timeout)
      guard !Task.isCancelled, let self else { return }
      self.failSleepersWaiter(id) { WaitTimeout(failure($0)) }
    }
    defer { timer.cancel() }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let ready: Result<Void, any Error>? = lock.withLock {
          if let early = enteringSleepersWaiters.removeValue(forKey: id), let early {
            return .failure(early)
          }
          if isMet(sleepersWaiting) { return .success(()) }
          sleepersWaiters.append(
            SleepersWaiter(id: id, isMet: isMet, continuation: continuation))
          return nil
        }
        if let ready { continuation.resume(with: ready) }
      }
    } onCancel: {
      failSleepersWaiter(id) { _ in CancellationError() }
    }
  }

  private func failSleepersWaiter(_ id: Int, _ error: ([Duration]) -> any Error) {
    let (waiter, deadlines): (SleepersWaiter?, [Duration]) = lock.withLock {
      let deadlines = sleepersWaiting.map(\.deadline.offset).sorted()
      guard let index = sleepersWaiters.firstIndex(where: { $0.id == id }) else {
        // Not in place yet: it throws as it gets there.
        if enteringSleepersWaiters[id] != nil {
          enteringSleepersWaiters[id] = .some(error(deadlines))
        }
        return (nil, deadlines)
      }
      return (sleepersWaiters.remove(at: index), deadlines)
    }
    waiter?.continuation.resume(throwing: error(deadlines))
  }

  /// Call with `lock` held.
  private func takeMetSleepersWaiters() -> [SleepersWaiter] {
    let met = sleepersWaiters.filter { $0.isMet(sleepersWaiting) }
    sleepersWaiters.removeAll { $0.isMet(sleepersWaiting) }
    return met
  }

  // MARK: - Running

  /// Moves the clock forward by `duration`, one deadline at a time, letting the work each
  /// step wakes run before the next; returns once the clock is `duration` later and that
  /// work has settled.
  ///
  /// Unlike ``advance(by:)``, a sleep that woken work starts along the way ends too, if its
  /// deadline falls within `duration`: running a retry's clock by the sum of its backoffs
  /// gets it through every retry.
  ///
  /// <!-- compile: context ModelTests -->
  /// ```swift
  /// model.refresh()                         // .retry(maxAttempts: 3, backoff: .constant(.seconds(2)))
  /// try await clock.sleepers(count: 1)
  /// try await clock.run(for: .seconds(4))   // both retries run
  /// ```
  ///
  /// "Settled" means the woken tasks have had many chances to run and the clock saw no
  /// sleep start or end for a few of them. That is enough for work that only hops between
  /// the main actor and the clock; to be sure that something slower has happened, wait for
  /// it (``sleepers(count:timeout:)``, a recorder's `wait`, ``waitUntil(_:timeout:_:)``).
  ///
  /// - Parameters:
  ///   - duration: How far to move; must not be negative.
  ///   - timeout: How long, in real time, the run may take.
  ///   - maxSteps: The most deadlines to stop at, so a loop that sleeps zero seconds over
  ///     and over cannot spin for ever.
  ///   - isolation: The actor to let work run on; the caller's by default.
  /// - Throws: ``WaitTimeout`` when the run took longer than `timeout` or stopped at more
  ///   than `maxSteps` deadlines.
  public func run(
    for duration: Duration,
    timeout: Duration = .seconds(5),
    maxSteps: Int = 10_000,
    isolation: isolated (any Actor)? = #isolation
  ) async throws {
    precondition(
      duration >= .zero,
      "ManualClock.run(for:): duration must not be negative, got \(duration)"
    )
    let target = now.advanced(by: duration)
    try await run(
      until: target, what: "ManualClock.run(for: \(duration))", timeout: timeout,
      maxSteps: maxSteps)
    advance(to: target)
    await settle()
  }

  /// Moves the clock to each next deadline, letting the work each step wakes run, until no
  /// sleep is left; the test need not know how many timers the code starts.
  ///
  /// <!-- compile: context ModelTests -->
  /// ```swift
  /// model.search("swift")        // a debounce, then a timeout raced against the request
  /// try await clock.run()        // every timer has ended
  /// ```
  ///
  /// Code that always sleeps again (a polling loop) never leaves the clock: `run()` then
  /// fails after `maxSteps` deadlines or `timeout`, naming the sleepers left. Use
  /// ``run(for:timeout:maxSteps:isolation:)`` for such code. See that method for what
  /// "letting the work run" promises.
  ///
  /// - Parameters:
  ///   - timeout: How long, in real time, the run may take.
  ///   - maxSteps: The most deadlines to stop at.
  ///   - isolation: The actor to let work run on; the caller's by default.
  /// - Throws: ``WaitTimeout`` when sleepers are left after `maxSteps` deadlines or
  ///   `timeout`.
  public func run(
    timeout: Duration = .seconds(5),
    maxSteps: Int = 10_000,
    isolation: isolated (any Actor)? = #isolation
  ) async throws {
    try await run(until: nil, what: "ManualClock.run()", timeout: timeout, maxSteps: maxSteps)
  }

  /// Steps to each deadline up to `target` (all of them when `nil`), settling after each.
  private func run(
    until target: Instant?,
    what: String,
    timeout: Duration,
    maxSteps: Int,
    isolation: isolated (any Actor)? = #isolation
  ) async throws {
    guard timeout > .zero, maxSteps >= 1 else {
      throw WaitTimeout("\(what): timeout must be positive and maxSteps at least 1")
    }
    let realClock = ContinuousClock()
    let end = realClock.now.advanced(by: timeout)
    var steps = 0
    while true {
      await settle()
      let next = lock.withLock { sleepersWaiting.map(\.deadline).min() }
      guard let next, target.map({ next <= $0 }) ?? true else { return }
      if steps >= maxSteps || realClock.now >= end {
        let sleepers = sleeperDeadlines
        throw WaitTimeout(
          "\(what): gave up after \(steps) steps and \(timeout - (end - realClock.now)) "
            + "with \(sleepers.count) \(sleepers.count == 1 ? "sleeper" : "sleepers") left "
            + "(deadlines: \(Self.describe(sleepers))) at \(now.offset). Code that sleeps "
            + "again each time it wakes never ends; run it for a set time instead.")
      }
      steps += 1
      advance(to: next)
    }
  }

  /// Lets the work that waking sleepers started run: yields on the caller's actor, on the
  /// global executor and on the main actor until every woken sleep's task has run again and
  /// the clock has then seen no sleep start or end for a few rounds.
  private func settle(isolation: isolated (any Actor)? = #isolation) async {
    var quietRounds = 0
    var seen = lock.withLock { activity }
    for _ in 0..<1_000 {
      await Task.yield()
      await Task.detached(priority: .low) { await Task.yield() }.value
      // The main actor, where the library's loads write their states, runs what was queued
      // on it before this.
      await MainActor.run {}
      let (now, wokenLeft) = lock.withLock { (activity, !wokenIDs.isEmpty) }
      if wokenLeft {
        // A woken task has not run again yet: on a busy machine that can take many rounds.
        quietRounds = 0
      } else if now == seen {
        quietRounds += 1
        if quietRounds >= 4 { return }
      } else {
        seen = now
        quietRounds = 0
      }
    }
  }

  static func describe(_ deadlines: [Duration]) -> String {
    deadlines.isEmpty ? "none" : deadlines.map { "\($0)" }.joined(separator: ", ")
  }
}

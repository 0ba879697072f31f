import Foundation

/// A clock that moves only when a test tells it to, so code that waits can be tested
/// without sleeping.
///
/// Pass it wherever code takes a `Clock<Duration>`. A test lets the code reach its wait,
/// awaits ``sleepers(count:)`` to be sure it got there, then calls ``advance(by:)``:
///
/// ```swift
/// let clock = ManualClock()
/// let task = Task { try await clock.sleep(for: .seconds(10)) }
/// await clock.sleepers(count: 1)
/// clock.advance(by: .seconds(10))  // the sleep returns now
/// try await task.value
/// ```
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
    let id: Int
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private let lock = NSLock()
  private var current = Instant(offset: .zero)
  private var sleepersWaiting: [Sleeper] = []
  private var cancelledIDs: Set<Int> = []
  private var nextID = 0
  private var countWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

  /// Creates a clock at instant zero.
  public init() {}

  /// The current instant; it changes only through ``advance(by:)`` and ``advance(to:)``.
  public var now: Instant { lock.withLock { current } }

  /// The clock has no resolution limit.
  public var minimumResolution: Duration { .zero }

  /// How many sleeps are waiting for the clock to advance.
  public var sleeperCount: Int { lock.withLock { sleepersWaiting.count } }

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
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let (outcome, reached): (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) =
          lock.withLock {
            if cancelledIDs.remove(id) != nil { return (.failure(CancellationError()), []) }
            if deadline <= current { return (.success(()), []) }
            sleepersWaiting.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
            return (nil, takeReachedCountWaiters())
          }
        for waiter in reached { waiter.resume() }
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
      return due
    }
    for sleeper in woken { sleeper.continuation.resume() }
  }

  /// Returns once at least `count` sleeps are waiting on the clock.
  ///
  /// - Parameter count: The number of sleepers to wait for.
  public func sleepers(count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = lock.withLock {
        if sleepersWaiting.count >= count { return true }
        countWaiters.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  /// Call with `lock` held.
  private func takeReachedCountWaiters() -> [CheckedContinuation<Void, Never>] {
    let reached = countWaiters.filter { $0.count <= sleepersWaiting.count }.map(\.continuation)
    countWaiters.removeAll { $0.count <= sleepersWaiting.count }
    return reached
  }
}

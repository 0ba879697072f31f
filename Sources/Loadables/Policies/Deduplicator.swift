import Foundation

/// Lets concurrent loads of the same key share one fetch.
///
/// Pass it to ``LoadPolicy/dedupe(_:key:)``. The first load of a key starts the fetch (its
/// block) in a task of its own; loads of the same key that start while it runs wait for
/// that fetch instead of running their own blocks, and all of them get its value or its
/// error. Once it ends, the next load of the key fetches again.
///
/// ```swift
/// let avatars = Deduplicator<User.ID, Data>()
///
/// // Ten rows showing the same user make one request.
/// row.$avatar.load(policy: .dedupe(avatars, key: user.id)) { try await api.avatar(user.id) }
/// ```
///
/// Cancelling one caller (a newer load of its state, `cancel()`, its view going away)
/// takes only that caller out: the fetch goes on for the others. When every caller is
/// gone, the fetch is cancelled. Progress the fetch reports reaches the load that started
/// it.
@MainActor
public final class Deduplicator<Key: Hashable & Sendable, Value: Sendable> {
  private var flights: [Key: Flight<Value>] = [:]

  /// Creates a deduplicator with nothing in flight.
  public init() {}

  /// How many fetches are in flight.
  public var inFlightCount: Int { flights.count }

  /// Whether a fetch for `key` is in flight.
  ///
  /// - Parameter key: The key.
  /// - Returns: `true` while a fetch for `key` runs.
  public func isInFlight(_ key: Key) -> Bool { flights[key] != nil }

  /// How many callers wait for the fetch of `key`; 0 when none is in flight.
  ///
  /// - Parameter key: The key.
  /// - Returns: The number of callers sharing the fetch.
  public func callerCount(for key: Key) -> Int { flights[key]?.callerCount ?? 0 }

  /// The value of the fetch in flight for `key`, or of a new one that runs `fetch`.
  ///
  /// - Parameters:
  ///   - key: What identifies the value.
  ///   - fetch: Fetches the value; runs only if no fetch for `key` is in flight.
  /// - Returns: The shared fetch's value.
  /// - Throws: The shared fetch's error, or `CancellationError` when the calling task is
  ///   cancelled (the fetch goes on for the other callers).
  public func value(
    for key: Key, fetch: @escaping @MainActor () async throws -> Value
  ) async throws -> Value {
    try Task.checkCancellation()
    let flight = flights[key] ?? start(key, fetch)
    return try await flight.wait()
  }

  private func start(_ key: Key, _ fetch: @escaping @MainActor () async throws -> Value)
    -> Flight<Value>
  {
    let flight = Flight<Value>()
    flights[key] = flight
    flight.onAbandoned = { [weak self, weak flight] in
      Task { @MainActor in
        guard let self, let flight, flight.isAbandoned else { return }
        flight.cancel()
        if self.flights[key] === flight { self.flights[key] = nil }
      }
    }
    flight.task = Task { @MainActor [weak self, weak flight] in
      let outcome: Result<Value, any Error>
      do { outcome = .success(try await fetch()) } catch { outcome = .failure(error) }
      guard let flight else { return }
      if let self, self.flights[key] === flight { self.flights[key] = nil }
      flight.complete(outcome)
    }
    return flight
  }
}

extension LoadPolicy {
  /// Shares one fetch between the loads of `key` that run at the same time; see
  /// ``Deduplicator``.
  ///
  /// - Parameters:
  ///   - deduplicator: The deduplicator shared by the loads.
  ///   - key: What identifies the value this load loads.
  /// - Returns: A deduplicating policy.
  public static func dedupe<Key>(_ deduplicator: Deduplicator<Key, Value>, key: Key)
    -> LoadPolicy
  {
    LoadPolicy("dedupe(key: \(key))") { next in
      { try await deduplicator.value(for: key, fetch: next) }
    }
  }

  /// This policy, then ``dedupe(_:key:)`` inside it.
  public func dedupe<Key>(_ deduplicator: Deduplicator<Key, Value>, key: Key) -> LoadPolicy {
    then(.dedupe(deduplicator, key: key))
  }
}

/// One shared fetch and the callers waiting for it.
private final class Flight<Value: Sendable>: @unchecked Sendable {
  // Safe to share: the waiters, the outcome and the ids are read and written only while
  // holding `lock`; each continuation is resumed exactly once, outside the lock. `task` and
  // `onAbandoned` are set on the main actor before any caller can wait, and only read after.
  private let lock = NSLock()
  private var waiters: [(id: Int, continuation: CheckedContinuation<Value, any Error>)] = []
  private var entering: Set<Int> = []
  private var cancelledIDs: Set<Int> = []
  private var outcome: Result<Value, any Error>?
  private var nextID = 0
  var task: Task<Void, Never>?
  var onAbandoned: (@Sendable () -> Void)?

  /// Whether every caller has left and the fetch has not ended.
  var isAbandoned: Bool { lock.withLock { outcome == nil && waiters.isEmpty && entering.isEmpty } }

  /// How many callers wait, or are about to.
  var callerCount: Int { lock.withLock { waiters.count + entering.count } }

  func cancel() { task?.cancel() }

  /// Waits for the fetch's outcome; a cancelled caller leaves at once.
  ///
  /// Runs on the caller's actor (the main actor), so that a caller counts as waiting from the
  /// moment it has found the flight: the check for an abandoned flight, which also runs on
  /// the main actor, cannot slip in between and cancel the fetch under it.
  func wait(isolation: isolated (any Actor)? = #isolation) async throws -> Value {
    let id = lock.withLock {
      nextID += 1
      entering.insert(nextID)
      return nextID
    }
    return try await withTaskCancellationHandler {
      // Capturing `isolation` keeps this closure on the caller's actor (SE-0420).
      _ = isolation
      return try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Value, any Error>) in
        let ready: Result<Value, any Error>? = lock.withLock {
          entering.remove(id)
          if cancelledIDs.remove(id) != nil { return .failure(CancellationError()) }
          if let outcome { return outcome }
          waiters.append((id, continuation))
          return nil
        }
        if let ready {
          continuation.resume(with: ready)
          if case .failure(let error) = ready, error is CancellationError { onAbandoned?() }
        }
      }
    } onCancel: {
      let waiter: CheckedContinuation<Value, any Error>? = lock.withLock {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else {
          if entering.contains(id) { cancelledIDs.insert(id) }
          return nil
        }
        return waiters.remove(at: index).continuation
      }
      if let waiter {
        waiter.resume(throwing: CancellationError())
        onAbandoned?()
      }
    }
  }

  /// Hands the fetch's outcome to every waiter.
  func complete(_ outcome: Result<Value, any Error>) {
    let waiting = lock.withLock {
      self.outcome = outcome
      defer { waiters = [] }
      return waiters
    }
    for waiter in waiting { waiter.continuation.resume(with: outcome) }
  }
}

import Foundation

/// Lets concurrent loads of the same key share one fetch.
///
/// Pass it to ``LoadPolicy/dedupe(_:key:)-type.method``. The first load of a key starts
/// the fetch (its block) in a task of its own; loads of the same key that start while it
/// runs wait for that fetch instead of running their own blocks, and all of them get its
/// value or its error. Once it ends, the next load of the key fetches again.
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
/// gone, the fetch is cancelled.
///
/// Progress the fetch reports (``LoadingProgress/report(fraction:message:)``), and the
/// attempts of a retry inside the dedupe, reach every caller still waiting, each in the
/// order reported: ten rows sharing one download all show its progress. A caller that joins
/// while the fetch runs shows the latest report at once, then the later ones; a caller that
/// was cancelled receives no more. A retry inside the dedupe that shows its failed attempts
/// (`showsFailedAttempts`) shows them in every caller's state.
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
    // The caller's own load, as its block sees it: the fetch's progress goes there too.
    let caller = flight.broadcast.join(LoadScope.current.get())
    defer { flight.broadcast.leave(caller) }
    return try await flight.wait()
  }

  private func start(_ key: Key, _ fetch: @escaping @MainActor () async throws -> Value)
    -> Flight<Value>
  {
    let flight = Flight<Value>()
    flights[key] = flight
    flight.line.onCancelled = { [weak self, weak flight] in
      Task { @MainActor in
        guard let self, let flight, flight.isAbandoned else { return }
        flight.task?.cancel()
        if self.flights[key] === flight { self.flights[key] = nil }
      }
    }
    // The fetch reports to every caller through the broadcast, not to the load of the
    // caller that happened to start it (whose target the new task would otherwise inherit).
    let broadcast = flight.broadcast
    flight.task = Task { @MainActor [weak self, weak flight] in
      let outcome: Result<Value, any Error>
      do {
        outcome = .success(try await LoadScope.current.withValue(broadcast, operation: fetch))
      } catch {
        outcome = .failure(error)
      }
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

  /// This policy, then ``dedupe(_:key:)-type.method`` inside it.
  public func dedupe<Key>(_ deduplicator: Deduplicator<Key, Value>, key: Key) -> LoadPolicy {
    then(.dedupe(deduplicator, key: key))
  }
}

/// One shared fetch and the callers waiting for it.
private final class Flight<Value: Sendable>: Sendable {
  /// The state: the fetch's outcome, once it has one.
  let line = WaitingLine<Value, Result<Value, any Error>?>(nil)

  /// The fetch, set on the main actor right after the flight is made, before any caller
  /// waits; read only on the main actor.
  @MainActor var task: Task<Void, Never>?

  /// Hands what the fetch reports to every caller's load.
  let broadcast = Broadcast()

  /// Whether every caller has left and the fetch has not ended.
  var isAbandoned: Bool { line.withState { outcome, waiting in outcome == nil && waiting == 0 } }

  /// How many callers wait, or are about to.
  var callerCount: Int { line.count }

  /// Waits for the fetch's outcome; a cancelled caller leaves at once.
  func wait(isolation: isolated (any Actor)? = #isolation) async throws -> Value {
    try await line.wait(isolation: isolation) { outcome in outcome }
  }

  /// Hands the fetch's outcome to every waiter, and to every later one.
  func complete(_ outcome: Result<Value, any Error>) {
    line.resumeAll { stored in
      stored = outcome
      return outcome
    }
  }
}

/// The load target a shared fetch runs under: it passes each report on to the loads of the
/// callers waiting for the fetch, and keeps the latest progress and attempt for a caller
/// that joins later.
@MainActor
private final class Broadcast: LoadTarget {
  private var callers: [Int: any LoadTarget] = [:]
  private var nextID = 0
  private var progress: LoadingProgress?
  private var attempt: RetryAttempt?

  nonisolated init() {}

  /// Adds a caller's load (`nil` when the caller runs outside a load) and shows it the
  /// latest attempt and progress at once. Returns what to pass to ``leave(_:)``.
  func join(_ target: (any LoadTarget)?) -> Int? {
    guard let target else { return nil }
    nextID += 1
    callers[nextID] = target
    if let attempt { target.deliver(attempt) }
    if let progress { target.deliver(progress) }
    return nextID
  }

  /// Removes a caller whose wait ended: it returned, threw or was cancelled.
  func leave(_ id: Int?) {
    if let id { callers[id] = nil }
  }

  func deliver(_ progress: LoadingProgress) {
    self.progress = progress
    for caller in callers.values { caller.deliver(progress) }
  }

  func deliver(_ attempt: RetryAttempt) {
    self.attempt = attempt
    for caller in callers.values { caller.deliver(attempt) }
  }

  func showFailure(_ error: any Error) {
    for caller in callers.values { caller.showFailure(error) }
  }

  func showRestart() {
    for caller in callers.values { caller.showRestart() }
  }
}

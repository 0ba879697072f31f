import Foundation

/// Lets concurrent loads of the same key share one fetch.
///
/// Pass it to ``LoadPolicy/dedupe(_:key:)-type.method``. The first load of a key starts
/// the fetch (its block) in a task of its own; loads of the same key that start while it
/// runs wait for that fetch instead of running their own blocks, and all of them get its
/// value or its error. Once it ends, the next load of the key fetches again.
///
/// <!-- compile: context Model -->
/// ```swift
/// let avatars = Deduplicator<User.ID, Data>()
///
/// // Ten rows showing the same user make one request.
/// row.$avatar.load(policy: .dedupe(avatars, key: user.id)) { try await api.avatar(user.id) }
/// ```
///
/// Cancelling one caller (a newer load of its state, `cancel()`, its view going away)
/// takes only that caller out: the fetch goes on for the others, and that caller returns at
/// once. When the last caller goes, the fetch is cancelled on the spot — a limiter or a
/// backoff it waits in lets go of it before `cancel()` returns — and that caller returns once
/// the fetch has stopped, as every awaited load returns once its block has stopped. A load
/// of the key that starts after that starts a fetch of its own.
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
    while true {
      try Task.checkCancellation()
      let flight = flights[key].flatMap { $0.isAbandoned ? nil : $0 } ?? start(key, fetch)
      // The caller's own load, as its block sees it: the fetch's progress goes there too.
      let caller = flight.broadcast.join(LoadScope.current.get())
      defer { flight.broadcast.leave(caller) }
      do {
        return try await flight.wait()
      } catch is FlightAbandoned {
        // The last caller left between this caller's look-up and its wait: fetch anew.
        continue
      } catch let error as CancellationError {
        // The last caller to leave waits for the fetch it abandoned to stop.
        if let task = flight.abandonIfUnwatched() { await task.value }
        throw error
      }
    }
  }

  private func start(_ key: Key, _ fetch: @escaping @MainActor () async throws -> Value)
    -> Flight<Value>
  {
    let flight = Flight<Value>()
    flights[key] = flight
    flight.line.onCancelled = { [weak flight] in
      // Runs in the cancelling caller's thread, so the fetch is cancelled before the call
      // that cancelled the caller (a `cancel()`, a newer load) returns.
      flight?.abandonIfUnwatched()?.cancel()
    }
    // The fetch reports to every caller through the broadcast, not to the load of the
    // caller that happened to start it (whose target the new task would otherwise inherit).
    let broadcast = flight.broadcast
    flight.setTask(
      Task { @MainActor [weak self, weak flight] in
        let outcome: Result<Value, any Error>
        do {
          outcome = .success(try await LoadScope.current.withValue(broadcast, operation: fetch))
        } catch {
          outcome = .failure(error)
        }
        guard let flight else { return }
        if let self, self.flights[key] === flight { self.flights[key] = nil }
        flight.complete(outcome)
      })
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
  /// The fetch's outcome, once it has one; the fetch's task; whether every caller left
  /// before it ended. Behind the line's lock, so the last caller to leave can cancel the
  /// fetch from whichever thread cancels it.
  struct State {
    var outcome: Result<Value, any Error>?
    var task: Task<Void, Never>?
    var isAbandoned = false
  }

  let line = HandOffLine<Value, State>(State())

  /// Hands what the fetch reports to every caller's load.
  let broadcast = Broadcast()

  /// Stores the fetch's task, right after the flight is made, before any caller waits.
  func setTask(_ task: Task<Void, Never>) { line.withState { state, _ in state.task = task } }

  /// Whether every caller left before the fetch ended: no caller may join it any more.
  var isAbandoned: Bool { line.withState { state, _ in state.isAbandoned } }

  /// How many callers wait, or are about to.
  var callerCount: Int { line.count }

  /// Marks the flight abandoned when nobody waits for it and it has not ended, and returns
  /// its task, to cancel or await; `nil` while callers wait or once it has ended.
  func abandonIfUnwatched() -> Task<Void, Never>? {
    line.withState { state, waiting in
      guard state.outcome == nil else { return nil }
      if state.isAbandoned { return state.task }
      guard waiting == 0 else { return nil }
      state.isAbandoned = true
      return state.task
    }
  }

  /// Waits for the fetch's outcome; a cancelled caller leaves at once. Throws
  /// `FlightAbandoned` when the flight was abandoned before this caller got in line.
  func wait(isolation: isolated (any Actor)? = #isolation) async throws -> Value {
    try await line.wait(isolation: isolation) { state in
      if let outcome = state.outcome { return outcome }
      return state.isAbandoned ? .failure(FlightAbandoned()) : nil
    }
  }

  /// Hands the fetch's outcome to every waiter, and to every later one.
  func complete(_ outcome: Result<Value, any Error>) {
    line.resumeAll { state in
      state.outcome = outcome
      state.task = nil
      return outcome
    }
  }
}

/// A caller reached a flight whose last caller had just left it: it starts a fetch of its
/// own instead.
private struct FlightAbandoned: Error {}

/// The load target a shared fetch runs under: it passes each report on to the loads of the
/// callers waiting for the fetch, and keeps the latest progress and attempt, and the waits
/// under way, for a caller that joins later.
@MainActor
private final class Broadcast: LoadTarget {
  private var callers: [Int: any LoadTarget] = [:]
  private var nextID = 0
  private var progress: LoadingProgress?
  private var attempt: RetryAttempt?
  private var isWaitingForNetwork = false
  /// The fetch's waits under way (reported only while someone listens to the events), each
  /// with the clock it is measured on, innermost last.
  private var waits: [(wait: LoadWait, clock: (any Clock<Duration>)?)] = []

  nonisolated init() {}

  /// Adds a caller's load (`nil` when the caller runs outside a load) and shows it the
  /// latest attempt and progress at once. Returns what to pass to ``leave(_:)``.
  func join(_ target: (any LoadTarget)?) -> Int? {
    guard let target else { return nil }
    nextID += 1
    callers[nextID] = target
    if let attempt { target.deliver(attempt) }
    if let progress { target.deliver(progress) }
    if isWaitingForNetwork { target.deliverWaitingForNetwork(true) }
    // A wait under way begins for the joining load as it joins.
    for open in waits { target.deliverWait(open.wait, began: true, clock: open.clock) }
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

  func deliverWaitingForNetwork(_ waiting: Bool) {
    isWaitingForNetwork = waiting
    for caller in callers.values { caller.deliverWaitingForNetwork(waiting) }
  }

  func deliverWait(_ wait: LoadWait, began: Bool, clock: (any Clock<Duration>)?) {
    if began {
      waits.append((wait, clock))
    } else if let index = waits.lastIndex(where: { $0.wait == wait }) {
      waits.remove(at: index)
    }
    for caller in callers.values { caller.deliverWait(wait, began: began, clock: clock) }
  }

  func showFailure(_ error: any Error) {
    for caller in callers.values { caller.showFailure(error) }
  }

  func showRestart() {
    for caller in callers.values { caller.showRestart() }
  }
}

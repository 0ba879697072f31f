import Foundation

/// A line of tasks waiting to be handed a value, and the state that decides who may pass,
/// behind one lock: the shared part of ``ConcurrencyLimiter`` and ``Deduplicator``.
///
/// A task enters with ``wait(admit:)``. `admit` runs under the lock when the task arrives
/// and again as it takes its place in line, so nothing that changes the state in between
/// (a permit given back, a fetch finishing) can leave it waiting with nobody to wake it. A
/// waiting task is resumed by ``handOff(_:)`` or ``resumeAll(_:)``; a task cancelled while
/// it waits leaves the line at once with `CancellationError`.
///
/// ``handOff(_:)`` serves the highest ``LoadPriority`` first, first in first out within a
/// priority (``WaiterBook``); ``raise(_:to:)`` moves a waiter up.
final class HandOffLine<Value: Sendable, State>: @unchecked Sendable {
  // Safe to share: `state`, the waiters and the ids are read and written only while holding
  // `lock`; each continuation is resumed exactly once, outside the lock. `onCancelled` is set
  // before any task can wait and only read afterwards.
  private let lock = NSLock()
  private var state: State
  private var waiters = WaiterBook<CheckedContinuation<Value, any Error>>()
  /// Tasks given an id that have not taken their place in line yet.
  private var entering: Set<Int> = []
  /// Entering tasks raised before they got in line, and to what.
  private var raisedWhileEntering: [Int: LoadPriority] = [:]
  /// Entering tasks that were cancelled before they got in line.
  private var cancelledIDs: Set<Int> = []
  private var nextID = 0

  /// Called after a task left the line because it was cancelled.
  var onCancelled: (@Sendable () -> Void)?

  init(_ state: State) { self.state = state }

  /// How many tasks wait, or are about to.
  var count: Int { lock.withLock { waiters.count + entering.count } }

  /// Reads or changes the state under the lock; `waiting` is how many tasks wait or are
  /// about to.
  func withState<Result>(_ body: (_ state: inout State, _ waiting: Int) -> Result) -> Result {
    lock.withLock { body(&state, waiters.count + entering.count) }
  }

  /// Returns what `admit` lets through at once, or waits in line to be handed a value.
  ///
  /// `priority` is asked only when the task has to wait, with its id (for ``raise(_:to:)``),
  /// before it takes its place in line: the uncontended path never reads a priority.
  ///
  /// - Throws: What `admit` lets through, or `CancellationError` when the task is
  ///   cancelled before it is handed a value.
  ///
  /// It runs on the caller's actor (`isolation`) up to the moment it waits, so tasks that
  /// call it in order from one actor take their places in that order.
  func wait(
    isolation: isolated (any Actor)? = #isolation,
    priority: (_ id: Int) -> LoadPriority = { _ in .userInitiated },
    admit: (inout State) -> Result<Value, any Error>?
  ) async throws -> Value {
    let arrival: (outcome: Result<Value, any Error>?, id: Int) = lock.withLock {
      if let outcome = admit(&state) { return (outcome, 0) }
      nextID += 1
      entering.insert(nextID)
      return (nil, nextID)
    }
    if let outcome = arrival.outcome { return try outcome.get() }
    let id = arrival.id
    let asked = priority(id)
    return try await withTaskCancellationHandler {
      // Naming `isolation` here isolates this closure to the caller's actor too (SE-0420);
      // without it the closure would run on the global executor, and tasks would take their
      // places in line in whatever order they got there.
      _ = isolation
      return try await withCheckedThrowingContinuation { continuation in
        let ready: Result<Value, any Error>? = lock.withLock {
          entering.remove(id)
          let raised = raisedWhileEntering.removeValue(forKey: id)
          if cancelledIDs.remove(id) != nil { return .failure(CancellationError()) }
          if let outcome = admit(&state) { return outcome }
          waiters.append(id: id, priority: max(asked, raised ?? asked), continuation)
          return nil
        }
        guard let ready else { return }
        continuation.resume(with: ready)
        if case .failure(let error) = ready, error is CancellationError { onCancelled?() }
      }
    } onCancel: {
      let waiter: CheckedContinuation<Value, any Error>? = lock.withLock {
        guard let waiter = waiters.remove(id: id) else {
          // Not in line yet: it sees this as it enters. Already handed a value: too late.
          if entering.contains(id) { cancelledIDs.insert(id) }
          return nil
        }
        return waiter
      }
      if let waiter {
        waiter.resume(throwing: CancellationError())
        onCancelled?()
      }
    }
  }

  /// Raises the waiter `id` to `priority`: it moves to the end of that priority's line. A
  /// waiter about to take its place takes it at `priority`; one already served, gone, or at
  /// that priority or higher is left as it is.
  func raise(_ id: Int, to priority: LoadPriority) {
    lock.withLock {
      if waiters.raise(id: id, to: priority) { return }
      guard entering.contains(id) else { return }
      raisedWhileEntering[id] = max(priority, raisedWhileEntering[id] ?? priority)
    }
  }

  /// Under the lock, `decide` changes the state and returns a value to hand to the next
  /// waiter (the first of the highest priority), or `nil` to hand nothing; `hasWaiter`
  /// tells whether one waits in line.
  func handOff(_ decide: (_ state: inout State, _ hasWaiter: Bool) -> Value?) {
    let next: (CheckedContinuation<Value, any Error>, Value)? = lock.withLock {
      guard let value = decide(&state, !waiters.isEmpty),
        let waiter = waiters.removeNext()
      else { return nil }
      return (waiter, value)
    }
    if let (continuation, value) = next { continuation.resume(returning: value) }
  }

  /// Under the lock, `decide` changes the state and returns the outcome every waiter gets.
  func resumeAll(_ decide: (_ state: inout State) -> Result<Value, any Error>) {
    let (waiting, outcome) = lock.withLock {
      let outcome = decide(&state)
      return (waiters.removeAll(), outcome)
    }
    for waiter in waiting { waiter.resume(with: outcome) }
  }
}

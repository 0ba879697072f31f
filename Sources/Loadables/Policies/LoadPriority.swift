import Foundation

/// How urgently a load wants a ``ConcurrencyLimiter``'s permit: when loads wait for one, the
/// limiter serves the highest priority first, and those of one priority first in, first out.
///
/// <!-- compile: context Model -->
/// ```swift
/// // Warm the next screen's data without holding up what the user is looking at:
/// withLoadPriority(.prefetch) {
///   next.$post.load(policy: .limit(downloads)) { try await api.post(id) }
/// }
/// ```
///
/// A load's priority is a task-local value, set with
/// ``withLoadPriority(_:isolation:operation:)`` and read as ``current``; outside every scope
/// it is ``userInitiated``. A task-local rather than a parameter because that is what reaches
/// a limiter through a ``LoadPolicy``: a policy is a value often built once and shared, while
/// the priority belongs to the load that runs it, and it reaches the limiter from any depth of
/// the policy (inside a retry, a timeout, a dedupe's fetch) and every attempt.
///
/// The priority only orders loads that *wait*: a load that finds a permit free runs at once,
/// whatever its priority, and a running load is never stopped for a more urgent one. It is
/// not the task's `TaskPriority` (the `priority:` of the `Task`-returning `load` forms),
/// which the system's scheduler reads; ``LoadPriority`` is read only by the limiter.
///
/// A waiting load's priority can be raised: a ``SharedLoader`` whose fetch was started at a
/// lower priority (by ``SharedEntry/prefetch(ifOlderThan:priority:)``) raises it to the
/// priority of a ``SharedEntry/load()`` that joins it, so a prefetch never holds up a screen.
/// A raised waiter goes to the end of the line of its new priority.
public enum LoadPriority: Comparable, Sendable, CaseIterable, CustomStringConvertible {
  /// Work the user has not asked for yet: warming an entry the next screen will show.
  case prefetch
  /// Work for something on screen that the user did not act on: a row scrolling into view.
  case visible
  /// Work the user is waiting for; the default.
  case userInitiated

  /// The priority of the innermost ``withLoadPriority(_:isolation:operation:)`` scope of the
  /// calling task (as raised since, if it was); ``userInitiated`` outside every scope.
  public static var current: LoadPriority { Self.scope?.priority ?? .userInitiated }

  /// The innermost scope of the calling task.
  @TaskLocal static var scope: LoadPriorityScope?

  /// The case's name.
  public var description: String {
    switch self {
    case .prefetch: "prefetch"
    case .visible: "visible"
    case .userInitiated: "userInitiated"
    }
  }
}

/// Runs `operation` with `priority` as ``LoadPriority/current`` for its task and the tasks it
/// creates, and returns what it returns.
///
/// Every ``ConcurrencyLimiter`` that a load inside the scope waits for (through
/// ``LoadPolicy/limit(_:)-type.method`` or ``ConcurrencyLimiter/withPermit(isolation:_:)``)
/// serves it at `priority`. Scopes nest: the innermost wins.
///
/// <!-- compile: context Model -->
/// ```swift
/// await withLoadPriority(.visible) {
///   await row.$thumbnail.load(policy: .limit(images)) { try await api.thumbnail(id) }
/// }
/// ```
///
/// - Parameters:
///   - priority: The priority of the loads inside.
///   - isolation: The actor `operation` runs on; the caller's by default.
///   - operation: The code to run at the priority.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws.
public func withLoadPriority<Result>(
  _ priority: LoadPriority,
  isolation: isolated (any Actor)? = #isolation,
  operation: () async throws -> Result
) async rethrows -> Result {
  try await LoadPriority.$scope.withValue(
    LoadPriorityScope(priority), operation: operation, isolation: isolation)
}

/// Runs the synchronous `operation` with `priority` as ``LoadPriority/current``; see
/// ``withLoadPriority(_:isolation:operation:)``.
///
/// Loads started inside with `Task`-returning forms (`$row.load { ... }`) create their task
/// inside the scope, so they keep the priority after `operation` has returned.
///
/// - Parameters:
///   - priority: The priority of the loads inside.
///   - operation: The code to run at the priority.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws.
public func withLoadPriority<Result>(
  _ priority: LoadPriority,
  operation: () throws -> Result
) rethrows -> Result {
  try LoadPriority.$scope.withValue(LoadPriorityScope(priority), operation: operation)
}

/// One ``withLoadPriority(_:isolation:operation:)`` scope: its priority, which can be raised,
/// and the waits for a permit made inside it, which a raise moves up their lines.
///
/// A reference, bound as a task-local, so that whoever holds it (a shared entry holds its
/// fetch's) can raise every wait the scope's tasks are making, in whichever limiter.
final class LoadPriorityScope: @unchecked Sendable {
  // Safe to share: `current`, `waits` and `nextID` are read and written only while holding
  // `lock`; the raise actions are called outside it.
  private let lock = NSLock()
  private var current: LoadPriority
  private var waits: [Int: @Sendable (LoadPriority) -> Void] = [:]
  private var nextID = 0

  init(_ priority: LoadPriority) { current = priority }

  /// The scope's priority now.
  var priority: LoadPriority { lock.withLock { current } }

  /// Registers a wait made inside the scope: `raise` moves it up its line when the scope is
  /// raised, until ``leave(_:)``. Returns the id to leave with and the priority to wait at,
  /// read in the same step, so no raise can fall between the two.
  func enter(_ raise: @escaping @Sendable (LoadPriority) -> Void) -> (
    id: Int, priority: LoadPriority
  ) {
    lock.withLock {
      nextID += 1
      waits[nextID] = raise
      return (nextID, current)
    }
  }

  /// The wait `id` ended: it was served, or left its line.
  func leave(_ id: Int) {
    lock.withLock { _ = waits.removeValue(forKey: id) }
  }

  /// Raises the scope to `priority`, and every wait made inside it; a lower or equal
  /// `priority` changes nothing.
  func raise(to priority: LoadPriority) {
    let raises: [@Sendable (LoadPriority) -> Void]? = lock.withLock {
      guard priority > current else { return nil }
      current = priority
      return Array(waits.values)
    }
    for raise in raises ?? [] { raise(priority) }
  }
}

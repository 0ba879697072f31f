import Foundation

/// Lets at most `limit` operations run at once; the others wait their turn, the highest
/// ``LoadPriority`` first and first in, first out within a priority. Share one limiter between
/// many loads — a batch of downloads, say — and pass it to
/// ``LoadPolicy/limit(_:)-type.method``:
///
/// <!-- compile: context Model -->
/// ```swift
/// let downloads = ConcurrencyLimiter(limit: 2)
///
/// for file in files {
///   file.$data.load(policy: .limit(downloads)) { try await api.download(file.name) }
/// }
/// ```
///
/// The limit is never exceeded: a finishing operation hands its permit straight to the
/// next waiter, so no newcomer can slip in between. A waiter whose task is cancelled (its
/// load superseded, cancelled or reset) leaves the queue at once, without running and
/// without taking a permit. Safe to use from any thread or actor.
///
/// ## Priority
///
/// A waiter waits at the ``LoadPriority/current`` of its task: ``LoadPriority/userInitiated``
/// unless a ``withLoadPriority(_:isolation:operation:)`` scope says otherwise. The next permit
/// goes to the first waiter of the highest priority, so prefetches wait behind what is on
/// screen, which waits behind what the user asked for:
///
/// <!-- compile: context Model -->
/// ```swift
/// func prefetch(_ upcoming: [PostRow]) {
///   withLoadPriority(.prefetch) {
///     for row in upcoming { row.$post.load(policy: .limit(downloads)) { try await api.post(row.id) } }
///   }
/// }
///
/// func open(_ row: PostRow) async {
///   // Served before every waiting prefetch.
///   await row.$post.load(policy: .limit(downloads)) { try await api.post(row.id) }
/// }
/// ```
///
/// Priority orders only the waiting: a load that finds a permit free takes it whatever its
/// priority, and a running prefetch is not stopped. A waiter whose priority is raised (a
/// shared entry's prefetch joined by a screen's load, see
/// ``SharedEntry/prefetch(ifOlderThan:priority:)``) goes to the end of its new priority's
/// line. Waiters at lower priorities wait as long as higher ones keep coming.
public final class ConcurrencyLimiter: Sendable {
  /// How many operations may run at once.
  public let limit: Int

  // The queue lives behind a lock, so that a cancelled waiter can leave it at once from
  // whichever thread cancels it.
  private let queue: Permits

  /// Creates a limiter.
  ///
  /// - Parameter limit: How many operations may run at once; at least 1.
  ///
  /// > Important: A `limit` below 1 stops the program with a message naming it.
  public init(limit: Int) {
    precondition(limit >= 1, "ConcurrencyLimiter: limit must be at least 1, got \(limit)")
    self.limit = limit
    self.queue = Permits(limit: limit)
  }

  /// How many operations hold a permit now.
  public var runningCount: Int { queue.counts.running }

  /// How many operations wait for a permit now.
  public var waitingCount: Int { queue.counts.waiting }

  /// Runs `operation` once a permit is free, and frees it when `operation` ends.
  ///
  /// Callers on one actor are served in the order they call, within a priority: the caller
  /// takes its place in line, at ``LoadPriority/current``, before it first suspends.
  ///
  /// - Parameters:
  ///   - isolation: The actor to run `operation` on; the caller's by default.
  ///   - operation: The work to run.
  /// - Returns: What `operation` returned.
  /// - Throws: `CancellationError` when the calling task is cancelled while it waits (the
  ///   operation then never runs), or what `operation` throws.
  public func withPermit<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> T
  ) async throws -> T {
    // Joins the line on the caller's actor, before any hop, so that loads started in order
    // from one actor are served in that order.
    try await queue.acquire(isolation: isolation)
    defer { queue.release() }
    return try await operation()
  }

  /// ``withPermit(isolation:_:)`` for a load's policy, on the main actor: a wait in line is
  /// reported as a ``LoadWait/limiter`` wait of the load (see ``LoadEvents``). A load that
  /// finds a permit free reports nothing and reads nothing more.
  @MainActor
  func withPermitReportingWait<T>(_ operation: () async throws -> T) async throws -> T {
    try await queue.acquire(isolation: MainActor.shared) { began in
      MainActor.assumeIsolated { reportWait(.limiter, began: began) }
    }
    defer { queue.release() }
    return try await operation()
  }
}

extension LoadPolicy {
  /// Runs the block only while `limiter` has a permit free, waiting in line otherwise.
  ///
  /// The wait happens with the load already started, so the state shows `.loading` (and
  /// `isRunning` is `true`) while it waits; cancelling the load takes it out of the line.
  ///
  /// - Parameter limiter: The limiter shared by the loads to limit.
  /// - Returns: A limiting policy.
  public static func limit(_ limiter: ConcurrencyLimiter) -> LoadPolicy {
    LoadPolicy("limit(\(limiter.limit))") { next in
      { try await limiter.withPermitReportingWait { try await next() } }
    }
  }

  /// This policy, then ``limit(_:)-type.method`` inside it.
  public func limit(_ limiter: ConcurrencyLimiter) -> LoadPolicy {
    then(.limit(limiter))
  }
}

/// The permits of a ``ConcurrencyLimiter`` and the line of tasks waiting for one.
private struct Permits: Sendable {
  let line: HandOffLine<Void, Int>  // the state: how many permits are taken
  let limit: Int

  init(limit: Int) {
    self.limit = limit
    self.line = HandOffLine(0)
  }

  var counts: (running: Int, waiting: Int) {
    line.withState { running, waiting in (running, waiting) }
  }

  /// Takes a permit, waiting in line for one if none is free.
  ///
  /// A task that has to wait does so at ``LoadPriority/current``; inside a
  /// ``withLoadPriority(_:isolation:operation:)`` scope, raising the scope raises the wait.
  ///
  /// `waiting` is told when the task begins to wait in line (`true`) and when that wait ends
  /// (`false`), however it ends; a task that finds a permit free never calls it. It runs on
  /// `isolation`.
  func acquire(
    isolation: isolated (any Actor)? = #isolation, waiting: ((_ began: Bool) -> Void)? = nil
  ) async throws {
    try Task.checkCancellation()
    // The wait's place in its priority scope, left once the wait ends however it ends.
    var entered: (scope: LoadPriorityScope, id: Int)?
    var waited = false
    defer {
      if let entered { entered.scope.leave(entered.id) }
      if waited { waiting?(false) }
    }
    try await line.wait(isolation: isolation) { [line] id in
      // Called only when the task has to wait: a free permit never looks at the priority,
      // nor reports a wait.
      if let waiting {
        waited = true
        waiting(true)
      }
      guard let scope = LoadPriority.scope else { return .userInitiated }
      let (scopeID, priority) = scope.enter { line.raise(id, to: $0) }
      entered = (scope, scopeID)
      return priority
    } admit: { running in
      // Only a newcomer finding nobody in line may take a free permit; a permit given back
      // while tasks wait goes to the next of them (see `release`).
      guard running < limit else { return nil }
      running += 1
      return .success(())
    }
    // Handed a permit, but cancelled meanwhile: give it back rather than run.
    if Task.isCancelled {
      release()
      throw CancellationError()
    }
  }

  /// Gives a permit back: straight to the next waiter if there is one (the first of the
  /// highest priority).
  func release() {
    line.handOff { running, hasWaiter in
      if hasWaiter { return () }
      running -= 1
      return nil
    }
  }
}

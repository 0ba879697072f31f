import Foundation

/// Lets at most `limit` operations run at once; the others wait their turn, first in, first
/// out. Share one limiter between many loads — a batch of downloads, say — and pass it to
/// ``LoadPolicy/limit(_:)``:
///
/// ```swift
/// let downloads = ConcurrencyLimiter(limit: 2)
///
/// for file in files {
///   file.$data.load(policy: .limit(downloads)) { try await api.download(file.name) }
/// }
/// ```
///
/// The limit is never exceeded: a finishing operation hands its permit straight to the
/// first waiter, so no newcomer can slip in between. A waiter whose task is cancelled (its
/// load superseded, cancelled or reset) leaves the queue at once, without running and
/// without taking a permit. Safe to use from any thread or actor.
public final class ConcurrencyLimiter: Sendable {
  /// How many operations may run at once.
  public let limit: Int

  // The queue lives behind a lock, so that a cancelled waiter can leave it at once from
  // whichever thread cancels it.
  private let queue: LockedQueue

  /// Creates a limiter.
  ///
  /// - Parameter limit: How many operations may run at once; at least 1.
  ///
  /// > Important: A `limit` below 1 stops the program with a message naming it.
  public init(limit: Int) {
    precondition(limit >= 1, "ConcurrencyLimiter: limit must be at least 1, got \(limit)")
    self.limit = limit
    self.queue = LockedQueue(limit: limit)
  }

  /// How many operations hold a permit now.
  public var runningCount: Int { queue.counts.running }

  /// How many operations wait for a permit now.
  public var waitingCount: Int { queue.counts.waiting }

  /// Runs `operation` once a permit is free, and frees it when `operation` ends.
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
    try await queue.acquire(isolation: isolation)
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
      { try await limiter.withPermit { try await next() } }
    }
  }

  /// This policy, then ``limit(_:)`` inside it.
  public func limit(_ limiter: ConcurrencyLimiter) -> LoadPolicy {
    then(.limit(limiter))
  }
}

/// The permits and the line of waiters of a ``ConcurrencyLimiter``.
private final class LockedQueue: @unchecked Sendable {
  // Safe to share: every stored property is read and written only while holding `lock`, and
  // each continuation is resumed exactly once, outside the lock.
  private let lock = NSLock()
  private let limit: Int
  private var running = 0
  private var waiters: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
  /// Waiters given an id that have not entered the line yet.
  private var entering: Set<Int> = []
  /// Entering waiters whose task was cancelled before they got in line.
  private var cancelledIDs: Set<Int> = []
  private var nextID = 0

  init(limit: Int) { self.limit = limit }

  var counts: (running: Int, waiting: Int) { lock.withLock { (running, waiters.count) } }

  /// Takes a permit, waiting in line for one if none is free.
  ///
  /// Runs on the caller's actor, so that loads started one after another on that actor take
  /// their places in line in that order.
  func acquire(isolation: isolated (any Actor)?) async throws {
    try Task.checkCancellation()
    let id: Int? = lock.withLock {
      if running < limit, waiters.isEmpty {
        running += 1
        return nil
      }
      nextID += 1
      entering.insert(nextID)
      return nextID
    }
    guard let id else { return }
    try await withTaskCancellationHandler {
      // Capturing `isolation` keeps this closure on the caller's actor (SE-0420); without it
      // the closure would hop to the global executor, and loads started in order could join
      // the line out of order.
      _ = isolation
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let outcome: Result<Void, any Error>? = lock.withLock {
          entering.remove(id)
          if cancelledIDs.remove(id) != nil { return .failure(CancellationError()) }
          // A permit was given back while this waiter was on its way into the line (with
          // the line empty, `release` had no one to hand it to): take it.
          if running < limit {
            running += 1
            return .success(())
          }
          waiters.append((id, continuation))
          return nil
        }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      let waiter: CheckedContinuation<Void, any Error>? = lock.withLock {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else {
          // Not in line yet: it will see this as it enters. Already handed a permit: it gives
          // the permit back below.
          if entering.contains(id) { cancelledIDs.insert(id) }
          return nil
        }
        return waiters.remove(at: index).continuation
      }
      waiter?.resume(throwing: CancellationError())
    }
    // Handed a permit, but cancelled meanwhile: give it back rather than run.
    if Task.isCancelled {
      release()
      throw CancellationError()
    }
  }

  /// Gives a permit back: straight to the first waiter if there is one.
  func release() {
    let next: CheckedContinuation<Void, any Error>? = lock.withLock {
      if waiters.isEmpty {
        running -= 1
        return nil
      }
      return waiters.removeFirst().continuation
    }
    next?.resume()
  }
}

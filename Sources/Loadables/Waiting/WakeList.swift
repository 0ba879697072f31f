import Foundation

/// Tasks waiting until a condition holds — a ``Connectivity`` says online, a paused timeout
/// resumes, a slot or the ``Outbox`` is idle — behind one lock.
///
/// A task waits with ``wait(isolation:until:)``, which checks the condition on the caller's
/// actor, at once and again as the task takes its place, so that nothing that makes the
/// condition hold in between leaves it waiting with nobody to wake it. Whoever makes the
/// condition hold calls ``resumeAll()``, on that same actor. A cancellation may arrive at
/// any moment from any thread: before the task takes its place (it then resumes at once as
/// it comes to wait) or while it waits (it is resumed there and then). Each continuation is
/// resumed exactly once, outside the lock, and a resumed or cancelled task leaves nothing
/// behind.
///
/// The plainest of the waiting primitives: ``HandOffLine`` also hands each waiter a value,
/// decided under its lock, in priority order.
final class WakeList: @unchecked Sendable {
  // Safe to share: every stored property is read and written only while holding `lock`.
  // The continuations are unsafe ones, not checked: each is resumed exactly once, by whoever
  // takes it out of `waiting` under the lock (or, never placed there, by its own task).
  // `entering` and `cancelledBeforeWaiting` are arrays, not sets: they hold the few tasks
  // between entering and taking their place, found faster by a scan than by hashing.
  private let lock = NSLock()
  private var waiting: [(id: Int, continuation: UnsafeContinuation<Void, Never>)] = []
  private var entering: [Int] = []
  private var cancelledBeforeWaiting: [Int] = []
  private var nextID = 0

  /// How many tasks wait, or are about to.
  var count: Int { lock.withLock { waiting.count + entering.count } }

  /// Returns once `isReady` holds, or as soon as the calling task is cancelled (check
  /// `Task.isCancelled` after); at once when it holds already.
  ///
  /// `isReady` is called on the caller's actor (`isolation`), before the task waits and
  /// again as it takes its place; the code that makes it hold must call ``resumeAll()`` on
  /// that actor too.
  func wait(
    isolation: isolated (any Actor)? = #isolation,
    until isReady: () -> Bool
  ) async {
    guard !isReady() else { return }
    let id = enter()
    await withTaskCancellationHandler {
      // Naming `isolation` here isolates this closure to the caller's actor too (SE-0420), so
      // the second check and taking the place happen with no suspension in between.
      _ = isolation
      await withUnsafeContinuation { continuation in
        if isReady() {
          leave(id)
          continuation.resume()
        } else {
          wait(id, continuation)
        }
      }
    } onCancel: {
      cancel(id)
    }
  }

  /// Resumes every waiting task. No order among them is promised: each resumed task runs
  /// when its executor takes it, and a task may come back through another thread first.
  func resumeAll() {
    var resumed: [(id: Int, continuation: UnsafeContinuation<Void, Never>)] = []
    lock.withLock { swap(&resumed, &waiting) }
    for waiter in resumed { waiter.continuation.resume() }
  }

  /// Takes an id for a task about to wait.
  private func enter() -> Int {
    lock.withLock {
      nextID += 1
      entering.append(nextID)
      return nextID
    }
  }

  /// The task entered but will not wait: the condition held as it came to.
  private func leave(_ id: Int) {
    lock.withLock {
      Self.remove(id, from: &entering)
      Self.remove(id, from: &cancelledBeforeWaiting)
    }
  }

  /// The task takes its place; resumed at once if it was cancelled as it entered.
  private func wait(_ id: Int, _ continuation: UnsafeContinuation<Void, Never>) {
    let cancelled: Bool = lock.withLock {
      Self.remove(id, from: &entering)
      if Self.remove(id, from: &cancelledBeforeWaiting) { return true }
      waiting.append((id, continuation))
      return false
    }
    if cancelled { continuation.resume() }
  }

  /// The task `id` was cancelled: resumed now if it waits, or as it comes to wait.
  private func cancel(_ id: Int) {
    let continuation: UnsafeContinuation<Void, Never>? = lock.withLock {
      if let index = waiting.firstIndex(where: { $0.id == id }) {
        return waiting.remove(at: index).continuation
      }
      if entering.contains(id), !cancelledBeforeWaiting.contains(id) {
        cancelledBeforeWaiting.append(id)
      }
      return nil
    }
    continuation?.resume()
  }

  /// Removes `id` from `ids`, in no particular order; returns whether it was there.
  @discardableResult
  private static func remove(_ id: Int, from ids: inout [Int]) -> Bool {
    guard let index = ids.firstIndex(of: id) else { return false }
    ids.swapAt(index, ids.count - 1)
    ids.removeLast()
    return true
  }
}

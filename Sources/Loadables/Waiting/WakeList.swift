import Foundation

/// Tasks waiting to be woken (for a ``Connectivity`` to say online, for a paused timeout
/// to resume), behind one lock.
///
/// A task *enters* (takes an id) on the main actor, then *waits* with its continuation; a
/// cancellation may arrive at any moment from any thread: before the task waits (it then
/// resumes at once as it comes to wait) or while it waits (it is resumed there and then).
/// Each continuation is resumed exactly once, outside the lock.
///
/// The plainest of the waiting primitives: ``HandOffLine`` also hands each waiter a value,
/// decided under its lock, in priority order.
final class WakeList: @unchecked Sendable {
  // Safe to share: every stored property is read and written only while holding `lock`.
  private let lock = NSLock()
  private var waiting: [(id: Int, continuation: CheckedContinuation<Void, Never>)] = []
  private var entering: Set<Int> = []
  private var cancelledBeforeWaiting: Set<Int> = []
  private var nextID = 0

  var count: Int { lock.withLock { waiting.count + entering.count } }

  func enter() -> Int {
    lock.withLock {
      nextID += 1
      entering.insert(nextID)
      return nextID
    }
  }

  /// The task entered but will not wait: the source turned online.
  func leave(_ id: Int) {
    lock.withLock {
      entering.remove(id)
      cancelledBeforeWaiting.remove(id)
    }
  }

  func wait(_ id: Int, _ continuation: CheckedContinuation<Void, Never>) {
    let cancelled: Bool = lock.withLock {
      entering.remove(id)
      if cancelledBeforeWaiting.remove(id) != nil { return true }
      waiting.append((id, continuation))
      return false
    }
    if cancelled { continuation.resume() }
  }

  func cancel(_ id: Int) {
    let continuation: CheckedContinuation<Void, Never>? = lock.withLock {
      if let index = waiting.firstIndex(where: { $0.id == id }) {
        return waiting.remove(at: index).continuation
      }
      if entering.contains(id) { cancelledBeforeWaiting.insert(id) }
      return nil
    }
    continuation?.resume()
  }

  func resumeAll() {
    let resumed: [CheckedContinuation<Void, Never>] = lock.withLock {
      defer { waiting = [] }
      return waiting.map(\.continuation)
    }
    for continuation in resumed { continuation.resume() }
  }
}

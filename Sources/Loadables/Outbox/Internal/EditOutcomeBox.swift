import Foundation

/// Where the outcome of one edit meets the callers awaiting it (``EditTicket``): the outbox
/// writes the outcome once, callers wait for it, each until the stage it asked for.
///
/// Not isolated, so the outbox's `deinit` can end the waits of a store that went away, and a
/// cancelled caller can leave at once.
final class EditOutcomeBox: @unchecked Sendable {
  // @unchecked: every stored property below is read and written only while `lock` is held.
  private let lock = NSLock()
  private var outcome: EditOutcome?
  private var isQueued = false
  private var waiters: [Int: Waiter] = [:]
  private var nextWaiterID = 0

  private struct Waiter {
    let stage: EditTicket.Stage
    let continuation: CheckedContinuation<EditOutcome, Never>
  }

  /// The edit is durably queued: callers waiting for ``EditTicket/Stage/queued`` return.
  func markQueued() {
    let ready: [Waiter] = lock.withLock {
      guard outcome == nil, !isQueued else { return [] }
      isQueued = true
      // Most edits have no caller waiting: no dictionary is filtered for them.
      if waiters.isEmpty { return [] }
      let ready = waiters.filter { $0.value.stage == .queued }
      for id in ready.keys { waiters[id] = nil }
      return ready.sorted { $0.key < $1.key }.map(\.value)
    }
    for waiter in ready { waiter.continuation.resume(returning: .queued) }
  }

  /// The edit ended with `outcome` (the first end counts): every caller returns.
  func finish(_ outcome: EditOutcome) {
    let ready: [Waiter] = lock.withLock {
      guard self.outcome == nil else { return [] }
      self.outcome = outcome
      if waiters.isEmpty { return [] }
      let ready = waiters.sorted { $0.key < $1.key }.map(\.value)
      waiters = [:]
      return ready
    }
    for waiter in ready { waiter.continuation.resume(returning: outcome) }
  }

  /// Waits until `stage`; returns ``EditOutcome/unfinished`` at once when the caller is
  /// cancelled.
  func wait(until stage: EditTicket.Stage) async -> EditOutcome {
    let id = lock.withLock {
      nextWaiterID += 1
      return nextWaiterID
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<EditOutcome, Never>) in
        let ready: EditOutcome? = lock.withLock {
          if let outcome { return outcome }
          if stage == .queued, isQueued { return .queued }
          if Task.isCancelled { return .unfinished }
          waiters[id] = Waiter(stage: stage, continuation: continuation)
          return nil
        }
        if let ready { continuation.resume(returning: ready) }
      }
    } onCancel: {
      let waiter = lock.withLock { waiters.removeValue(forKey: id) }
      waiter?.continuation.resume(returning: .unfinished)
    }
  }
}

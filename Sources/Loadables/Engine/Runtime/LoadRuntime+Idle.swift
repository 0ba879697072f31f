// Joining a running load: waiting, from another task, until no load runs in the slot.

extension LoadRuntime {
  /// Returns once no load runs in this slot: at once when none does, otherwise when the
  /// running load (or whatever supersedes it) has ended. Cancelling the caller ends only its
  /// wait, never the load: a shared entry's fetch belongs to the entry.
  @usableFromInline final func untilIdle() async {
    guard running else { return }
    // The waiters live in the side object: most slots are never joined.
    let activity = activityObject()
    activity.nextIdleWaiterID += 1
    let id = activity.nextIdleWaiterID
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if running, !Task.isCancelled {
          activity.idleWaiters[id] = continuation
        } else {
          continuation.resume()
        }
      }
    } onCancel: {
      Task { @MainActor in self.resumeIdleWaiter(id) }
    }
  }

  private final func resumeIdleWaiter(_ id: Int) {
    activity?.idleWaiters.removeValue(forKey: id)?.resume()
  }

  /// Resumes whoever waits in ``untilIdle()``: the slot stopped running.
  @inline(__always)
  final func resumeIdleWaiters() {
    guard let activity, !activity.idleWaiters.isEmpty else { return }
    resumeIdleWaiters(of: activity)
  }

  private final func resumeIdleWaiters(of activity: SlotActivity) {
    let waiters = activity.idleWaiters
    activity.idleWaiters = [:]
    for waiter in waiters.values { waiter.resume() }
  }
}

// Joining a running load: waiting, from another task, until no load runs in the slot.

extension LoadRuntime {
  /// Returns once no load runs in this slot: at once when none does, otherwise when the
  /// running load (or whatever supersedes it) has ended. Cancelling the caller ends only its
  /// wait, never the load: a shared entry's fetch belongs to the entry.
  @usableFromInline final func untilIdle() async {
    guard running else { return }
    // The waiters live in the side object: most slots are never joined.
    let activity = activityObject()
    let waiters: WakeList
    if let existing = activity.idleWaiters {
      waiters = existing
    } else {
      waiters = WakeList()
      activity.idleWaiters = waiters
    }
    await waiters.wait(until: { !running })
  }

  /// Resumes whoever waits in ``untilIdle()``: the slot stopped running.
  @inline(__always)
  final func resumeIdleWaiters() {
    activity?.idleWaiters?.resumeAll()
  }
}

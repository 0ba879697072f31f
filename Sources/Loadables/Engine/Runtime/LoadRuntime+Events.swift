// A slot's load events (see `LoadEvents`): the start and end of each load that began while
// someone listened, and the waits inside it. What an end needs is kept in the side object
// (`LoadTrace`) from the load's start.

extension LoadRuntime {
  /// The load starting now reports its events: remember what its end will need, and report
  /// its start.
  ///
  /// The subject is worked out once per slot and kept: naming a state type or a key path
  /// builds a string, which cost more than the rest of an event.
  final func traceStart(silently: Bool) {
    let activity = activityObject()
    let subject = keptSubject(in: activity)
    let store = eventStoreID
    activity.trace = LoadTrace(
      subject: subject, storeID: store, stopwatch: Stopwatch(LoadClock.current),
      isSilent: silently)
    LoadEvents.report(.started, subject, isSilent: silently, store: store)
  }

  /// Reports a start that was ignored because a load runs
  /// (``LoadPolicy/ignoreStartsWhileRunning()-type.method``). The running load's trace is
  /// left as it is: its events go on.
  @usableFromInline final func reportIgnoredStart(silently: Bool) {
    guard LoadEvents.isOn else { return }
    LoadEvents.report(
      .ignored, keptSubject(in: activityObject()), isSilent: silently,
      detail: "a load was running", store: eventStoreID)
  }

  /// What this slot's events name it by, worked out on first use and kept in `activity`.
  private final func keptSubject(in activity: SlotActivity) -> LoadSubject {
    if let named = activity.subject { return named }
    let subject = eventSubject
    activity.subject = subject
    return subject
  }

  /// Reports the end of the current (traced) load as `kind`, once. A wait still under way
  /// (its load was stopped while it waited) reports its end first: every wait that began
  /// ends, and before the load it belongs to.
  @usableFromInline final func traceEnd(_ kind: LoadEventKind, error: (any Error)? = nil) {
    isTraced = false
    // Moved out, not copied: a copy would retain and release each of its references.
    let trace = activity?.trace.take()
    let subject = trace?.subject ?? eventSubject
    let store = trace?.storeID
    let isSilent = trace?.isSilent ?? false
    let attempt = currentAttempt?.number ?? trace?.attempt
    if let waits = trace?.waits {
      for open in waits.reversed() {
        LoadEvents.report(
          .waitEnded, subject, isSilent: isSilent, attempt: attempt,
          duration: open.stopwatch.elapsed, wait: open.wait, store: store)
      }
    }
    LoadEvents.report(
      kind, subject, isSilent: isSilent, attempt: attempt, duration: trace?.stopwatch.elapsed,
      error: error, store: store)
  }

  /// Reports that the current (traced) load began or ended a wait for `wait`, if the load
  /// holding `token` is still the running one. The wait is measured on `clock` (the clock the
  /// wait sleeps on), or on ``LoadClock/current`` when it has none.
  ///
  /// An end with no matching beginning is dropped: the load was stopped while it waited, and
  /// ``traceEnd(_:error:)`` reported the wait's end already, or the wait began before anyone
  /// listened.
  final func traceWait(
    _ wait: LoadWait, began: Bool, clock: (any Clock<Duration>)? = nil, for token: UInt64
  ) {
    guard isTraced, isCurrent(token), let activity, var trace = activity.trace else { return }
    if began {
      trace.waits.append((wait, Stopwatch(clock ?? LoadClock.current)))
      activity.trace = trace
      LoadEvents.report(
        .waitBegan, trace.subject, isSilent: trace.isSilent, attempt: currentAttempt?.number,
        wait: wait, store: trace.storeID)
    } else {
      guard let index = trace.waits.lastIndex(where: { $0.wait == wait }) else { return }
      let waited = trace.waits.remove(at: index).stopwatch.elapsed
      activity.trace = trace
      LoadEvents.report(
        .waitEnded, trace.subject, isSilent: trace.isSilent, attempt: currentAttempt?.number,
        duration: waited, wait: wait, store: trace.storeID)
    }
  }
}

/// What a load that reports its events keeps until its end: what its events name (worked
/// out once, at its start), when it started (on the load clock of its caller), whether it is
/// silent, the attempt it ended on, and the waits under way, each with when it began (on the
/// clock it waits on), innermost last.
struct LoadTrace {
  var subject: LoadSubject
  var storeID: ObjectIdentifier?
  var stopwatch: Stopwatch
  var isSilent: Bool
  var attempt: Int?
  var waits: [(wait: LoadWait, stopwatch: Stopwatch)] = []
}

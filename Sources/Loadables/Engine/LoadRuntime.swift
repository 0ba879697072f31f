public import Observation

/// The engine's runtime: the part that knows nothing about state types — which load is
/// current, what to cancel to stop it, and whether one is running. Each slot (one per
/// wrapped property, per key path on each instance, per shared entry) is a `LoadRuntime`
/// subclass that is also a ``LoadMachine`` over its state type.
///
/// Every wrapped property and every key path on every instance has exactly one slot. A slot
/// hands each load a *token* (its generation); a load may write only while its token is
/// current and its task is not cancelled. Starting, cancelling or resetting moves the
/// generation on, so a superseded load can never write again, even when its block ignores
/// cancellation.
///
/// Every stored property is `@exclusivity(unchecked)`: the engine's code is inlined into
/// your module, where the compiler cannot prove that no access overlaps another, so each
/// read and write of a slot's property would pay a dynamic exclusivity check (its cost is in
/// the Performance article, "Where the cost goes"). They need none: every access happens on
/// the main actor, in synchronous code that holds no access across a call into code that
/// could touch the same property (no `inout` of a slot's property is passed to a closure
/// that reads it).
@MainActor @usableFromInline
class LoadRuntime: Observable {
  /// The generation of the current load. Moves on whenever a load starts or is stopped.
  @exclusivity(unchecked) @usableFromInline final private(set) var generation: UInt64 = 0

  /// The task of a Task-returning load.
  @exclusivity(unchecked) private final var task: Task<Void, Never>?

  /// The task that fires the current load's interrupts.
  @exclusivity(unchecked) private final var interruptTimer: Task<Void, Never>?

  /// The child task in which an awaited load runs its block.
  ///
  /// An awaited load runs its block in a child task of the caller's task, so that stopping
  /// the load cancels that child and never the caller. Kept only while the child runs inside
  /// the engine, which clears it before the child returns; it is cancelled only from the
  /// main actor. Holding it longer would be unsafe, and the engine never does.
  @exclusivity(unchecked) private final var child: UnsafeCurrentTask?

  /// Whether a load is in flight, read without registering observation.
  @usableFromInline final var isBusy: Bool { running }

  // MARK: - What a load replaced
  //
  // `cancel()` never leaves a spinner with nothing running: it writes back the state the
  // load replaced, unless something was written since. The replaced state itself is generic
  // and lives in the state slot (`LoadMachine.replaced`); this is the bookkeeping around it.

  /// How many states the engine has written, wrapping; compared with ``startMark`` to tell
  /// whether anything was written since the current load started. Compared for equality
  /// only: 32 bits keep the slot small, and a false match would take exactly 2^32 writes
  /// during one load.
  @exclusivity(unchecked) @usableFromInline final var writeCount: UInt32 = 0

  /// ``writeCount`` just after the current load (or the load it superseded while its
  /// spinner was still on screen) wrote its start.
  @exclusivity(unchecked) @usableFromInline final var startMark: UInt32 = 0

  /// Whether the current load, or a superseded one whose spinner is still on screen, wrote
  /// the started state over the state it replaced.
  @exclusivity(unchecked) @usableFromInline final var shownStart = false

  /// Whether a failure of the current load keeps a loaded value on screen and shows the
  /// error as ``refreshError`` (``LoadPolicy/keepValueOnFailure()``).
  @exclusivity(unchecked) @usableFromInline final var keepsValue = false

  // Declared here, beside the other flags, so that they share one word of the slot.
  @exclusivity(unchecked) private final var running = false
  @exclusivity(unchecked) @usableFromInline final private(set) var isRunningObserved = false

  @usableFromInline nonisolated init() {}

  deinit {
    // The owner is gone: its load must not go on. `Task` is Sendable, so a nonisolated
    // deinit may cancel it. An awaited load keeps its slot alive, so `child` is nil here.
    task?.cancel()
    interruptTimer?.cancel()
  }

  /// Whether a load is in flight. Reading it under observation tracking registers the
  /// observer.
  @usableFromInline final var isRunning: Bool {
    isRunningObserved = true
    observe(\LoadRuntime.runningMarker)
    return running
  }

  /// The key that `isRunning` is observed under.
  nonisolated final var runningMarker: Int { 0 }

  // MARK: - Progress

  private final var currentProgress: LoadingProgress? { activity?.progress }
  @exclusivity(unchecked) @usableFromInline final private(set) var isProgressObserved = false

  /// The progress the running load last reported; `nil` when it reported none or no load
  /// runs. Reading it under observation tracking registers the observer.
  @usableFromInline final var progress: LoadingProgress? {
    observeSide(&isProgressObserved, \LoadRuntime.progressMarker)
    return currentProgress
  }

  /// The key that `progress` is observed under.
  nonisolated final var progressMarker: Int { 0 }

  /// Shows `progress` if the load holding `token` is still the running one.
  final func setProgress(_ progress: LoadingProgress?, for token: UInt64) {
    if isCurrent(token) { updateProgress(progress) }
  }

  private final func updateProgress(_ progress: LoadingProgress?) {
    guard currentProgress != progress else { return }
    writeSide(\LoadRuntime.progressMarker, observed: isProgressObserved) { $0.progress = progress }
  }

  /// Registers the current observer (if any) of the value kept under `marker`.
  private final func observe(_ marker: KeyPath<LoadRuntime, Int>) {
    activityObject().registrar.access(self, keyPath: marker)
  }

  private final func activityObject() -> SlotActivity {
    if let activity { return activity }
    let created = SlotActivity()
    activity = created
    return created
  }

  /// Makes `change` to the value kept under `marker`, telling its observers if it has any.
  ///
  /// The marker is only made when someone observes it: evaluating a key-path literal costs a
  /// call into the key-path runtime, twice a load for `isRunning`.
  private final func mutate(
    _ marker: @autoclosure () -> KeyPath<LoadRuntime, Int>, observed: Bool, _ change: () -> Void
  ) {
    if observed, let activity {
      activity.registrar.withMutation(of: self, keyPath: marker(), change)
    } else {
      change()
    }
  }

  /// Marks a value shown beside the state (`progress`, `attempt`, `isWaitingForNetwork`,
  /// `refreshError`) observed (`flag`) and registers the current observer of its `marker`:
  /// its writes tell observers from then on.
  private final func observeSide(_ flag: inout Bool, _ marker: KeyPath<LoadRuntime, Int>) {
    flag = true
    observe(marker)
  }

  /// Writes a value shown beside the state into the side object, telling the observers of
  /// its `marker` if it has any.
  private final func writeSide(
    _ marker: @autoclosure () -> KeyPath<LoadRuntime, Int>, observed: Bool,
    _ write: (SlotActivity) -> Void
  ) {
    mutate(marker(), observed: observed) { write(activityObject()) }
  }

  // MARK: - Retry attempts

  private final var currentAttempt: RetryAttempt? { activity?.attempt }
  @exclusivity(unchecked) @usableFromInline final private(set) var isAttemptObserved = false

  /// The attempt a retry policy is running or waiting to run; `nil` when the running load
  /// has no retry policy or no load runs. Reading it under observation tracking registers
  /// the observer.
  @usableFromInline final var attempt: RetryAttempt? {
    observeSide(&isAttemptObserved, \LoadRuntime.attemptMarker)
    return currentAttempt
  }

  /// The key that `attempt` is observed under.
  nonisolated final var attemptMarker: Int { 0 }

  /// Shows `attempt` if the load holding `token` is still the running one.
  final func setAttempt(_ attempt: RetryAttempt?, for token: UInt64) {
    if isCurrent(token) { updateAttempt(attempt) }
  }

  private final func updateAttempt(_ attempt: RetryAttempt?) {
    if attempt == nil, currentAttempt == nil { return }
    writeSide(\LoadRuntime.attemptMarker, observed: isAttemptObserved) { $0.attempt = attempt }
  }

  // MARK: - Waiting for the network

  private final var currentlyWaitingForNetwork: Bool { activity?.isWaitingForNetwork ?? false }
  @exclusivity(unchecked) @usableFromInline final private(set) var isWaitingObserved = false

  /// Whether the running load waits for the network (``LoadPolicy/waitsForNetwork(_:)``);
  /// `false` when no load runs. Reading it under observation tracking registers the
  /// observer.
  @usableFromInline final var isWaitingForNetwork: Bool {
    observeSide(&isWaitingObserved, \LoadRuntime.waitingMarker)
    return currentlyWaitingForNetwork
  }

  /// The key that `isWaitingForNetwork` is observed under.
  nonisolated final var waitingMarker: Int { 0 }

  /// Shows whether the load holding `token` waits for the network, if it is still the
  /// running one.
  final func setWaitingForNetwork(_ waiting: Bool, for token: UInt64) {
    if isCurrent(token) { updateWaitingForNetwork(waiting) }
  }

  private final func updateWaitingForNetwork(_ waiting: Bool) {
    guard currentlyWaitingForNetwork != waiting else { return }
    writeSide(\LoadRuntime.waitingMarker, observed: isWaitingObserved) {
      $0.isWaitingForNetwork = waiting
    }
  }

  // MARK: - Refresh errors

  /// The refresh error on show, read without registering observation.
  @usableFromInline final var currentRefreshError: (any Error)? { activity?.refreshError }

  /// Whether a refresh error is on show; a key-path slot keeps its place in the table
  /// while one is.
  final var hasRefreshError: Bool { currentRefreshError != nil }
  @exclusivity(unchecked) @usableFromInline final private(set) var isRefreshErrorObserved = false

  /// Whether anything watches the states this slot writes. (Declared beside the other flags,
  /// so that they share one word of the slot.)
  @exclusivity(unchecked) @usableFromInline final private(set) var isWatched = false

  /// Whether the current load reports its events: someone listened to ``LoadEvents`` when it
  /// started. Cleared once its end is reported, so a load reports exactly one end. (Declared
  /// beside the other flags, so that they share one word of the slot.)
  @exclusivity(unchecked) @usableFromInline final var isTraced = false

  /// The error of the last load that failed while a loaded value stayed on screen (a load
  /// with ``LoadPolicy/keepValueOnFailure()``); `nil` after a success, `reset()` or an
  /// assignment. Reading it under observation tracking registers the observer.
  @usableFromInline final var refreshError: (any Error)? {
    observeSide(&isRefreshErrorObserved, \LoadRuntime.refreshErrorMarker)
    return currentRefreshError
  }

  /// The key that `refreshError` is observed under.
  nonisolated final var refreshErrorMarker: Int { 0 }

  /// Shows `error` beside the state, or clears it.
  @usableFromInline final func setRefreshError(_ error: (any Error)?) {
    if error == nil, currentRefreshError == nil { return }
    writeSide(\LoadRuntime.refreshErrorMarker, observed: isRefreshErrorObserved) {
      $0.refreshError = error
    }
  }

  // MARK: - Joining a running load

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

  @inline(__always)
  private final func resumeIdleWaiters() {
    guard let activity, !activity.idleWaiters.isEmpty else { return }
    resumeIdleWaiters(of: activity)
  }

  private final func resumeIdleWaiters(of activity: SlotActivity) {
    let waiters = activity.idleWaiters
    activity.idleWaiters = [:]
    for waiter in waiters.values { waiter.resume() }
  }

  // MARK: - Following a shared entry

  /// The subscription through which this slot mirrors a shared entry's states (see
  /// `SharedLoader`); released — which ends it — when this slot starts or stops a load of
  /// its own, and with the slot. Kept in the side object: most slots never follow one.
  final var following: AnyObject? {
    get { activity?.following }
    set {
      if newValue == nil, activity?.following == nil { return }
      activityObject().following = newValue
      followedStatusChanged()
    }
  }

  /// The slot of the entry this slot follows, whose status its handle shows; `nil` when it
  /// follows none.
  final var followedRuntime: LoadRuntime? { (activity?.following as? SharedFollow)?.runtime }

  /// A handle shows the followed entry's status while its slot follows one: tells whoever
  /// observes this slot's status that what it shows may have changed.
  private final func followedStatusChanged() {
    if isRunningObserved { mutate(\LoadRuntime.runningMarker, observed: true) {} }
    if isProgressObserved { mutate(\LoadRuntime.progressMarker, observed: true) {} }
    if isAttemptObserved { mutate(\LoadRuntime.attemptMarker, observed: true) {} }
    if isWaitingObserved { mutate(\LoadRuntime.waitingMarker, observed: true) {} }
    if isRefreshErrorObserved { mutate(\LoadRuntime.refreshErrorMarker, observed: true) {} }
  }

  // MARK: - Watchers

  /// What the slot shows beside its state, and the registrar its observers use; created on
  /// first use, so that a slot nobody observes and no load reports to stays small.
  /// (Declared after the flags above, so that they share one word of the slot.)
  @exclusivity(unchecked) private final var activity: SlotActivity?

  /// Calls every watcher with a state the engine just wrote.
  @usableFromInline final func notifyWatchers(_ state: Any) {
    guard let watchers = activity?.watchers else { return }
    for watcher in watchers { watcher.callback(state) }
  }

  /// Adds a callback that sees every state this slot writes, in order; returns its id.
  final func addWatcher(_ callback: @escaping @MainActor (Any) -> Void) -> Int {
    let activity = activityObject()
    activity.nextWatcherID += 1
    activity.watchers.append((activity.nextWatcherID, callback))
    isWatched = true
    return activity.nextWatcherID
  }

  /// Removes a watcher; an idle slot nobody watches may then leave its table.
  final func removeWatcher(_ id: Int) {
    guard let activity else { return }
    activity.watchers.removeAll { $0.id == id }
    isWatched = !activity.watchers.isEmpty
    if !running { didBecomeIdle() }
  }

  /// Called after the slot stops running. The key-path slots use it to leave their table.
  @usableFromInline func didBecomeIdle() {}

  /// The object whose property this slot writes, held weakly (`nil` once it is gone), for
  /// the slots that hold one (the key-path slots); `nil` for the others.
  @usableFromInline var ownerObject: AnyObject? { nil }

  // MARK: - Events

  /// What this slot's events name it by. Each kind of slot says; a plain stored slot is a
  /// property.
  @usableFromInline var eventSubject: LoadSubject {
    LoadSubject(form: .property, name: "\(type(of: self))", objectID: ObjectIdentifier(self))
  }

  /// The store whose entry this slot runs, for its events' ``LoadEvent/storeID``; `nil` for
  /// every slot but a shared entry's.
  @usableFromInline var eventStoreID: ObjectIdentifier? { nil }

  /// The load starting now reports its events: remember what its end will need, and report
  /// its start.
  ///
  /// The subject is worked out once per slot and kept: naming a state type or a key path
  /// builds a string, which cost more than the rest of an event.
  private final func traceStart(silently: Bool) {
    let activity = activityObject()
    let subject: LoadSubject
    if let named = activity.subject {
      subject = named
    } else {
      subject = eventSubject
      activity.subject = subject
    }
    let store = eventStoreID
    activity.trace = LoadTrace(
      subject: subject, storeID: store, stopwatch: Stopwatch(LoadClock.current),
      isSilent: silently)
    LoadEvents.report(.started, subject, isSilent: silently, store: store)
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

  // MARK: - The life of one load

  /// Supersedes the current load and returns the token of a new one, which is `silently`
  /// started (for the events; see ``LoadEvents``).
  @usableFromInline final func begin(silently: Bool) -> UInt64 {
    if isTraced, running { traceEnd(.superseded) }
    cancelWork()
    following = nil
    if currentProgress != nil { updateProgress(nil) }
    if currentAttempt != nil { updateAttempt(nil) }
    if currentlyWaitingForNetwork { updateWaitingForNetwork(false) }
    generation &+= 1
    setRunning(true)
    isTraced = LoadEvents.isOn
    if isTraced { traceStart(silently: silently) }
    return generation
  }

  /// Whether the load holding `token` is still the running one.
  @usableFromInline final func isCurrent(_ token: UInt64) -> Bool {
    token == generation && running
  }

  /// Whether the load holding `token` may write now.
  @usableFromInline final func accepts(_ token: UInt64) -> Bool {
    token == generation && !Task.isCancelled
  }

  @usableFromInline final func attach(task: Task<Void, Never>, to token: UInt64) {
    guard isCurrent(token) else { return }
    self.task = task
  }

  /// Registers the child task an awaited load runs in. Returns `false` when the load was
  /// stopped before its child started: the block must then not run.
  @usableFromInline final func attach(child: UnsafeCurrentTask?, to token: UInt64) -> Bool {
    guard isCurrent(token) else { return false }
    self.child = child
    return true
  }

  @usableFromInline final func attach(interruptTimer: Task<Void, Never>, to token: UInt64) {
    guard isCurrent(token) else {
      interruptTimer.cancel()
      return
    }
    self.interruptTimer = interruptTimer
  }

  /// Ends the load holding `token` from inside: it returned or threw. Returns whether it was
  /// still the current load, and so may write its outcome; the caller then writes it and
  /// calls ``didBecomeIdle()``.
  @usableFromInline final func end(_ token: UInt64) -> Bool {
    guard isCurrent(token) else { return false }
    task = nil
    child = nil
    interruptTimer?.cancel()
    interruptTimer = nil
    setRunning(false)
    return true
  }

  /// Stops the current load from outside: cancels its work and makes sure it never writes.
  /// A running load's end is reported (see ``LoadEvents``) as `ending`, with `error`.
  @usableFromInline final func stop(_ ending: LoadEventKind = .cancelled, error: (any Error)? = nil)
  {
    generation &+= 1
    cancelWork()
    following = nil
    if running {
      setRunning(false)
      didBecomeIdle()
      if isTraced { traceEnd(ending, error: error) }
    }
  }

  /// Stops the current load, as ``stop()`` does, and follows a shared entry through
  /// `subscription` from now on. A key-path slot stays in its table while it follows.
  final func stop(following subscription: AnyObject) {
    generation &+= 1
    cancelWork()
    following = subscription
    if running {
      setRunning(false)
      didBecomeIdle()
      if isTraced { traceEnd(.cancelled) }
    }
  }

  @inline(__always)
  private final func cancelWork() {
    if let task {
      task.cancel()
      self.task = nil
    }
    if let child {
      child.cancel()
      self.child = nil
    }
    if let interruptTimer {
      interruptTimer.cancel()
      self.interruptTimer = nil
    }
  }

  private final func setRunning(_ value: Bool) {
    guard running != value else { return }
    guard activity != nil else {
      // No side object: nobody observes `isRunning`, and no progress, attempt or waiter
      // can be there to clear.
      running = value
      return
    }
    if !value {
      if currentProgress != nil { updateProgress(nil) }
      if let currentAttempt {
        // The attempt the load ends on, for its end event.
        if isTraced { activity?.trace?.attempt = currentAttempt.number }
        updateAttempt(nil)
      }
      if currentlyWaitingForNetwork { updateWaitingForNetwork(false) }
    }
    mutate(\LoadRuntime.runningMarker, observed: isRunningObserved) { running = value }
    if !value { resumeIdleWaiters() }
  }
}

/// What a slot shows beside its state — the running load's progress and retry attempt, and
/// the error of a failed refresh that kept its value — and the registrar through which
/// `isRunning`, `progress`, `attempt` and `refreshError` are observed; and the watchers (the
/// testing recorder) that see every state written, which only some slots have.
@MainActor
final class SlotActivity {
  let registrar = ObservationRegistrar()
  @exclusivity(unchecked) var watchers: [(id: Int, callback: @MainActor (Any) -> Void)] = []
  @exclusivity(unchecked) var nextWatcherID = 0
  @exclusivity(unchecked) var progress: LoadingProgress?
  @exclusivity(unchecked) var attempt: RetryAttempt?
  @exclusivity(unchecked) var isWaitingForNetwork = false
  @exclusivity(unchecked) var refreshError: (any Error)?
  /// Callers waiting for the running load to end (`untilIdle()`), by id.
  @exclusivity(unchecked) var idleWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
  @exclusivity(unchecked) var nextIdleWaiterID = 0
  /// The shared entry this slot follows, if any.
  @exclusivity(unchecked) var following: AnyObject?
  /// What the events of the current load need at its end, while it reports them.
  @exclusivity(unchecked) var trace: LoadTrace?
  /// What this slot's events name it by, once a load of it has reported one.
  @exclusivity(unchecked) var subject: LoadSubject?
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

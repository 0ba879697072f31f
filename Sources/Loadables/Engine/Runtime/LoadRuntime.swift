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
/// This file holds the slot's stored properties and the life of one load; the values shown
/// beside the state are in `LoadRuntime+SideValues.swift`, the events in
/// `LoadRuntime+Events.swift`, the watchers in `LoadRuntime+Watchers.swift` and joining a
/// running load in `LoadRuntime+Idle.swift`.
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
  // The stored properties, in the order that packs them: the flags share one word, and come
  // last, so that a subclass's first word starts in the bytes they leave free.

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

  /// What the slot shows beside its state, and the registrar its observers use; created on
  /// first use (``activityObject()``), so that a slot nobody observes and no load reports to
  /// stays small.
  @exclusivity(unchecked) final private(set) var activity: SlotActivity?

  // `cancel()` never leaves a spinner with nothing running: it writes back the state the
  // load replaced, unless something was written since. The replaced state itself is generic
  // and lives in the state slot (`LoadMachine.replaced`); the next four are the bookkeeping
  // around it.

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

  /// Whether a load is in flight (``isRunning`` reads it under observation).
  @exclusivity(unchecked) final private(set) var running = false

  /// Whether anything read ``isRunning``; the side values' flags follow
  /// (`LoadRuntime+SideValues.swift`): a write tells observers only once one was read.
  @exclusivity(unchecked) @usableFromInline final private(set) var isRunningObserved = false
  /// Which of the values shown beside the state anything has read (``progress``,
  /// ``attempt``, ``waiting``, ``refreshError``): one bit each, in one byte, so that the
  /// runtime's fields end before the word a subclass's first field takes.
  @exclusivity(unchecked) @usableFromInline final var observedSides: ObservedSides = []

  /// Whether anything watches the states this slot writes.
  @exclusivity(unchecked) @usableFromInline final var isWatched = false

  /// Whether the current load reports its events: someone listened to ``LoadEvents`` when it
  /// started. Cleared once its end is reported, so a load reports exactly one end.
  @exclusivity(unchecked) @usableFromInline final var isTraced = false

  /// Whether the slot's state and its load's task live in storage its caller owns (a binding
  /// made with `Binding(state:task:)`, see `CallerStorage.swift`): then starting, attaching
  /// and stopping a load also tell ``taskStorageWillStart()``, ``taskStorageDidAttach(_:)``
  /// and ``taskStorageDidStop()``. In the byte the other flags leave free, so no slot grows.
  @exclusivity(unchecked) @usableFromInline final var usesCallerStorage = false

  @usableFromInline nonisolated init() {}

  deinit {
    // The owner is gone: its load must not go on. `Task` is Sendable, so a nonisolated
    // deinit may cancel it. An awaited load keeps its slot alive, so `child` is nil here.
    task?.cancel()
    interruptTimer?.cancel()
  }

  /// Whether a load is in flight, read without registering observation.
  @usableFromInline final var isBusy: Bool { running }

  /// Whether a load is in flight. Reading it under observation tracking registers the
  /// observer.
  @usableFromInline final var isRunning: Bool {
    isRunningObserved = true
    observe(\LoadRuntime.runningMarker)
    return running
  }

  /// The key that `isRunning` is observed under.
  nonisolated final var runningMarker: Int { 0 }

  // MARK: - What each kind of slot says

  /// Called after the slot stops running. The key-path slots use it to leave their table.
  @usableFromInline func didBecomeIdle() {}

  /// The object whose property this slot writes, held weakly (`nil` once it is gone), for
  /// the slots that hold one (the key-path slots); `nil` for the others.
  @usableFromInline var ownerObject: AnyObject? { nil }

  /// A load is starting: a slot with task storage of its caller's cancels the task kept
  /// there (see ``usesCallerStorage``).
  @usableFromInline func taskStorageWillStart() {}

  /// A load's task was attached: a slot with task storage of its caller's keeps it there.
  @usableFromInline func taskStorageDidAttach(_ task: Task<Void, Never>) {}

  /// The current load was stopped from outside: a slot with task storage of its caller's
  /// cancels the task kept there and empties it.
  @usableFromInline func taskStorageDidStop() {}

  /// What this slot's events name it by. Each kind of slot says; a plain stored slot is a
  /// property.
  @usableFromInline var eventSubject: LoadSubject {
    LoadSubject(form: .property, name: "\(type(of: self))", objectID: ObjectIdentifier(self))
  }

  /// The store whose entry this slot runs, for its events' ``LoadEvent/storeID``; `nil` for
  /// every slot but a shared entry's.
  @usableFromInline var eventStoreID: ObjectIdentifier? { nil }

  // MARK: - Observing

  /// The side object, made on first use.
  final func activityObject() -> SlotActivity {
    if let activity { return activity }
    let created = SlotActivity()
    activity = created
    return created
  }

  /// Registers the current observer (if any) of the value kept under `marker`.
  final func observe(_ marker: KeyPath<LoadRuntime, Int>) {
    activityObject().registrar.access(self, keyPath: marker)
  }

  /// Makes `change` to the value kept under `marker`, telling its observers if it has any.
  ///
  /// The marker is only made when someone observes it: evaluating a key-path literal costs a
  /// call into the key-path runtime, twice a load for `isRunning`.
  final func mutate(
    _ marker: @autoclosure () -> KeyPath<LoadRuntime, Int>, observed: Bool, _ change: () -> Void
  ) {
    if observed, let activity {
      activity.registrar.withMutation(of: self, keyPath: marker(), change)
    } else {
      change()
    }
  }

  // MARK: - The life of one load

  /// Supersedes the current load and returns the token of a new one, which is `silently`
  /// started (for the events; see ``LoadEvents``).
  @usableFromInline final func begin(silently: Bool) -> UInt64 {
    if isTraced, running { traceEnd(.superseded) }
    cancelWork()
    if usesCallerStorage { taskStorageWillStart() }
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
    if usesCallerStorage { taskStorageDidAttach(task) }
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
    if usesCallerStorage { taskStorageDidStop() }
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

/// The values a slot shows beside its state that anything has read, one bit each
/// (``LoadRuntime/observedSides``): a write tells observers only once one was read.
@usableFromInline
struct ObservedSides: OptionSet {
  @usableFromInline let rawValue: UInt8

  @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }

  /// ``LoadRuntime/progress`` was read.
  @inlinable static var progress: ObservedSides { ObservedSides(rawValue: 1) }
  /// ``LoadRuntime/attempt`` was read.
  @inlinable static var attempt: ObservedSides { ObservedSides(rawValue: 2) }
  /// Whether the load waits for the network was read.
  @inlinable static var waiting: ObservedSides { ObservedSides(rawValue: 4) }
  /// ``LoadRuntime/refreshError`` was read.
  @inlinable static var refreshError: ObservedSides { ObservedSides(rawValue: 8) }
}

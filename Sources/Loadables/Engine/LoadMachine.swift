/// The engine's state machine: the one place every form (wrappers, key-path protocols,
/// loaders, shared entries, pages) starts, supersedes, finishes, cancels and resets a load of
/// one state, on top of a slot's ``LoadRuntime``.
///
/// Conforming classes only say where the state lives (``read()`` and ``write(_:)``);
/// everything else — starting, superseding, writing outcomes, yields, control errors,
/// interrupts, cancel and reset — happens here, once. It is a protocol extension rather
/// than a generic base class so that each form's calls are dispatched statically and
/// specialised, in the caller's module, for the concrete state type (`@inlinable`).
@MainActor @usableFromInline
protocol LoadMachine: LoadRuntime, StateAccess where State: EngineState {
  /// How a running load refers to its slot: weakly when the slot is its owner's storage (so
  /// releasing the owner releases the slot, whose `deinit` cancels the load), strongly when
  /// the slot only holds its owner weakly itself.
  associatedtype Reference: SlotReference where Reference.Slot == Self

  /// A reference to this slot for a running load to hold.
  var reference: Reference { get }

  /// The state on screen before the current load started — or before the first of a run of
  /// loads that superseded one another while the spinner stayed up: what ``cancel()``
  /// writes back, and what a failed refresh that keeps its value falls back to. `nil` when
  /// no load runs (or a silent load has no need of it).
  var replaced: State? { get set }

  /// A load ended with `state`, equal to the state on screen, which the engine therefore did
  /// not write. A slot that must still see the load's result (a shared entry records when
  /// it fetched) handles it here; others need do nothing.
  func wroteUnchanged(_ state: State)
}

extension LoadMachine {
  /// Nothing to do: the state on screen is the load's result already.
  @inlinable func wroteUnchanged(_ state: State) {}
}

extension LoadMachine {
  // MARK: - Starting

  /// Starts a load in a new `Task` and returns that task.
  @inlinable @inline(__always)
  func launch(
    _ context: State.Context,
    silently: Bool,
    keepingValue: Bool = false,
    priority: TaskPriority?,
    interrupts: Interrupts?,
    work: Work<State>
  ) -> Task<Void, Never> {
    launch(
      context, silently: silently, keepingValue: keepingValue, priority: priority,
      interrupts: interrupts, work: work, through: self)
  }

  /// Starts a load in a new `Task` and returns that task; the start reads and writes the
  /// state through `access` (see ``StateAccess``).
  @inlinable
  func launch(
    _ context: State.Context,
    silently: Bool,
    keepingValue: Bool = false,
    priority: TaskPriority?,
    interrupts: Interrupts?,
    work: Work<State>,
    through access: some StateAccess<State>
  ) -> Task<Void, Never> {
    if isProgressObserved {
      return launchReportingProgress(
        context, silently: silently, keepingValue: keepingValue, priority: priority,
        interrupts: interrupts, work: work)
    }
    let token = start(context, silently: silently, keepingValue: keepingValue, through: access)
    return spawn(token, context, priority: priority, interrupts: interrupts, work: work)
  }

  /// Creates the task of a `Task`-returning load and registers it (and its interrupts) with
  /// the slot.
  @inlinable
  func spawn(
    _ token: UInt64,
    _ context: State.Context,
    priority: TaskPriority?,
    interrupts: Interrupts?,
    work: Work<State>
  ) -> Task<Void, Never> {
    let slot = reference
    let task = Task(priority: priority) {
      await Self.execute(slot, token, context, work)
    }
    attach(task: task, to: token)
    if let interrupts { startInterrupts(interrupts, token, context) }
    return task
  }

  /// Runs a returning load for an awaiting caller and returns once the load has stopped.
  ///
  /// The block runs in a child task of the caller's task (see ``inChild(_:_:)``), registered
  /// with the slot: `cancel()`, `reset()` and a newer load stop it by cancelling that child,
  /// never the caller, and cancelling the caller cancels the child. The block never
  /// escapes this call, so the caller's closure needs no heap allocation of its own.
  @inlinable
  func perform(
    _ context: State.Context,
    silently: Bool,
    keepingValue: Bool = false,
    interrupts: Interrupts?,
    returning block: @MainActor () async throws -> State.Output
  ) async {
    if isProgressObserved {
      await performReportingProgress(
        context, silently: silently, keepingValue: keepingValue, interrupts: interrupts,
        returning: block)
      return
    }
    let token = startAwaited(
      context, silently: silently, keepingValue: keepingValue, interrupts: interrupts)
    await inChild(token) {
      // Written out rather than through `finish`: one closure fewer on the hottest path.
      do {
        conclude(token, writing: .completed(try await block(), context))
      } catch {
        conclude(token, failure: error, context)
      }
    }
  }

  /// Runs a yielding load in the caller's task and returns when its block has returned or
  /// thrown; see ``perform(_:silently:interrupts:returning:)``.
  @inlinable
  func perform(
    _ context: State.Context,
    silently: Bool,
    interrupts: Interrupts?,
    yielding block: @MainActor (_ yield: (State) -> Void) async throws -> Void
  ) async {
    if isProgressObserved {
      await performReportingProgress(
        context, silently: silently, interrupts: interrupts, yielding: block)
      return
    }
    let token = startAwaited(
      context, silently: silently, keepingValue: false, interrupts: interrupts)
    await inChild(token) {
      do {
        try await block { yield($0, for: token) }
        conclude(token, writing: nil)
      } catch {
        conclude(token, failure: error, context)
      }
    }
  }

  /// Runs `body` — an awaited load's block and the writing of its outcome — in a child task
  /// of the caller's task, registered with the slot as the load's task, and returns when
  /// that child has finished.
  ///
  /// The child is what stopping the load cancels, so the caller's own task is never
  /// cancelled by it: code after the caller's `await` runs uncancelled, and a second
  /// awaited load in the same task works as the first did. Cancelling the caller cancels
  /// the child, as it cancels any child task. A load stopped before its child starts never
  /// runs its block.
  @inlinable @inline(__always)
  func inChild(_ token: UInt64, _ body: @MainActor () async -> Void) async {
    async let child: Void = runAsChild(token, body)
    await child
  }

  /// The body of ``inChild(_:_:)``'s child task: registers it, then runs `body` unless the
  /// load was stopped first.
  @inlinable @inline(__always)
  func runAsChild(_ token: UInt64, _ body: @MainActor () async -> Void) async {
    guard withUnsafeCurrentTask(body: { attach(child: $0, to: token) }) else { return }
    await body()
  }

  /// Runs `operation` (a load's block, wrapped by the progress paths) in the caller's task
  /// and writes its outcome: the state it returns (`nil` for a yielding block), or what the
  /// error it throws asks for.
  @inlinable
  func finish(
    _ token: UInt64,
    _ context: State.Context,
    _ operation: @MainActor () async throws -> State?
  ) async {
    do {
      conclude(token, writing: try await operation())
    } catch {
      conclude(token, failure: error, context)
    }
  }

  /// Writes a state a yielding block yields, if its load may still write.
  @inlinable @inline(__always)
  func yield(_ state: State, for token: UInt64) {
    guard accepts(token) else { return }
    emit(state)
  }

  /// Supersedes the current load, writes the started state (unless `silently`, or it is
  /// already there) and returns the new load's token.
  ///
  /// Remembers the state the load replaces (``replaced``), so that ``cancel()`` can bring
  /// it back. When the load it supersedes left its spinner on screen, nothing was written
  /// since, and that spinner is still what the state shows, the state *that* load replaced
  /// is the one remembered: cancelling a restarted load brings back what was there before
  /// the first spinner. The last check catches writes the engine cannot see (a plain
  /// assignment to a key-path property): after one, what is shown is what the new load
  /// replaces.
  @inlinable @inline(__always)
  func start(_ context: State.Context, silently: Bool, keepingValue: Bool = false) -> UInt64 {
    start(context, silently: silently, keepingValue: keepingValue, through: self)
  }

  /// ``start(_:silently:keepingValue:)``, reading and writing the state through `access`.
  @inlinable
  func start(
    _ context: State.Context,
    silently: Bool,
    keepingValue: Bool = false,
    through access: some StateAccess<State>
  ) -> UInt64 {
    // The superseded load's spinner is up and the engine wrote nothing since; whether it is
    // still what the state shows is asked of the state read below (stopping the old load
    // writes nothing), so a restart reads the state once.
    let chained = isBusy && shownStart && writeCount == startMark
    let token = begin(silently: silently)
    keepsValue = keepingValue
    if silently {
      if !(chained && access.read()?.isAnyStarted == true) {
        shownStart = false
        // A silent load changes nothing on screen; only keeping a value needs to know it.
        replaced = keepingValue ? access.read() : nil
      }
    } else if let current = access.read() {
      if !(chained && current.isAnyStarted) {
        shownStart = false
        replaced = current
      }
      if !current.isStarted(context) {
        emit(.started(context), through: access)
        shownStart = true
      }
    }
    startMark = writeCount
    return token
  }

  /// Starts an awaited load and its interrupts; the caller then runs it with
  /// ``inChild(_:_:)``.
  @inlinable
  func startAwaited(
    _ context: State.Context,
    silently: Bool,
    keepingValue: Bool,
    interrupts: Interrupts?
  ) -> UInt64 {
    let token = start(context, silently: silently, keepingValue: keepingValue)
    if let interrupts { startInterrupts(interrupts, token, context) }
    return token
  }

  // MARK: - Running

  /// Runs a `Task`-returning load's block. The slot is held through `slot`, which never
  /// keeps its owner alive.
  ///
  /// Inlined into the task's closure: as a function of its own it cost the task a second
  /// async frame and a hop check on entry on every load.
  @inlinable @inline(__always)
  static func execute(
    _ slot: Reference,
    _ token: UInt64,
    _ context: State.Context,
    _ work: Work<State>
  ) async {
    do {
      switch work {
      case .returning(let block):
        let output = try await block()
        slot.value?.conclude(token, writing: .completed(output, context))
      case .yielding(let block):
        try await block { slot.value?.yield($0, for: token) }
        slot.value?.conclude(token, writing: nil)
      }
    } catch {
      slot.value?.conclude(token, failure: error, context)
    }
  }

  // MARK: - Progress

  // A load reports progress through a task-local target (the slot and the load's token),
  // bound only for loads that start after someone read the slot's `progress`. These paths
  // are deliberately not inlined: binding the task-local value costs more than the rest of
  // a load's bookkeeping, and keeping a second call site of the block out of the caller's
  // code keeps the common path as cheap as it was.

  /// ``launch(_:silently:priority:interrupts:work:)`` with the new task inheriting the load's
  /// progress target.
  @usableFromInline
  func launchReportingProgress(
    _ context: State.Context,
    silently: Bool,
    keepingValue: Bool,
    priority: TaskPriority?,
    interrupts: Interrupts?,
    work: Work<State>
  ) -> Task<Void, Never> {
    let token = start(context, silently: silently, keepingValue: keepingValue)
    // The new task inherits the task-local target bound around its creation.
    return LoadScope.current.withValue(SlotProgress(reference, token)) {
      spawn(token, context, priority: priority, interrupts: interrupts, work: work)
    }
  }

  /// ``perform(_:silently:keepingValue:interrupts:returning:)`` with the load's progress
  /// target bound.
  @usableFromInline
  func performReportingProgress(
    _ context: State.Context,
    silently: Bool,
    keepingValue: Bool,
    interrupts: Interrupts?,
    returning block: @MainActor () async throws -> State.Output
  ) async {
    let token = startAwaited(
      context, silently: silently, keepingValue: keepingValue, interrupts: interrupts)
    await inChild(token) {
      await finish(token, context) {
        .completed(
          try await LoadScope.current.withValue(SlotProgress(reference, token), operation: block),
          context)
      }
    }
  }

  /// ``perform(_:silently:interrupts:yielding:)`` with the load's progress target bound.
  @usableFromInline
  func performReportingProgress(
    _ context: State.Context,
    silently: Bool,
    interrupts: Interrupts?,
    yielding block: @MainActor (_ yield: (State) -> Void) async throws -> Void
  ) async {
    let token = startAwaited(
      context, silently: silently, keepingValue: false, interrupts: interrupts)
    await inChild(token) {
      await finish(token, context) {
        try await LoadScope.current.withValue(SlotProgress(reference, token)) {
          try await block { yield($0, for: token) }
        }
        return nil
      }
    }
  }

  /// The block returned: write `state` if this load is still current. A load whose task
  /// was cancelled (its `Task`, or an awaiting caller, was cancelled) writes back what it
  /// replaced instead.
  @inlinable
  func conclude(_ token: UInt64, writing state: State?) {
    let cancelled = Task.isCancelled
    guard end(token) else { return }
    defer {
      didBecomeIdle()
      if isTraced { traceEnd(cancelled ? .cancelled : .finished) }
    }
    if cancelled {
      restoreReplaced()
      return
    }
    replaced = nil
    guard let state else { return }
    setRefreshError(nil)
    // A load that showed no spinner (a silent reload) and brought back what is on screen
    // writes nothing, so its observers are not woken (see `UnchangedState.swift`). A load
    // that showed one always writes: its spinner must go.
    if !shownStart, let current = read(), state.isUnchanged(from: current) {
      wroteUnchanged(state)
      return
    }
    emit(state)
  }

  /// The block threw: cancel, reset or fail, if this load is still current. A load whose
  /// task was cancelled, or that threw `CancellationError`, writes back what it replaced.
  @inlinable
  func conclude(_ token: UInt64, failure error: any Error, _ context: State.Context) {
    let cancelled = Task.isCancelled
    guard end(token) else { return }
    defer {
      didBecomeIdle()
      if isTraced { traceEnd(failure: error, cancelled: cancelled) }
    }
    if cancelled || error is CancellationError {
      restoreReplaced()
      return
    }
    settle(error, context)
  }

  /// Writes what a thrown error asks for, once the load has ended: the replaced state for a
  /// cancel signal, the reset state for a reset signal, a failure otherwise — or, for a
  /// load that keeps its value, the value with the error beside it.
  @inlinable
  func settle(_ error: any Error, _ context: State.Context) {
    switch State.signal(for: error) {
    case .cancel:
      restoreReplaced()
    case .reset:
      replaced = nil
      setRefreshError(nil)
      writeReset()
    case nil:
      if keepsValue, keepValue(showing: error) { return }
      replaced = nil
      emit(.failed(error, context))
    }
  }

  /// A load that keeps its value failed: leaves (or brings back) the loaded value and shows
  /// `error` beside it. Returns `false` when there is no loaded value to keep.
  @inlinable
  func keepValue(showing error: any Error) -> Bool {
    defer { replaced = nil }
    if let current = read(), current.holdsValue {
      setRefreshError(error)
      return true
    }
    guard let replaced, replaced.holdsValue else { return false }
    emit(replaced)
    setRefreshError(error)
    return true
  }

  /// Writes back the state the ended load replaced, if the spinner it showed is still what
  /// the state holds: nothing written since (a yield, another write) is ever undone.
  @inlinable
  func restoreReplaced() {
    guard let previous = replaced else { return }
    replaced = nil
    guard shownStart, writeCount == startMark, let current = read(), current.isAnyStarted
    else { return }
    emit(previous)
  }

  // MARK: - Events

  /// Reports the end of the current (traced) load, which threw `error`: as what the error
  /// asks for (see ``settle(_:_:)``).
  @usableFromInline
  func traceEnd(failure error: any Error, cancelled: Bool) {
    let kind = Self.eventKind(ending: error, cancelled: cancelled)
    traceEnd(kind, error: kind == .failed ? error : nil)
  }

  /// How a load that threw `error` ends, as an event: cancelled, reset or failed.
  @usableFromInline
  static func eventKind(ending error: any Error, cancelled: Bool) -> LoadEventKind {
    if cancelled || error is CancellationError { return .cancelled }
    switch State.signal(for: error) {
    case .cancel: return .cancelled
    case .reset: return .reset
    case nil: return .failed
    }
  }

  // MARK: - Interrupts

  @usableFromInline
  func startInterrupts(_ interrupts: Interrupts, _ token: UInt64, _ context: State.Context) {
    let slot = WeakSlot(self)
    // Read here, as the load starts in the caller's task, so a `withLoadClock` scope around
    // the call reaches the timer; the interrupts count from this moment.
    let clock = LoadClock.current
    let stopwatch = Stopwatch(clock)
    let timer = Task { @MainActor in
      var accumulated = Duration.zero
      for delay in interrupts.delays {
        accumulated += delay
        // Each deadline counts from the start, so the interrupts do not drift.
        let remaining = accumulated - stopwatch.elapsed
        if remaining > .zero {
          do { try await clock.sleep(for: remaining, tolerance: nil) } catch { return }
        }
        guard let current = slot.value, current.isCurrent(token) else { return }
        do {
          try interrupts.handler(accumulated)
        } catch {
          current.interrupt(token, error, context)
          return
        }
      }
    }
    attach(interruptTimer: timer, to: token)
  }

  /// An interrupt handler threw: stop the load and write what the error asks for.
  @usableFromInline
  func interrupt(_ token: UInt64, _ error: any Error, _ context: State.Context) {
    guard isCurrent(token) else { return }
    let ending = Self.eventKind(ending: error, cancelled: false)
    stop(ending, error: ending == .failed ? error : nil)
    if error is CancellationError {
      restoreReplaced()
      return
    }
    settle(error, context)
  }

  // MARK: - Cancel, reset, assign

  /// Stops the current load and writes back the state it replaced, unless something was
  /// written since: `cancel()` never leaves a spinner with nothing running.
  @inlinable
  func cancel() {
    let wasRunning = isBusy
    stop()
    if wasRunning { restoreReplaced() }
  }

  /// Stops the current load and writes the reset state (unless it is already there).
  @inlinable
  func reset() {
    stop(.reset)
    replaced = nil
    setRefreshError(nil)
    writeReset()
  }

  /// Stops the current load and writes `state`.
  @inlinable
  func assign(_ state: State) {
    stop()
    replaced = nil
    setRefreshError(nil)
    emit(state)
  }

  /// Every state the engine writes goes through here: the slot stores it, then the watchers
  /// (the testing recorder) see it, in order.
  @inlinable @inline(__always)
  func emit(_ state: State) {
    emit(state, through: self)
  }

  /// ``emit(_:)``, writing the state through `access`.
  ///
  /// Always inlined, as `emit(_:)` was before the access parameter: left to the inliner, the
  /// extra generic layer kept `$x.load { ... }` itself from being inlined at its call site.
  @inlinable @inline(__always)
  func emit(_ state: State, through access: some StateAccess<State>) {
    writeCount &+= 1
    access.write(state)
    if isWatched { notifyWatchers(state) }
  }

  @inlinable
  func writeReset() {
    if let current = read(), current.isResetState { return }
    emit(State.resetState)
  }
}

/// Where the engine reads and writes a state.
///
/// Every slot is one (``LoadMachine`` refines it): it reads and writes wherever it keeps the
/// state. A key-path slot holds its owner weakly, so each of its reads and writes loads
/// that reference first; a caller that holds the owner itself passes a
/// ``KeyPathStateAccess`` to the synchronous start instead, which reads and writes through
/// the owner it was given, with no weak load.
@MainActor @usableFromInline
protocol StateAccess<State> {
  associatedtype State

  /// The current state, read without registering observation; `nil` when its owner is gone.
  func read() -> State?

  /// Writes a state to wherever it is kept.
  func write(_ state: State)
}

/// How a running load holds its slot.
@usableFromInline
protocol SlotReference: Sendable {
  associatedtype Slot: AnyObject
  var value: Slot? { get }
}

/// A weak reference to a slot, so that a running load never keeps its owner alive.
@usableFromInline
struct WeakSlot<Slot: AnyObject & Sendable>: SlotReference {
  @usableFromInline weak var value: Slot?

  @inlinable init(_ value: Slot) { self.value = value }
}

/// A strong reference to a slot that holds its owner weakly itself.
@usableFromInline
struct StrongSlot<Slot: AnyObject & Sendable>: SlotReference {
  @usableFromInline let value: Slot?

  @inlinable init(_ value: Slot) { self.value = value }
}

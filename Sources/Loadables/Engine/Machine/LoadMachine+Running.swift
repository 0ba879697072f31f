// Running a load: in a new `Task` (`launch`), or for an awaiting caller in a child task of
// its task (`runAwaited`), with the progress paths beside them. Starting is in
// `LoadMachine+Starting.swift`, writing the outcome in `LoadMachine+Ending.swift`.

extension LoadMachine {
  // MARK: - Launching and performing

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
    if observedSides.contains(.progress) {
      return launchReportingProgress(
        context, silently: silently, keepingValue: keepingValue, priority: priority,
        interrupts: interrupts, work: work)
    }
    let token = start(context, silently: silently, keepingValue: keepingValue, through: access)
    return makeTask(token, context, priority: priority, interrupts: interrupts, work: work)
  }

  /// Creates the task of a `Task`-returning load and registers it (and its interrupts) with
  /// the slot.
  @inlinable
  func makeTask(
    _ token: UInt64,
    _ context: State.Context,
    priority: TaskPriority?,
    interrupts: Interrupts?,
    work: Work<State>
  ) -> Task<Void, Never> {
    let slot = reference
    let task = Task(priority: priority) {
      await Self.runTask(slot, token, context, work)
    }
    attach(task: task, to: token)
    if let interrupts { startInterrupts(interrupts, token, context) }
    return task
  }

  /// Runs a returning load for an awaiting caller and returns once the load has stopped.
  ///
  /// The block runs in a child task of the caller's task (``runChild(_:_:returning:)``; see
  /// ``inChild(_:_:)`` for what the child guarantees), registered
  /// with the slot: `cancel()`, `reset()` and a newer load stop it by cancelling that child,
  /// never the caller, and cancelling the caller cancels the child. The block never
  /// escapes this call, so the caller's closure needs no heap allocation of its own.
  @inlinable
  func runAwaited(
    _ context: State.Context,
    silently: Bool,
    keepingValue: Bool = false,
    interrupts: Interrupts?,
    returning block: @MainActor () async throws -> State.Output
  ) async {
    if observedSides.contains(.progress) {
      await runAwaitedReportingProgress(
        context, silently: silently, keepingValue: keepingValue, interrupts: interrupts,
        returning: block)
      return
    }
    let token = startAwaited(
      context, silently: silently, keepingValue: keepingValue, interrupts: interrupts)
    // The child task written out here rather than through `inChild`: each async function
    // and closure a load passes through hops to the main actor on entry and back on return,
    // even inlined, so the plain paths run the block directly in the child's body, as a
    // hand-written child task does (two levels fewer: `inChild`'s and its closure's).
    //
    // `nonisolated(unsafe)`: a process's job kind need not be `Sendable`, and the child's
    // nonisolated entry only hands this `let` on to `runChild`, which reads it on the main
    // actor, as the caller does; nothing ever writes it.
    nonisolated(unsafe) let context = context
    async let child: Void = runChild(token, context, returning: block)
    await child
  }

  /// Runs a yielding load in the caller's task and returns when its block has returned or
  /// thrown; see ``runAwaited(_:silently:interrupts:returning:)``.
  @inlinable
  func runAwaited(
    _ context: State.Context,
    silently: Bool,
    interrupts: Interrupts?,
    yielding block: @MainActor (_ yield: (State) -> Void) async throws -> Void
  ) async {
    if observedSides.contains(.progress) {
      await runAwaitedReportingProgress(
        context, silently: silently, interrupts: interrupts, yielding: block)
      return
    }
    let token = startAwaited(
      context, silently: silently, keepingValue: false, interrupts: interrupts)
    // `nonisolated(unsafe)`: see the returning form above.
    nonisolated(unsafe) let context = context
    async let child: Void = runChild(token, context, yielding: block)
    await child
  }

  /// The body of a plain awaited load's child task (see ``inChild(_:_:)``): registers the
  /// child, then, unless the load was stopped first, runs the returning `block` and writes
  /// its outcome.
  @inlinable @inline(__always)
  func runChild(
    _ token: UInt64,
    _ context: State.Context,
    returning block: @MainActor () async throws -> State.Output
  ) async {
    guard withUnsafeCurrentTask(body: { attach(child: $0, to: token) }) else { return }
    do {
      finish(token, writing: .completed(try await block(), context))
    } catch {
      finish(token, failure: error, context)
    }
  }

  /// ``runChild(_:_:returning:)`` for a yielding block.
  @inlinable @inline(__always)
  func runChild(
    _ token: UInt64,
    _ context: State.Context,
    yielding block: @MainActor (_ yield: (State) -> Void) async throws -> Void
  ) async {
    guard withUnsafeCurrentTask(body: { attach(child: $0, to: token) }) else { return }
    do {
      try await block { yield($0, for: token) }
      finish(token, writing: nil)
    } catch {
      finish(token, failure: error, context)
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
  ///
  /// The wrapped paths (progress, a policy) use it; the plain ones write the same child out
  /// with ``runChild(_:_:returning:)`` as its body, two async levels fewer (this function's
  /// and `body`'s).
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
  func runAndFinish(
    _ token: UInt64,
    _ context: State.Context,
    _ operation: @MainActor () async throws -> State?
  ) async {
    do {
      finish(token, writing: try await operation())
    } catch {
      finish(token, failure: error, context)
    }
  }

  /// Writes a state a yielding block yields, if its load may still write.
  @inlinable @inline(__always)
  func yield(_ state: State, for token: UInt64) {
    guard accepts(token) else { return }
    emit(state)
  }

  // MARK: - The body of a Task-returning load

  /// Runs a `Task`-returning load's block. The slot is held through `slot`, which never
  /// keeps its owner alive.
  ///
  /// Inlined into the task's closure: as a function of its own it cost the task a second
  /// async frame and a hop check on entry on every load.
  @inlinable @inline(__always)
  static func runTask(
    _ slot: Reference,
    _ token: UInt64,
    _ context: State.Context,
    _ work: Work<State>
  ) async {
    do {
      switch work {
      case .returning(let block):
        let output = try await block()
        slot.value?.finish(token, writing: .completed(output, context))
      case .yielding(let block):
        try await block { slot.value?.yield($0, for: token) }
        slot.value?.finish(token, writing: nil)
      }
    } catch {
      slot.value?.finish(token, failure: error, context)
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
      makeTask(token, context, priority: priority, interrupts: interrupts, work: work)
    }
  }

  /// ``runAwaited(_:silently:keepingValue:interrupts:returning:)`` with the load's progress
  /// target bound.
  @usableFromInline
  func runAwaitedReportingProgress(
    _ context: State.Context,
    silently: Bool,
    keepingValue: Bool,
    interrupts: Interrupts?,
    returning block: @MainActor () async throws -> State.Output
  ) async {
    let token = startAwaited(
      context, silently: silently, keepingValue: keepingValue, interrupts: interrupts)
    await inChild(token) {
      await runAndFinish(token, context) {
        .completed(
          try await LoadScope.current.withValue(SlotProgress(reference, token), operation: block),
          context)
      }
    }
  }

  /// ``runAwaited(_:silently:interrupts:yielding:)`` with the load's progress target bound.
  @usableFromInline
  func runAwaitedReportingProgress(
    _ context: State.Context,
    silently: Bool,
    interrupts: Interrupts?,
    yielding block: @MainActor (_ yield: (State) -> Void) async throws -> Void
  ) async {
    let token = startAwaited(
      context, silently: silently, keepingValue: false, interrupts: interrupts)
    await inChild(token) {
      await runAndFinish(token, context) {
        try await LoadScope.current.withValue(SlotProgress(reference, token)) {
          try await block { yield($0, for: token) }
        }
        return nil
      }
    }
  }
}

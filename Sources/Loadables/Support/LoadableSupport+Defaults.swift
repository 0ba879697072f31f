extension LoadableSupport {
  /// Cancels the running load of `state` and brings back the state it replaced, unless
  /// something was written since (see ``Loadable/Binding/cancel()``).
  ///
  /// - Parameter state: The key path of the state.
  @MainActor @inlinable
  public func cancel<Value>(_ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>) {
    SlotRegistry.existingSlot(self, state)?.cancel()
  }

  /// Cancels the running load of `state` and sets it to `.absent`.
  ///
  /// - Parameter state: The key path of the state.
  @MainActor @inlinable
  public func reset<Value>(_ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>) {
    SlotRegistry.reset(self, state)
  }

  /// Starts a load of `state` in a new task: writes `.loading`, then `.loaded(value)` or
  /// `.error(error)`.
  ///
  /// Cancels the running load of `state` first.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.loading`.
  ///   - priority: The priority of the new task.
  ///   - block: Produces the value. Throw `CancelLoadable` to cancel or `ResetLoadable` to
  ///     reset.
  /// - Returns: The task running the load; you need not keep it.
  @MainActor @discardableResult @inlinable
  public func load<Value>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    silently: Bool = false,
    priority: TaskPriority? = nil,
    @_implicitSelfCapture block: @MainActor @escaping () async throws -> Value
  ) -> Task<Void, Never> {
    SlotRegistry.launch(
      self, state, (), silently: silently, priority: priority, interrupts: nil,
      work: .returning(block))
  }

  /// Starts a load of `state` in a new task, calling `onInterrupt` at each accumulated
  /// delay while it runs.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.loading`.
  ///   - interrupts: Delays between interrupts (they accumulate); none may be negative.
  ///   - priority: The priority of the new task.
  ///   - block: Produces the value.
  ///   - onInterrupt: Called with the time since the load started; may throw to end it.
  /// - Returns: The task running the load.
  @MainActor @discardableResult @inlinable
  public func load<Value>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    silently: Bool = false,
    interrupts: [Duration],
    priority: TaskPriority? = nil,
    @_implicitSelfCapture block: @MainActor @escaping () async throws -> Value,
    @_implicitSelfCapture onInterrupt:
      @MainActor @escaping (_ accumulatedDelay: Duration) throws
      -> Void
  ) -> Task<Void, Never> {
    SlotRegistry.launch(
      self, state, (), silently: silently, priority: priority,
      interrupts: Interrupts(interrupts, onInterrupt), work: .returning(block))
  }

  /// Runs a load of `state` and returns when it has stopped.
  ///
  /// Registered like any load: a newer load, ``cancel(_:)-(ReferenceWritableKeyPath<Self,LoadableState<Value>>)`` and ``reset(_:)-(ReferenceWritableKeyPath<Self,LoadableState<Value>>)`` stop it.
  ///
  /// > Note: The block runs in a child task of yours. Stopping the load (a newer load,
  /// > `cancel()`, `reset()`) cancels that child, never your task: this call returns once the
  /// > block has stopped, and your code after it runs uncancelled. Cancelling your task (a
  /// > `.task` modifier's view going away) cancels the load.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.loading`.
  ///   - block: Produces the value.
  @MainActor @inlinable
  public func load<Value>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    silently: Bool = false,
    @_implicitSelfCapture block: @MainActor () async throws -> Value
  ) async {
    await SlotRegistry.slot(self, state).runAwaited(
      (), silently: silently, interrupts: nil, returning: block)
  }

  /// Runs a load of `state` calling `onInterrupt` at each
  /// accumulated delay, and returns when it ends.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.loading`.
  ///   - interrupts: Delays between interrupts (they accumulate); none may be negative.
  ///   - block: Produces the value.
  ///   - onInterrupt: Called with the time since the load started; may throw to end it.
  @MainActor @inlinable
  public func load<Value>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    silently: Bool = false,
    interrupts: [Duration],
    @_implicitSelfCapture block: @MainActor () async throws -> Value,
    @_implicitSelfCapture onInterrupt:
      @MainActor @escaping (_ accumulatedDelay: Duration) throws
      -> Void
  ) async {
    await SlotRegistry.slot(self, state).runAwaited(
      (), silently: silently, interrupts: Interrupts(interrupts, onInterrupt),
      returning: block)
  }

  /// Starts a load of `state` in a new task whose block writes states through `yield`.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.loading` first.
  ///   - priority: The priority of the new task.
  ///   - block: Writes states through `yield`; yields from a superseded load are dropped.
  /// - Returns: The task running the load.
  @MainActor @discardableResult @inlinable
  public func load<Value>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    silently: Bool = false,
    priority: TaskPriority? = nil,
    @_implicitSelfCapture block:
      @MainActor @escaping (
        _ yield: (_ state: LoadableState<Value>) -> Void
      ) async throws -> Void
  ) -> Task<Void, Never> {
    SlotRegistry.launch(
      self, state, (), silently: silently, priority: priority, interrupts: nil,
      work: .yielding(block))
  }

  /// Starts a yielding load of `state` in a new task, with interrupts.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.loading` first.
  ///   - interrupts: Delays between interrupts (they accumulate); none may be negative.
  ///   - priority: The priority of the new task.
  ///   - block: Writes states through `yield`.
  ///   - onInterrupt: Called with the time since the load started; may throw to end it.
  /// - Returns: The task running the load.
  @MainActor @discardableResult @inlinable
  public func load<Value>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    silently: Bool = false,
    interrupts: [Duration],
    priority: TaskPriority? = nil,
    @_implicitSelfCapture block:
      @MainActor @escaping (
        _ yield: (_ state: LoadableState<Value>) -> Void
      ) async throws -> Void,
    @_implicitSelfCapture onInterrupt:
      @MainActor @escaping (_ accumulatedDelay: Duration) throws
      -> Void
  ) -> Task<Void, Never> {
    SlotRegistry.launch(
      self, state, (), silently: silently, priority: priority,
      interrupts: Interrupts(interrupts, onInterrupt), work: .yielding(block))
  }

  /// Runs a yielding load of `state` and returns when it has stopped.
  ///
  /// > Note: The block runs in a child task of yours. Stopping the load (a newer load,
  /// > `cancel()`, `reset()`) cancels that child, never your task: this call returns once the
  /// > block has stopped, and your code after it runs uncancelled. Cancelling your task (a
  /// > `.task` modifier's view going away) cancels the load.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.loading` first.
  ///   - block: Writes states through `yield`.
  @MainActor @inlinable
  public func load<Value>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    silently: Bool = false,
    @_implicitSelfCapture block:
      @MainActor (
        _ yield: (_ state: LoadableState<Value>) -> Void
      ) async throws -> Void
  ) async {
    await SlotRegistry.slot(self, state).runAwaited(
      (), silently: silently, interrupts: nil, yielding: block)
  }

  /// Runs a yielding load of `state`, with interrupts, and returns
  /// when it ends.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.loading` first.
  ///   - interrupts: Delays between interrupts (they accumulate); none may be negative.
  ///   - block: Writes states through `yield`.
  ///   - onInterrupt: Called with the time since the load started; may throw to end it.
  @MainActor @inlinable
  public func load<Value>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    silently: Bool = false,
    interrupts: [Duration],
    @_implicitSelfCapture block:
      @MainActor (
        _ yield: (_ state: LoadableState<Value>) -> Void
      ) async throws -> Void,
    @_implicitSelfCapture onInterrupt:
      @MainActor @escaping (_ accumulatedDelay: Duration) throws
      -> Void
  ) async {
    await SlotRegistry.slot(self, state).runAwaited(
      (), silently: silently, interrupts: Interrupts(interrupts, onInterrupt),
      yielding: block)
  }
}

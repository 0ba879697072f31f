extension ProcessSupport {
  /// Starts a job of `state` in a new task, running its block under `policy`.
  ///
  /// Unlike the other `run` overloads, the job kind must be `Sendable`: a retry that shows
  /// its failed attempts writes states for it from inside the job.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - process: Which job this is.
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - policy: How to run the block; see ``LoadPolicy``.
  ///   - priority: The priority of the new task.
  ///   - block: The job.
  /// - Returns: The task running the job; you need not keep it.
  @MainActor @discardableResult @inlinable
  public func run<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>,
    as process: ProcessKind,
    silently: Bool = false,
    policy: LoadPolicy<Void>,
    priority: TaskPriority? = nil,
    @_implicitSelfCapture block: @MainActor @escaping () async throws -> Void
  ) -> Task<Void, Never> {
    SlotRegistry.slot(self, state).launch(
      process, silently: silently, priority: priority, policy: policy, block: block)
  }

  /// Runs a job of `state` under `policy` and returns when it has stopped.
  ///
  /// Under ``LoadPolicy/ignoreStartsWhileRunning()-type.method``, a call while one runs
  /// returns at once, having started nothing: that one goes on.
  ///
  /// > Note: The block runs in a child task of yours. Stopping the job (a newer run,
  /// > `cancel()`, `reset()`) cancels that child, never your task: this call returns once the
  /// > block has stopped, and your code after it runs uncancelled. Cancelling your task (a
  /// > `.task` modifier's view going away) cancels the job.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - process: Which job this is.
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - policy: How to run the block; see ``LoadPolicy``.
  ///   - block: The job.
  @MainActor @inlinable
  public func run<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>,
    as process: ProcessKind,
    silently: Bool = false,
    policy: LoadPolicy<Void>,
    @_implicitSelfCapture block: @MainActor @escaping () async throws -> Void
  ) async {
    await SlotRegistry.slot(self, state).runAwaited(
      process, silently: silently, policy: policy, block: block)
  }

  /// Starts a job of `state` as a new ``SingleProcess`` in a new task, under `policy`.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - policy: How to run the block; see ``LoadPolicy``.
  ///   - priority: The priority of the new task.
  ///   - block: The job.
  /// - Returns: The task running the job.
  @MainActor @discardableResult @inlinable
  public func run(
    _ state: ReferenceWritableKeyPath<Self, SingleProcessState>,
    silently: Bool = false,
    policy: LoadPolicy<Void>,
    priority: TaskPriority? = nil,
    @_implicitSelfCapture block: @MainActor @escaping () async throws -> Void
  ) -> Task<Void, Never> {
    run(
      state, as: SingleProcess(), silently: silently, policy: policy, priority: priority,
      block: block)
  }

  /// Runs a job of `state` as a new ``SingleProcess`` under `policy`,
  /// and returns when it ends.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - policy: How to run the block; see ``LoadPolicy``.
  ///   - block: The job.
  @MainActor @inlinable
  public func run(
    _ state: ReferenceWritableKeyPath<Self, SingleProcessState>,
    silently: Bool = false,
    policy: LoadPolicy<Void>,
    @_implicitSelfCapture block: @MainActor @escaping () async throws -> Void
  ) async {
    await run(state, as: SingleProcess(), silently: silently, policy: policy, block: block)
  }

}

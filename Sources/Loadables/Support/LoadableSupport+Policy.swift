extension LoadableSupport {
  /// Starts a load of `state` in a new task, running its block under `policy`: retry,
  /// timeout, debounce, a concurrency limit, a cache, deduplication.
  ///
  /// <!-- compile: context SupportModel -->
  /// ```swift
  /// load(\.feed, policy: .retry(maxAttempts: 3)) { try await api.feed() }
  /// ```
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.loading`.
  ///   - policy: How to run the block; see ``LoadPolicy``.
  ///   - priority: The priority of the new task.
  ///   - block: Produces the value.
  /// - Returns: The task running the load; you need not keep it.
  @MainActor @discardableResult @inlinable
  public func load<Value>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    silently: Bool = false,
    policy: LoadPolicy<Value>,
    priority: TaskPriority? = nil,
    @_implicitSelfCapture block: @MainActor @escaping () async throws -> Value
  ) -> Task<Void, Never> {
    SlotRegistry.slot(self, state).launch(
      (), silently: silently, priority: priority, policy: policy, block: block)
  }

  /// Runs a load of `state` under `policy` and returns when it has stopped.
  ///
  /// Under ``LoadPolicy/ignoreStartsWhileRunning()-type.method``, a call while one runs
  /// returns at once, having started nothing: that one goes on.
  ///
  /// > Note: The block runs in a child task of yours. Stopping the load (a newer load,
  /// > `cancel()`, `reset()`) cancels that child, never your task: this call returns once the
  /// > block has stopped, and your code after it runs uncancelled. Cancelling your task (a
  /// > `.task` modifier's view going away) cancels the load.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.loading`.
  ///   - policy: How to run the block; see ``LoadPolicy``.
  ///   - block: Produces the value.
  @MainActor @inlinable
  public func load<Value>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    silently: Bool = false,
    policy: LoadPolicy<Value>,
    @_implicitSelfCapture block: @MainActor @escaping () async throws -> Value
  ) async {
    await SlotRegistry.slot(self, state).runAwaited(
      (), silently: silently, policy: policy, block: block)
  }

}

extension Loadable.Binding {
  /// Starts a load in a new task, running its block under `policy`: retry, timeout,
  /// debounce, a concurrency limit, a cache, deduplication, composed in one expression.
  ///
  /// Everything else is as for the returning ``load(silently:priority:block:)-6ounk``: the
  /// previous load is cancelled, `.loading` is written (unless `silently`, or a cache shows a
  /// value), then `.loaded(value)` or `.error(error)`, and a superseded load never writes.
  ///
  /// ```swift
  /// $feed.load(policy: .retry(maxAttempts: 3).timeout(.seconds(10))) {
  ///   try await api.feed()
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - silently: When `true`, the state is not set to `.loading`.
  ///   - policy: How to run the block; see ``LoadPolicy`` for the order policies apply in.
  ///   - priority: The priority of the new task.
  ///   - block: Produces the value.
  /// - Returns: The task running the load; you need not keep it.
  @MainActor @discardableResult @inlinable
  public func load(
    silently: Bool = false,
    policy: LoadPolicy<Value>,
    priority: TaskPriority? = nil,
    block: @MainActor @escaping () async throws -> Value
  ) -> Task<Void, Never> {
    storage.launch((), silently: silently, priority: priority, policy: policy, block: block)
  }

  /// Runs a load under `policy` and returns when it has stopped.
  ///
  /// > Note: The block runs in a child task of yours. Stopping the load (a newer load,
  /// > `cancel()`, `reset()`) cancels that child, never your task: this call returns once the
  /// > block has stopped, and your code after it runs uncancelled. Cancelling your task (a
  /// > `.task` modifier's view going away) cancels the load.
  ///
  /// - Parameters:
  ///   - silently: When `true`, the state is not set to `.loading`.
  ///   - policy: How to run the block; see ``LoadPolicy``.
  ///   - block: Produces the value.
  @MainActor @inlinable
  public func load(
    silently: Bool = false,
    policy: LoadPolicy<Value>,
    block: @MainActor @escaping () async throws -> Value
  ) async {
    await storage.perform((), silently: silently, policy: policy, block: block)
  }
}

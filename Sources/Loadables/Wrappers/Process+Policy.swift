extension Process.Binding {
  /// Starts a job in a new task, running its block under `policy` (retry, timeout, a
  /// concurrency limit, ...); otherwise as ``run(_:silently:priority:block:)``.
  ///
  /// ```swift
  /// $action.run(.save, policy: .retry(maxAttempts: 3)) { try await api.save(draft) }
  /// ```
  ///
  /// - Parameters:
  ///   - process: Which job this is.
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - policy: How to run the block; see ``LoadPolicy``.
  ///   - priority: The priority of the new task.
  ///   - block: The job.
  /// - Returns: The task running the job; you need not keep it.
  @MainActor @discardableResult @inlinable
  public func run(
    _ process: ProcessKind,
    silently: Bool = false,
    policy: LoadPolicy<Void>,
    priority: TaskPriority? = nil,
    block: @MainActor @escaping () async throws -> Void
  ) -> Task<Void, Never> {
    storage.launch(process, silently: silently, priority: priority, policy: policy, block: block)
  }

  /// Runs a job under `policy` and returns when it has stopped.
  ///
  /// > Note: The block runs in a child task of yours. Stopping the job (a newer run,
  /// > `cancel()`, `reset()`) cancels that child, never your task: this call returns once the
  /// > block has stopped, and your code after it runs uncancelled. Cancelling your task (a
  /// > `.task` modifier's view going away) cancels the job.
  ///
  /// - Parameters:
  ///   - process: Which job this is.
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - policy: How to run the block; see ``LoadPolicy``.
  ///   - block: The job.
  @MainActor @inlinable
  public func run(
    _ process: ProcessKind,
    silently: Bool = false,
    policy: LoadPolicy<Void>,
    block: @MainActor @escaping () async throws -> Void
  ) async {
    await storage.perform(process, silently: silently, policy: policy, block: block)
  }
}

extension Process.Binding where ProcessKind == SingleProcess {
  /// Starts a job as a new ``SingleProcess`` in a new task, under `policy`.
  ///
  /// - Parameters:
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - policy: How to run the block; see ``LoadPolicy``.
  ///   - priority: The priority of the new task.
  ///   - block: The job.
  /// - Returns: The task running the job.
  @MainActor @discardableResult @inlinable
  public func run(
    silently: Bool = false,
    policy: LoadPolicy<Void>,
    priority: TaskPriority? = nil,
    block: @MainActor @escaping () async throws -> Void
  ) -> Task<Void, Never> {
    run(SingleProcess(), silently: silently, policy: policy, priority: priority, block: block)
  }

  /// Runs a job as a new ``SingleProcess`` under `policy`, and
  /// returns when it ends.
  ///
  /// - Parameters:
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - policy: How to run the block; see ``LoadPolicy``.
  ///   - block: The job.
  @MainActor @inlinable
  public func run(
    silently: Bool = false,
    policy: LoadPolicy<Void>,
    block: @MainActor @escaping () async throws -> Void
  ) async {
    await run(SingleProcess(), silently: silently, policy: policy, block: block)
  }
}

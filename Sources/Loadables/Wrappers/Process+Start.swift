extension Process.Binding {
  /// Starts a job in a new task and returns at once, from synchronous and asynchronous code
  /// alike: the one way to start without waiting.
  ///
  /// `run` keeps Processed's meaning: inside `async` code it resolves to the awaited
  /// overload and returns when the job has stopped. `start` never waits. Everything else is
  /// as for `run`: the running job is cancelled first (unless `policy` ignores starts while
  /// one runs; see ``LoadPolicy/ignoreStartsWhileRunning()-type.method``), `.running(process)`
  /// is written (unless `silently`), then `.finished(process)` or
  /// `.failed(process: process, error: error)`.
  ///
  /// <!-- compile: context KindModel -->
  /// ```swift
  /// $saving.start(.save) { try await api.save(draft) }
  /// ```
  ///
  /// - Parameters:
  ///   - process: Which job this is.
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - policy: How to run the block (retry, timeout, …); see ``LoadPolicy``. None by
  ///     default.
  ///   - priority: The priority of the new task.
  ///   - block: The job. Throw `CancelProcess` to cancel or `ResetProcess` to reset.
  /// - Returns: The task running the job; you need not keep it.
  @MainActor @discardableResult @inlinable
  public func start(
    _ process: ProcessKind,
    silently: Bool = false,
    policy: LoadPolicy<Void> = LoadPolicy(),
    priority: TaskPriority? = nil,
    block: @MainActor @escaping () async throws -> Void
  ) -> Task<Void, Never> {
    // In synchronous code `run` is the `Task`-returning overload: one body for both.
    run(process, silently: silently, policy: policy, priority: priority, block: block)
  }
}

extension Process.Binding where ProcessKind == SingleProcess {
  /// Starts a job as a new ``SingleProcess`` in a new task and returns at once; see
  /// ``start(_:silently:policy:priority:block:)``.
  ///
  /// <!-- compile: context Model -->
  /// ```swift
  /// $saving.start { try await api.save(draft) }
  /// ```
  ///
  /// - Parameters:
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - policy: How to run the block; see ``LoadPolicy``. None by default.
  ///   - priority: The priority of the new task.
  ///   - block: The job.
  /// - Returns: The task running the job; you need not keep it.
  @MainActor @discardableResult @inlinable
  public func start(
    silently: Bool = false,
    policy: LoadPolicy<Void> = LoadPolicy(),
    priority: TaskPriority? = nil,
    block: @MainActor @escaping () async throws -> Void
  ) -> Task<Void, Never> {
    start(SingleProcess(), silently: silently, policy: policy, priority: priority, block: block)
  }
}

extension Process.Binding {
  /// Runs a job under `policy` and returns when it has stopped.
  ///
  /// Under ``LoadPolicy/ignoreStartsWhileRunning()-type.method``, a call while one runs
  /// returns at once, having started nothing: that one goes on.
  ///
  /// Its block escapes, unlike the awaited `run(_:silently:block:)`'s: a policy may run the
  /// block beyond this call (a deduplicated job that other runs share goes on after this one
  /// is cancelled).
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
    await storage.runAwaited(process, silently: silently, policy: policy, block: block)
  }
}

extension Process.Binding where ProcessKind == SingleProcess {
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

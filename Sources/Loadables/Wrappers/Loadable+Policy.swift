extension Loadable.Binding {
  /// Runs a load under `policy` and returns when it has stopped.
  ///
  /// Under ``LoadPolicy/ignoreStartsWhileRunning()-type.method``, a call while one runs
  /// returns at once, having started nothing: that one goes on.
  ///
  /// Its block escapes, unlike the awaited `load(silently:block:)`'s: a policy may run
  /// the block beyond this call (a deduplicated fetch that other loads share goes on after
  /// this one is cancelled).
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
    await storage.runAwaited((), silently: silently, policy: policy, block: block)
  }
}

extension Loadable.Binding {
  /// Starts a load in a new task and returns at once, from synchronous and asynchronous
  /// code alike: the one way to start without waiting.
  ///
  /// `load` keeps Processed's meaning: inside `async` code it resolves to the awaited
  /// overload and returns when the load has stopped. `start` never waits, wherever it is
  /// called. Everything else is as for `load`: the running load is cancelled first (unless
  /// `policy` ignores starts while one runs; see
  /// ``LoadPolicy/ignoreStartsWhileRunning()-type.method``),
  /// `.loading` is written (unless `silently`, or a cache shows a value), then
  /// `.loaded(value)` or `.error(error)`, and a superseded load never writes.
  ///
  /// <!-- compile: context ModelView -->
  /// ```swift
  /// .task {
  ///   $feed.start(policy: .retry(maxAttempts: 3)) { try await api.feed() }  // does not wait
  ///   await $profile.load { try await api.profile() }                          // waits
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - silently: When `true`, the state is not set to `.loading`: the old value stays on
  ///     screen until the new one arrives. `isRunning` still turns `true`.
  ///   - policy: How to run the block (retry, timeout, …); see ``LoadPolicy``. None by
  ///     default.
  ///   - priority: The priority of the new task.
  ///   - block: Produces the value. Throw `CancelLoadable` to cancel or `ResetLoadable` to
  ///     reset.
  /// - Returns: The task running the load; you need not keep it.
  @MainActor @discardableResult @inlinable
  public func start(
    silently: Bool = false,
    policy: LoadPolicy<Value> = LoadPolicy(),
    priority: TaskPriority? = nil,
    block: @MainActor @escaping () async throws -> Value
  ) -> Task<Void, Never> {
    // In synchronous code `load` is the `Task`-returning overload: one body for both.
    load(silently: silently, policy: policy, priority: priority, block: block)
  }

  /// Starts a load whose block writes states over time through `yield`, in a new task, and
  /// returns at once; see ``start(silently:policy:priority:block:)``.
  ///
  /// <!-- compile: context Model -->
  /// ```swift
  /// $numbers.start { yield in
  ///   for try await numbers in api.numberUpdates() { yield(.loaded(numbers)) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - silently: When `true`, the state is not set to `.loading` first.
  ///   - priority: The priority of the new task.
  ///   - block: Writes states through `yield`.
  /// - Returns: The task running the load; you need not keep it.
  @MainActor @discardableResult @inlinable
  public func start(
    silently: Bool = false,
    priority: TaskPriority? = nil,
    block:
      @MainActor @escaping (_ yield: (_ state: LoadableState<Value>) -> Void) async throws
      -> Void
  ) -> Task<Void, Never> {
    load(silently: silently, priority: priority, block: block)
  }
}

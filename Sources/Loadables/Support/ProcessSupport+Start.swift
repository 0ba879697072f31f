extension ProcessSupport {
  /// Starts a job of `state` in a new task and returns at once, from synchronous and
  /// asynchronous code alike: the one way to start without waiting.
  ///
  /// `run(_:as:)` keeps Processed's meaning: inside `async` code it resolves to the awaited
  /// overload and returns when the job has stopped. `start` never waits. Everything else is
  /// as for `run`.
  ///
  /// <!-- compile: context SupportModel -->
  /// ```swift
  /// start(\.saving, as: .save) { try await api.save(draft) }
  /// ```
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - process: Which job this is.
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - policy: How to run the block (retry, timeout, …); see ``LoadPolicy``. None by
  ///     default.
  ///   - priority: The priority of the new task.
  ///   - block: The job. Throw `CancelProcess` to cancel or `ResetProcess` to reset.
  /// - Returns: The task running the job; you need not keep it.
  @MainActor @discardableResult @inlinable
  public func start<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>,
    as process: ProcessKind,
    silently: Bool = false,
    policy: LoadPolicy<Void> = LoadPolicy(),
    priority: TaskPriority? = nil,
    @_implicitSelfCapture block: @MainActor @escaping () async throws -> Void
  ) -> Task<Void, Never> {
    let slot = SlotRegistry.slot(self, state)
    guard policy.steps.isEmpty else {
      return slot.launch(
        process, silently: silently, priority: priority, policy: policy, block: block)
    }
    // The plain path reads and writes through the owner held here, with no weak load.
    return slot.launch(
      process, silently: silently, keepingValue: policy.keepsValueOnFailure, priority: priority,
      interrupts: nil, work: .returning(block), through: KeyPathStateAccess(self, state))
  }

  /// Starts a job of `state` as a new ``SingleProcess`` in a new task and returns at once;
  /// see ``start(_:as:silently:policy:priority:block:)``.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - policy: How to run the block; see ``LoadPolicy``. None by default.
  ///   - priority: The priority of the new task.
  ///   - block: The job.
  /// - Returns: The task running the job; you need not keep it.
  @MainActor @discardableResult @inlinable
  public func start(
    _ state: ReferenceWritableKeyPath<Self, SingleProcessState>,
    silently: Bool = false,
    policy: LoadPolicy<Void> = LoadPolicy(),
    priority: TaskPriority? = nil,
    @_implicitSelfCapture block: @MainActor @escaping () async throws -> Void
  ) -> Task<Void, Never> {
    start(
      state, as: SingleProcess(), silently: silently, policy: policy, priority: priority,
      block: block)
  }
}

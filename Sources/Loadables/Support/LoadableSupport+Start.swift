extension LoadableSupport {
  /// Starts a load of `state` in a new task and returns at once, from synchronous and
  /// asynchronous code alike: the one way to start without waiting.
  ///
  /// `load(_:)` keeps Processed's meaning: inside `async` code it resolves to the awaited
  /// overload and returns when the load has stopped. `start` never waits. Everything else
  /// is as for `load`.
  ///
  /// <!-- compile: context SupportModel -->
  /// ```swift
  /// func appeared() async {
  ///   start(\.feed, policy: .retry(maxAttempts: 3)) { try await api.feed() }  // does not wait
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.loading`.
  ///   - policy: How to run the block (retry, timeout, …); see ``LoadPolicy``. None by
  ///     default.
  ///   - priority: The priority of the new task.
  ///   - block: Produces the value. Throw `CancelLoadable` to cancel or `ResetLoadable` to
  ///     reset.
  /// - Returns: The task running the load; you need not keep it.
  @MainActor @discardableResult @inlinable
  public func start<Value: Sendable>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    silently: Bool = false,
    policy: LoadPolicy<Value> = LoadPolicy(),
    priority: TaskPriority? = nil,
    @_implicitSelfCapture block: @MainActor @escaping () async throws -> Value
  ) -> Task<Void, Never> {
    let slot = SlotRegistry.slot(self, state)
    guard policy.steps.isEmpty else {
      return slot.launch((), silently: silently, priority: priority, policy: policy, block: block)
    }
    // The plain path reads and writes through the owner held here, with no weak load.
    return slot.launch(
      (), silently: silently, keepingValue: policy.keepsValueOnFailure, priority: priority,
      interrupts: nil, work: .returning(block), through: KeyPathStateAccess(self, state))
  }

  /// Starts a load of `state` whose block writes states over time through `yield`, in a new
  /// task, and returns at once; see ``start(_:silently:policy:priority:block:)``.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.loading` first.
  ///   - priority: The priority of the new task.
  ///   - block: Writes states through `yield`.
  /// - Returns: The task running the load; you need not keep it.
  @MainActor @discardableResult @inlinable
  public func start<Value>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    silently: Bool = false,
    priority: TaskPriority? = nil,
    @_implicitSelfCapture block:
      @MainActor @escaping (_ yield: (_ state: LoadableState<Value>) -> Void) async throws
      -> Void
  ) -> Task<Void, Never> {
    SlotRegistry.launch(
      self, state, (), silently: silently, priority: priority, interrupts: nil,
      work: .yielding(block))
  }
}

// The 0.3 spellings that 0.4 replaced, kept for this minor version so that code written
// against 0.3 still compiles (with a warning naming the replacement) and behaves the same.
// Grouped by what replaced them.

// MARK: - Key-path status members: `handle(_:)` replaces them

extension LoadableSupport {
  /// Whether a load of `state` is in flight.
  @available(*, deprecated, message: "use handle(_:).isRunning")
  @MainActor
  public func isRunning<Value>(_ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>)
    -> Bool
  {
    SlotRegistry.slot(self, state).isRunning
  }

  /// The progress the running load of `state` last reported.
  @available(*, deprecated, message: "use handle(_:).progress")
  @MainActor
  public func progress<Value>(_ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>)
    -> LoadingProgress?
  {
    SlotRegistry.slot(self, state).progress
  }

  /// The attempt a retry policy is running for `state`.
  @available(*, deprecated, message: "use handle(_:).attempt")
  @MainActor
  public func attempt<Value>(_ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>)
    -> RetryAttempt?
  {
    SlotRegistry.slot(self, state).attempt
  }

  /// Whether the running load of `state` waits for the network.
  @available(*, deprecated, message: "use handle(_:).isWaitingForNetwork")
  @MainActor
  public func isWaitingForNetwork<Value>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>
  ) -> Bool {
    SlotRegistry.slot(self, state).isWaitingForNetwork
  }

  /// The error of the last load of `state` that failed while its value stayed on screen.
  @available(*, deprecated, message: "use handle(_:).refreshError")
  @MainActor
  public func refreshError<Value>(_ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>)
    -> (any Error)?
  {
    SlotRegistry.slot(self, state).refreshError
  }

  /// The states of `state` on this instance; see ``StateStream``.
  @available(*, deprecated, message: "use handle(_:).states")
  @MainActor
  public func states<Value: Sendable>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>
  ) -> StateStream<LoadableState<Value>> {
    StateStream(slot: SlotRegistry.slot(self, state), current: self[keyPath: state])
  }

  /// Whether a load of the list `state` is in flight.
  @available(*, deprecated, message: "use handle(_:).isRunning")
  @MainActor
  public func isRunning<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>
  ) -> Bool {
    SlotRegistry.slot(self, state).isRunning
  }

  /// The progress the running load of the list `state` last reported.
  @available(*, deprecated, message: "use handle(_:).progress")
  @MainActor
  public func progress<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>
  ) -> LoadingProgress? {
    SlotRegistry.slot(self, state).progress
  }

  /// The attempt a retry policy is running for `state`.
  @available(*, deprecated, message: "use handle(_:).attempt")
  @MainActor
  public func attempt<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>
  ) -> RetryAttempt? {
    SlotRegistry.slot(self, state).attempt
  }

  /// Whether the running load of the list `state` waits for the network.
  @available(*, deprecated, message: "use handle(_:).isWaitingForNetwork")
  @MainActor
  public func isWaitingForNetwork<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>
  ) -> Bool {
    SlotRegistry.slot(self, state).isWaitingForNetwork
  }

  /// The error of the last load of the list `state` that failed while its value stayed on screen.
  @available(*, deprecated, message: "use handle(_:).refreshError")
  @MainActor
  public func refreshError<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>
  ) -> (any Error)? {
    SlotRegistry.slot(self, state).refreshError
  }

  /// The states of the list `state` on this instance; see ``StateStream``.
  @available(*, deprecated, message: "use handle(_:).states")
  @MainActor
  public func states<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>
  ) -> StateStream<PagedState<Item, Cursor>> {
    StateStream(slot: SlotRegistry.slot(self, state), current: self[keyPath: state])
  }
}

extension ProcessSupport {
  /// Whether a job of `state` is in flight.
  @available(*, deprecated, message: "use handle(_:).isRunning")
  @MainActor
  public func isRunning<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>
  ) -> Bool {
    SlotRegistry.slot(self, state).isRunning
  }

  /// The progress the running job of `state` last reported.
  @available(*, deprecated, message: "use handle(_:).progress")
  @MainActor
  public func progress<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>
  ) -> LoadingProgress? {
    SlotRegistry.slot(self, state).progress
  }

  /// The attempt a retry policy is running for `state`.
  @available(*, deprecated, message: "use handle(_:).attempt")
  @MainActor
  public func attempt<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>
  ) -> RetryAttempt? {
    SlotRegistry.slot(self, state).attempt
  }

  /// Whether the running job of `state` waits for the network.
  @available(*, deprecated, message: "use handle(_:).isWaitingForNetwork")
  @MainActor
  public func isWaitingForNetwork<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>
  ) -> Bool {
    SlotRegistry.slot(self, state).isWaitingForNetwork
  }

  /// The states of `state` on this instance; see ``StateStream``.
  @available(*, deprecated, message: "use handle(_:).states")
  @MainActor
  public func states<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>
  ) -> StateStream<ProcessState<ProcessKind>> {
    StateStream(slot: SlotRegistry.slot(self, state), current: self[keyPath: state])
  }
}

// Each form shows the running load's progress beside its state.

extension Process.Binding {
  /// The progress the running job last reported with `LoadingProgress.report`; `nil` when
  /// it reported none or no job runs. Observable.
  ///
  /// Reading it is what turns progress delivery on for the jobs that start afterwards.
  @MainActor @inlinable public var progress: LoadingProgress? { storage.progress }
}

extension LoadableSupport {
  /// The progress the running load of `state` last reported; `nil` when it reported none or
  /// no load runs. Observable.
  ///
  /// Reading it turns progress delivery on for the loads of `state` that start afterwards,
  /// and keeps the key path's slot for this instance.
  ///
  /// - Parameter state: The key path of the state.
  /// - Returns: The progress, or `nil`.
  @MainActor @inlinable
  public func progress<Value>(_ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>)
    -> LoadingProgress?
  {
    SlotRegistry.slot(self, state).progress
  }
}

extension ProcessSupport {
  /// The progress the running job of `state` last reported; `nil` when it reported none or
  /// no job runs. Observable.
  ///
  /// Reading it turns progress delivery on for the jobs of `state` that start afterwards,
  /// and keeps the key path's slot for this instance.
  ///
  /// - Parameter state: The key path of the state.
  /// - Returns: The progress, or `nil`.
  @MainActor @inlinable
  public func progress<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>
  ) -> LoadingProgress? {
    SlotRegistry.slot(self, state).progress
  }
}

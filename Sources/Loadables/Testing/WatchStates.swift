// The `watchStates` entry points the LoadablesTesting product records states through. They
// are SPI: apps observe states through Observation; tests that need *every* state,
// uncoalesced and in order, use `StateRecorder` from LoadablesTesting, which imports this
// with `@_spi(Testing) import Loadables`. The hook itself, `StateWatch`, is in Engine/.

extension Loadable.Binding {
  /// Calls `callback` with every state the library writes to this property, in order:
  /// starts, results, errors, yields, resets and assignments. Nothing is coalesced.
  @_spi(Testing)
  @MainActor
  public func watchStates(
    _ callback: @escaping @MainActor (LoadableState<Value>) -> Void
  ) -> StateWatch {
    StateWatch(slot: storage) { callback($0) }
  }
}

extension Process.Binding {
  /// Calls `callback` with every state the library writes to this property, in order.
  @_spi(Testing)
  @MainActor
  public func watchStates(
    _ callback: @escaping @MainActor (ProcessState<ProcessKind>) -> Void
  ) -> StateWatch {
    StateWatch(slot: storage) { callback($0) }
  }
}

extension LoadableSupport {
  /// Calls `callback` with every state the library writes to `state` on this instance, in
  /// order. Assignments your own code makes to the property are not seen.
  @_spi(Testing)
  @MainActor
  public func watchStates<Value>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    _ callback: @escaping @MainActor (LoadableState<Value>) -> Void
  ) -> StateWatch {
    StateWatch(slot: SlotRegistry.slot(self, state)) { callback($0) }
  }
}

extension ProcessSupport {
  /// Calls `callback` with every state the library writes to `state` on this instance, in
  /// order. Assignments your own code makes to the property are not seen.
  @_spi(Testing)
  @MainActor
  public func watchStates<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>,
    _ callback: @escaping @MainActor (ProcessState<ProcessKind>) -> Void
  ) -> StateWatch {
    StateWatch(slot: SlotRegistry.slot(self, state)) { callback($0) }
  }
}

extension BaseLoader {
  /// Calls `callback` with every state the loader writes, in order.
  @_spi(Testing)
  public func watchStates(
    _ callback: @escaping @MainActor (LoadableState<Value>) -> Void
  ) -> StateWatch {
    StateWatch(slot: slot) { callback($0) }
  }
}

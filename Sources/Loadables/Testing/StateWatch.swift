// The hook the LoadablesTesting product records states through. It is SPI: apps observe
// states through Observation; tests that need *every* state, uncoalesced and in order,
// use `StateRecorder` from LoadablesTesting, which imports this with
// `@_spi(Testing) import Loadables`.

/// A subscription to every state one slot's engine writes. Call ``cancel()`` to end it.
@_spi(Testing)
@MainActor
public final class StateWatch {
  private weak var slot: LoadSlot?
  private var id: Int?

  init(slot: LoadSlot, callback: @escaping @MainActor (Any) -> Void) {
    self.slot = slot
    self.id = slot.addWatcher(callback)
  }

  /// Ends the subscription; no further states are delivered.
  public func cancel() {
    guard let id else { return }
    self.id = nil
    slot?.removeWatcher(id)
  }
}

extension Loadable.Binding {
  /// Calls `callback` with every state the library writes to this property, in order:
  /// starts, results, errors, yields, resets and assignments. Nothing is coalesced.
  @_spi(Testing)
  @MainActor
  public func watchStates(
    _ callback: @escaping @MainActor (LoadableState<Value>) -> Void
  ) -> StateWatch {
    StateWatch(slot: storage) { callback($0 as! LoadableState<Value>) }
  }
}

extension Process.Binding {
  /// Calls `callback` with every state the library writes to this property, in order.
  @_spi(Testing)
  @MainActor
  public func watchStates(
    _ callback: @escaping @MainActor (ProcessState<ProcessKind>) -> Void
  ) -> StateWatch {
    StateWatch(slot: storage) { callback($0 as! ProcessState<ProcessKind>) }
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
    StateWatch(slot: SlotRegistry.slot(self, state)) { callback($0 as! LoadableState<Value>) }
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
    StateWatch(slot: SlotRegistry.slot(self, state)) {
      callback($0 as! ProcessState<ProcessKind>)
    }
  }
}

extension BaseLoader {
  /// Calls `callback` with every state the loader writes, in order.
  @_spi(Testing)
  public func watchStates(
    _ callback: @escaping @MainActor (LoadableState<Value>) -> Void
  ) -> StateWatch {
    StateWatch(slot: slot) { callback($0 as! LoadableState<Value>) }
  }
}

// The hook behind `StateStream` and the LoadablesTesting product's recorder: every state a
// slot's engine writes, in order, uncoalesced. Production code (streams) depends on it, so
// it lives with the engine; the `watchStates` entry points for tests are SPI, in Testing/.

/// A subscription to every state one slot's engine writes, typed by the slot's state. Call
/// ``cancel()`` to end it.
@_spi(Testing)
@MainActor
public final class StateWatch {
  /// Ends the subscription; `nil` once it has ended.
  private var end: (@MainActor () -> Void)?

  /// Calls `callback` with every state `slot`'s engine writes from now on.
  init<Slot: LoadMachine>(slot: Slot, callback: @escaping @MainActor (Slot.State) -> Void) {
    let id = slot.addWatcher { state in
      // The one cast behind every watcher: `emit` hands a slot's watchers only states of
      // that slot's `State`, and this generic initialiser is the only way to add one, so
      // the type is fixed where the watcher is made.
      callback(state as! Slot.State)
    }
    end = { [weak slot] in slot?.removeWatcher(id) }
  }

  /// A subscription that `end` ends: a handle's, whose control made the watch.
  init(ending end: @escaping @MainActor () -> Void) {
    self.end = end
  }

  /// Ends the subscription; no further states are delivered.
  public func cancel() {
    guard let end else { return }
    self.end = nil
    end()
  }
}

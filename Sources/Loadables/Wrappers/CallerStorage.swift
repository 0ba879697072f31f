// A binding over storage its caller owns: Processed's `Binding(state:task:)`. The slot is an
// ordinary `StoredStateStorage`, so every rule of the engine holds; only where it keeps its
// state and its load's task differs. It reads and writes the state through the caller's
// accessors, and keeps the task of each `Task`-returning load in the caller's task storage,
// so that whatever else reads that storage (another binding made over it, the caller's own
// code) sees and can cancel it.

/// Where a ``StoredStateStorage`` made with `Binding(state:task:)` keeps its state and its
/// load's task: its caller's accessors. It is the slot's registrar box as well, so a slot
/// that has one grows by nothing.
@MainActor @usableFromInline
final class CallerStorage<State>: StateObservers {
  /// Reads the caller's state.
  var getState: @MainActor () -> State
  /// Writes the caller's state.
  var setState: @MainActor (State) -> Void
  /// Reads the caller's task storage.
  var getTask: @MainActor () -> Task<Void, Never>?
  /// Writes the caller's task storage.
  var setTask: @MainActor (Task<Void, Never>?) -> Void
  /// The task this slot last kept in the caller's storage while it runs, the key it is
  /// found under in ``CallerStorageSlots``.
  var keptTask: Task<Void, Never>?

  @usableFromInline
  init(
    state getState: @escaping @MainActor () -> State,
    setState: @escaping @MainActor (State) -> Void,
    task getTask: @escaping @MainActor () -> Task<Void, Never>?,
    setTask: @escaping @MainActor (Task<Void, Never>?) -> Void
  ) {
    self.getState = getState
    self.setState = setState
    self.getTask = getTask
    self.setTask = setTask
  }
}

/// The slots whose `Task`-returning load runs, by the task they kept in their caller's task
/// storage: a binding made again over that storage (a SwiftUI view makes one every `body`)
/// finds the slot of the load it holds, so its `cancel()`, `reset()` and loads reach that
/// load as the first binding's would. A slot leaves when its load ends.
@MainActor
enum CallerStorageSlots {
  static var running: [Task<Void, Never>: LoadRuntime] = [:]
}

extension StoredStateStorage {
  /// The slot of a binding over its caller's storage: the running slot whose task that
  /// storage holds, now reading and writing through `caller`'s accessors, or a new one.
  @usableFromInline
  static func bound(to caller: CallerStorage<State>) -> StoredStateStorage {
    if let task = caller.getTask(),
      let slot = CallerStorageSlots.running[task] as? StoredStateStorage<State>
    {
      let kept = slot.callerStorage
      kept.getState = caller.getState
      kept.setState = caller.setState
      kept.getTask = caller.getTask
      kept.setTask = caller.setTask
      return slot
    }
    let slot = StoredStateStorage(caller.getState())
    slot.observers = caller
    slot.usesCallerStorage = true
    return slot
  }

  /// The caller's accessors of a slot that ``usesCallerStorage``.
  var callerStorage: CallerStorage<State> {
    // The box is made with the slot and never replaced (see `bound(to:)`).
    unsafeDowncast(observers.unsafelyUnwrapped, to: CallerStorage<State>.self)
  }

  /// The caller's state. Not inlined: only a binding over a caller's storage reads it.
  @usableFromInline
  func callerState() -> State { callerStorage.getState() }

  /// Writes the caller's state.
  @usableFromInline
  func writeCallerState(_ state: State) { callerStorage.setState(state) }
}

extension Loadable.Binding {
  /// A binding over a caller's state and task storage, read and written through `caller`:
  /// what `init(state:task:)` builds on Apple platforms, from two SwiftUI bindings.
  @MainActor @usableFromInline
  init(caller: CallerStorage<LoadableState<Value>>) {
    self.init(storage: .bound(to: caller))
  }
}

extension Process.Binding {
  /// A binding over a caller's state and task storage, read and written through `caller`:
  /// what `init(state:task:)` builds on Apple platforms, from two SwiftUI bindings.
  @MainActor @usableFromInline
  init(caller: CallerStorage<ProcessState<ProcessKind>>) {
    self.init(storage: .bound(to: caller))
  }
}

public import Observation

/// The stored storage: the slot behind a property wrapper (and a loader). It holds the state
/// itself and tells observers when it changes, so `@ObservationIgnored @Loadable var x` in an `@Observable` class (or a SwiftUI
/// view) still re-renders.
@MainActor @usableFromInline
final class StoredStateStorage<State: EngineState>: LoadRuntime, LoadMachine {
  // `nonisolated(unsafe)` only so that the nonisolated `init` can store the first state of
  // a type that is not `Sendable` (a job kind whose `Equatable` is main-actor isolated, as
  // in an app module made by Xcode 26); the state arrives `sending`, and every other read
  // and write is a member of this main-actor class.
  @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var storage: State

  /// The registrar the state is observed through, made when the state is first read: until
  /// then nothing can observe it, and an idle holder nobody has read stays small (a
  /// registrar is two heap objects; the Performance article has their size). Boxed, because
  /// `Observation` is a resilient module: an optional registrar is copied through value
  /// witnesses on every access, a box only retained.
  @exclusivity(unchecked) @usableFromInline var observers: StateObservers?

  /// The state the current load replaced; see ``LoadMachine/replaced``.
  @exclusivity(unchecked) @usableFromInline var replaced: State?

  /// A frozen slot ignores every write: the storage of `Binding.constant(_:)`.
  @usableFromInline let isFrozen: Bool

  /// Whether a loader object holds this slot, rather than a property wrapper: what its
  /// events name it (see ``LoadEvents``).
  @usableFromInline let isLoader: Bool

  @usableFromInline
  nonisolated init(_ initial: sending State, frozen: Bool = false, loader: Bool = false) {
    storage = initial
    isFrozen = frozen
    isLoader = loader
    super.init()
  }

  /// A property (or a loader), named by its state type.
  override var eventSubject: LoadSubject {
    LoadSubject(
      form: isLoader ? .loader : .property, name: "\(State.self)", objectID: ObjectIdentifier(self))
  }

  // A slot over its caller's storage (see `CallerStorage.swift`); the others never call these.

  /// A load starts: the task the caller's storage holds is cancelled, as Processed's binding
  /// did, whoever started it.
  override func taskStorageWillStart() {
    let caller = callerStorage
    if let task = caller.getTask() {
      task.cancel()
      caller.setTask(nil)
    }
  }

  /// A `Task`-returning load started: its task goes in the caller's storage.
  override func taskStorageDidAttach(_ task: Task<Void, Never>) {
    let caller = callerStorage
    if let kept = caller.keptTask { CallerStorageSlots.running[kept] = nil }
    caller.keptTask = task
    CallerStorageSlots.running[task] = self
    caller.setTask(task)
  }

  /// `cancel()`, `reset()` or an assignment: the task the caller's storage holds is
  /// cancelled and the storage emptied.
  override func taskStorageDidStop() {
    taskStorageWillStart()
  }

  /// A slot over its caller's storage leaves ``CallerStorageSlots`` when its load ends.
  override func didBecomeIdle() {
    guard usesCallerStorage, let kept = callerStorage.keptTask else { return }
    CallerStorageSlots.running[kept] = nil
    callerStorage.keptTask = nil
  }

  /// The state, read under observation.
  @inlinable
  var state: State {
    stateObservers().registrar.access(self as LoadRuntime, keyPath: LoadRuntime.stateKey)
    if usesCallerStorage { return callerState() }
    return storage
  }

  /// The registrar's box, made on first use.
  @inlinable
  func stateObservers() -> StateObservers {
    if let observers { return observers }
    let created = StateObservers()
    observers = created
    return created
  }

  @inlinable
  var reference: WeakSlot<StoredStateStorage> { WeakSlot(self) }

  @inlinable
  func read() -> State? { usesCallerStorage ? callerState() : storage }

  @inlinable
  func write(_ state: State) {
    guard !isFrozen else { return }
    // Nobody has read the state yet, so nobody observes it.
    guard let observers else {
      storage = state
      return
    }
    // What `withMutation` does, without its closure (a context and a dynamic isolation check
    // on every write).
    observers.registrar.willSet(self as LoadRuntime, keyPath: LoadRuntime.stateKey)
    if usesCallerStorage {
      writeCallerState(state)
    } else {
      storage = state
    }
    observers.registrar.didSet(self as LoadRuntime, keyPath: LoadRuntime.stateKey)
  }
}

/// The registrar of a ``StoredStateStorage``'s state, made on the first read; for a slot whose
/// state lives with its caller, the ``CallerStorage`` that says where, made with the slot.
@usableFromInline
class StateObservers {
  @usableFromInline final let registrar = ObservationRegistrar()

  @usableFromInline init() {}
}

extension LoadRuntime {
  /// The key a stored state is observed under (see ``StoredStateStorage``), declared on the
  /// non-generic base so that its key path is not rebuilt for every generic instance.
  @usableFromInline nonisolated final var stateMarker: Int { 0 }

  /// The key path of ``stateMarker``, as one object. A key-path literal is instantiated once
  /// per module, so a state read in your module (inlined) and written by the library's own
  /// code (a policy load, a loader) would otherwise compare two objects component by
  /// component on every write.
  @usableFromInline static let stateKey: KeyPath<LoadRuntime, Int> = \LoadRuntime.stateMarker
}

/// The engine's state machine: the one place every form (wrappers, key-path protocols,
/// loaders, shared entries, pages) starts, supersedes, finishes, cancels and resets a load of
/// one state, on top of a slot's ``LoadRuntime``.
///
/// Conforming classes only say where the state lives (``read()`` and ``write(_:)``);
/// everything else — starting, superseding, writing outcomes, yields, control errors,
/// interrupts, cancel and reset — happens here, once. It is a protocol extension rather
/// than a generic base class so that each form's calls are dispatched statically and
/// specialised, in the caller's module, for the concrete state type (`@inlinable`).
///
/// The extensions, one role each: running a load (`LoadMachine+Running.swift`), starting
/// it (`LoadMachine+Starting.swift`, the runner of the pure ``LoadStartBook`` step), ending
/// it (`LoadMachine+Ending.swift`), its interrupts (`LoadMachine+Interrupts.swift`),
/// stopping and writing from outside (`LoadMachine+Control.swift`) and loads with a policy
/// (`LoadMachine+Policy.swift`).
@MainActor @usableFromInline
protocol LoadMachine: LoadRuntime, StateAccess where State: EngineState {
  /// How a running load refers to its slot: weakly when the slot is its owner's storage (so
  /// releasing the owner releases the slot, whose `deinit` cancels the load), strongly when
  /// the slot only holds its owner weakly itself.
  associatedtype Reference: SlotReference where Reference.Slot == Self

  /// A reference to this slot for a running load to hold.
  var reference: Reference { get }

  /// The state on screen before the current load started — or before the first of a run of
  /// loads that superseded one another while the spinner stayed up: what ``cancel()``
  /// writes back, and what a failed refresh that keeps its value falls back to. `nil` when
  /// no load runs (or a silent load has no need of it).
  var replaced: State? { get set }

  /// A load ended with `state`, equal to the state on screen, which the engine therefore did
  /// not write. A slot that must still see the load's result (a shared entry records when
  /// it fetched) handles it here; others need do nothing.
  func wroteUnchanged(_ state: State)
}

extension LoadMachine {
  /// Nothing to do: the state on screen is the load's result already.
  @inlinable func wroteUnchanged(_ state: State) {}
}

/// Where the engine reads and writes a state.
///
/// Every slot is one (``LoadMachine`` refines it): it reads and writes wherever it keeps the
/// state. A key-path slot holds its owner weakly, so each of its reads and writes loads
/// that reference first; a caller that holds the owner itself passes a
/// ``KeyPathStateAccess`` to the synchronous start instead, which reads and writes through
/// the owner it was given, with no weak load.
@MainActor @usableFromInline
protocol StateAccess<State> {
  associatedtype State

  /// The current state, read without registering observation; `nil` when its owner is gone.
  func read() -> State?

  /// Writes a state to wherever it is kept.
  func write(_ state: State)
}

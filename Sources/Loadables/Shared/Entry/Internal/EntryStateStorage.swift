import Observation

/// The entry storage: the engine's slot behind a shared entry. The engine runs the entry's
/// fetches through it and sees the entry's committed base; what it writes goes to the entry,
/// which lays the pending edits over it and shows the result here.
///
/// Generic over the entry's state, as the entry is; it is one of the engine's slots
/// (``LoadMachine``) wherever that state is one the engine runs (`EngineState`), which is
/// where the entry binds its ``EntryEngine``.
///
/// Its properties are `@exclusivity(unchecked)` for the reason the engine's are (see
/// `LoadRuntime`): main-actor only, never held across a call that could touch them.
@MainActor
final class EntryStateStorage<Value: Sendable, State: SharedEntryState & Sendable>: LoadRuntime
where State.Value == Value {
  /// The entry the engine's writes go to; set once, right after the entry is made.
  @exclusivity(unchecked) weak var entry: SharedEntry<Value, State>?

  /// The state on screen: the base with the pending edits laid over it.
  @exclusivity(unchecked) private(set) var storage: State

  /// The state the current fetch replaced; see ``LoadMachine/replaced``.
  @exclusivity(unchecked) var replaced: State?

  /// Why the engine's next write happens, when the entry knows better than the state does
  /// (a restore after its own `cancel()`); `nil` otherwise.
  @exclusivity(unchecked) var nextCause: WriteCause?

  /// The generation of the load that fetches a paged list's next or previous page, if one
  /// was started: the engine's writes while the generation is still that one (the page's
  /// spinner, its outcome) are that page's (``WriteCause/nextPage``). Any newer load or stop
  /// moves the generation on.
  @exclusivity(unchecked) var addedPageGeneration: UInt64?

  /// Whether the running fetch is counted in the store's activity (``LoaderStore/isRunning``).
  @exclusivity(unchecked) var countsAsFetching = false

  /// Whether the entry was removed from its store (``LoaderStore/remove(_:matching:pendingEdits:)``):
  /// it keeps working for whoever holds it, but is neither saved nor counted any more.
  @exclusivity(unchecked) var isDetached = false

  private let registrar = ObservationRegistrar()

  nonisolated init(_ empty: State) {
    storage = empty
    super.init()
  }

  /// The entry, by its key.
  override var eventSubject: LoadSubject {
    guard let entry else { return LoadSubject(form: .entry, name: "(gone)") }
    return .entry(entry.key)
  }

  /// The entry's store.
  override var eventStoreID: ObjectIdentifier? {
    entry?.store.map(ObjectIdentifier.init)
  }

  /// The state on screen. Observable.
  var state: State {
    registrar.access(self as LoadRuntime, keyPath: LoadRuntime.stateKey)
    return storage
  }

  /// Whether the running load fetches a paged list's next or previous page.
  var isLoadingAddedPage: Bool { isBusy && generation == addedPageGeneration }

  /// The engine sees the committed base, never an optimistic value.
  func read() -> State? { entry?.book.base }

  /// The fetch ended or was stopped: the store's activity stops counting it.
  override func didBecomeIdle() {
    if countsAsFetching { entry?.noteFetchEnded() }
  }

  /// Whether `state` is what the entry shows already (for a state that is `Equatable`).
  func shows(_ state: State) -> Bool { statesAreEqual(state, storage) }

  /// Shows `state` and tells its observers.
  func show(_ state: State) {
    registrar.willSet(self as LoadRuntime, keyPath: LoadRuntime.stateKey)
    storage = state
    registrar.didSet(self as LoadRuntime, keyPath: LoadRuntime.stateKey)
  }
}

extension EntryStateStorage: LoadMachine where State: EngineState {
  var reference: WeakSlot<EntryStateStorage> { WeakSlot(self) }

  /// The fetch brought back the base: the entry still records it (its time and freshness,
  /// its saved record), and shows nothing new. The entry is told the engine found it equal,
  /// so it does not compare the state again.
  func wroteUnchanged(_ state: State) { write(state, unchanged: true) }
}

extension EntryStateStorage: StateAccess where State: EngineState {
  func write(_ state: State) { write(state, unchanged: false) }

  /// Hands `state` to the entry with its cause; `unchanged` when the engine found it equal to
  /// the base it read.
  private func write(_ state: State, unchanged: Bool) {
    let cause = nextCause ?? (generation == addedPageGeneration ? .nextPage : Self.cause(of: state))
    nextCause = nil
    entry?.engineWrote(state, cause: cause, equalsBase: unchanged)
  }

  /// Why the engine wrote `state`: a spinner is a fetch's start, the reset state a reset,
  /// and anything else what a fetch returned or threw.
  private static func cause(of state: State) -> WriteCause {
    if state.isAnyStarted { return .started }
    if state.isResetState { return .reset }
    return .fetched
  }
}

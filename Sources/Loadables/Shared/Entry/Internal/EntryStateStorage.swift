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
  // The stored properties, in the order that packs them: the flags after the state, in the
  // bytes its layout leaves free before the next word.

  /// The entry the engine's writes go to; set by the entry before the engine first runs on
  /// this slot (``link(_:)``). A weak reference costs its target a side table of its own, so
  /// an entry the engine never ran on (one restored at launch and only read) has none.
  @exclusivity(unchecked) private(set) weak var entry: SharedEntry<Value, State>?

  /// The state on screen: the base with the pending edits laid over it.
  @exclusivity(unchecked) private(set) var storage: State

  /// Why the engine's next write happens, when the entry knows better than the state does
  /// (a restore after its own `cancel()`); `nil` otherwise.
  @exclusivity(unchecked) var nextCause: WriteCause?

  /// Whether the running fetch is counted in the store's activity (``LoaderStore/isRunning``).
  @exclusivity(unchecked) var countsAsFetching = false

  /// Whether the entry was removed from its store (``LoaderStore/remove(_:matching:pendingEdits:)``):
  /// it keeps working for whoever holds it, but is neither saved nor counted any more.
  @exclusivity(unchecked) var isDetached = false

  /// Whether a placeholder shows, as last told to observers: the entry's observable
  /// ``SharedEntry/isPlaceholder``.
  @exclusivity(unchecked) private var showsPlaceholder = false

  /// Whether ``entry`` was set (``link(_:)``).
  @exclusivity(unchecked) private(set) var isLinked = false

  /// Whether a fetch time shows (``shownFetchedTime``).
  @exclusivity(unchecked) private var hasFetchedAt = false

  /// The state the current fetch replaced (see ``LoadMachine/replaced``), in a box made when
  /// a fetch replaces one and released when it ends: an entry at rest (one restored at
  /// launch, one whose fetch has landed) keeps room for one state, not two.
  @exclusivity(unchecked) private var replacedBox: ReplacedState<State>?

  /// The state the current fetch replaced; see ``LoadMachine/replaced``.
  var replaced: State? {
    get { replacedBox?.state }
    set {
      guard let newValue else {
        replacedBox = nil
        return
      }
      if let replacedBox {
        replacedBox.state = newValue
      } else {
        replacedBox = ReplacedState(newValue)
      }
    }
  }

  /// The registrar the state and the entry's status are observed through, made at the first
  /// observed read: until then nothing can observe either, and an entry nobody has read (one
  /// restored at launch for a screen not shown yet) stays small. Boxed, as a stored slot's is
  /// (`StoredStateStorage`). The state and each status value have a key of their own, so a
  /// view reading one is not woken by a change of another.
  @exclusivity(unchecked) private var observers: StateObservers?

  /// When the value shown was fetched, on the store's stopwatch, as last told to observers:
  /// the entry's observable ``SharedEntry/fetchedAt``; meaningful while ``hasFetchedAt``.
  /// A time and a flag among the others rather than an optional, whose one extra byte
  /// would take the slot a size further.
  @exclusivity(unchecked) private var shownFetchedTime: Duration = .zero

  /// When the value shown was fetched, as last told to observers; `nil` for none.
  private var shownFetchedAt: Duration? {
    get { hasFetchedAt ? shownFetchedTime : nil }
    set {
      hasFetchedAt = newValue != nil
      shownFetchedTime = newValue ?? .zero
    }
  }

  /// The app's fetch of a value entry, which its engine runs under the entry's policy
  /// (``ValueEntryEngine``); `nil` for a paged list, whose engine holds its source. Held here,
  /// by the entry's own object, so that the engine holds nothing of one entry's and entries
  /// share it.
  let valueFetch: (@MainActor () async throws -> Value)?

  nonisolated init(_ empty: State, fetch: (@MainActor () async throws -> Value)?) {
    storage = empty
    valueFetch = fetch
    super.init()
  }

  /// Points the engine's writes at `entry`, the entry that holds this slot: called before
  /// the engine first runs on it (``SharedEntry/engineSlot``).
  func link(_ entry: SharedEntry<Value, State>) {
    self.entry = entry
    isLinked = true
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
    observeEntry(LoadRuntime.stateKey)
    return storage
  }

  /// The engine sees the committed base, never an optimistic value.
  func read() -> State? { entry?.base }

  /// The fetch ended or was stopped: the store's activity stops counting it.
  override func didBecomeIdle() {
    if countsAsFetching { entry?.noteFetchEnded() }
  }

  /// Whether `state` is what the entry shows already (for a state that is `Equatable`).
  func shows(_ state: State) -> Bool { statesAreEqual(state, storage) }

  /// Shows `state` and tells its observers.
  func show(_ state: State) {
    // Nobody has read the state yet, so nobody observes it.
    guard let observers else {
      storage = state
      return
    }
    observers.registrar.willSet(self as LoadRuntime, keyPath: LoadRuntime.stateKey)
    storage = state
    observers.registrar.didSet(self as LoadRuntime, keyPath: LoadRuntime.stateKey)
  }

  // MARK: - The entry's status

  /// Registers the current observer (if any) of the value kept under `key`.
  private func observeEntry(_ key: KeyPath<LoadRuntime, Int>) {
    let observers: StateObservers
    if let made = self.observers {
      observers = made
    } else {
      observers = StateObservers()
      self.observers = observers
    }
    observers.registrar.access(self as LoadRuntime, keyPath: key)
  }

  /// Makes `change` to the value kept under `key`, telling its observers if it has any.
  private func changeEntry(_ key: KeyPath<LoadRuntime, Int>, _ change: () -> Void) {
    guard let observers else { return change() }
    observers.registrar.willSet(self as LoadRuntime, keyPath: key)
    change()
    observers.registrar.didSet(self as LoadRuntime, keyPath: key)
  }

  /// Registers the current observer (if any) of the entry's staleness, which the entry
  /// computes on the spot (``SharedEntry/isStale``).
  func observeStaleness() { observeEntry(LoadRuntime.entryStaleKey) }

  /// The entry's book turned its value stale or fresh: tells the staleness's observers.
  func staleChanged() { changeEntry(LoadRuntime.entryStaleKey) {} }

  /// When the value shown was fetched, on the store's stopwatch. Observable.
  var fetchedAt: Duration? {
    observeEntry(LoadRuntime.entryFetchedKey)
    return shownFetchedAt
  }

  func setFetchedAt(_ value: Duration?) {
    guard shownFetchedAt != value else { return }
    changeEntry(LoadRuntime.entryFetchedKey) { shownFetchedAt = value }
  }

  /// Whether a placeholder shows that no fetch has replaced yet. Observable.
  var isPlaceholder: Bool {
    observeEntry(LoadRuntime.entryPlaceholderKey)
    return showsPlaceholder
  }

  func setPlaceholder(_ value: Bool) {
    guard showsPlaceholder != value else { return }
    changeEntry(LoadRuntime.entryPlaceholderKey) { showsPlaceholder = value }
  }
}

extension LoadRuntime {
  // The keys of a shared entry's status, declared on the non-generic base so that their key
  // paths are made once, not for each entry's generic slot type.
  nonisolated final var entryStaleMarker: Int { 0 }
  nonisolated final var entryFetchedMarker: Int { 0 }
  nonisolated final var entryPlaceholderMarker: Int { 0 }

  static let entryStaleKey: KeyPath<LoadRuntime, Int> = \LoadRuntime.entryStaleMarker
  static let entryFetchedKey: KeyPath<LoadRuntime, Int> = \LoadRuntime.entryFetchedMarker
  static let entryPlaceholderKey: KeyPath<LoadRuntime, Int> = \LoadRuntime.entryPlaceholderMarker
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
    guard let entry else {
      nextCause = nil
      return
    }
    let cause =
      nextCause ?? (entry.engine.isAddedPage(generation) ? .nextPage : Self.cause(of: state))
    nextCause = nil
    entry.engineWrote(state, cause: cause, equalsBase: unchanged)
  }

  /// Why the engine wrote `state`: a spinner is a fetch's start, the reset state a reset,
  /// and anything else what a fetch returned or threw.
  private static func cause(of state: State) -> WriteCause {
    if state.isAnyStarted { return .started }
    if state.isResetState { return .reset }
    return .fetched
  }
}

/// The state a shared entry's running fetch replaced, kept while the fetch runs.
final class ReplacedState<State> {
  @exclusivity(unchecked) var state: State

  init(_ state: State) { self.state = state }
}

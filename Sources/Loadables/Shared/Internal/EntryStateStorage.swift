import Observation

/// The entry storage: the engine's slot behind a shared entry. The engine runs the entry's fetches through it
/// and sees the entry's committed base; what it writes goes to the entry, which lays the
/// pending edits over it and shows the result here.
///
/// Its properties are `@exclusivity(unchecked)` for the reason the engine's are (see
/// `LoadRuntime`): main-actor only, never held across a call that could touch them.
@MainActor
final class EntryStateStorage<Value: Sendable>: LoadRuntime, LoadMachine {
  /// The entry the engine's writes go to; set once, right after the entry is made.
  @exclusivity(unchecked) weak var entry: SharedLoader<Value>?

  /// The state on screen: the base with the pending edits laid over it.
  @exclusivity(unchecked) private(set) var storage: LoadableState<Value> = .absent

  /// The state the current fetch replaced; see ``LoadMachine/replaced``.
  @exclusivity(unchecked) var replaced: LoadableState<Value>?

  /// Why the engine's next write happens, when the entry knows better than the state does
  /// (a restore after its own `cancel()`); `nil` otherwise.
  @exclusivity(unchecked) var nextCause: WriteCause?

  private let registrar = ObservationRegistrar()

  nonisolated override init() { super.init() }

  /// The state on screen. Observable.
  var state: LoadableState<Value> {
    registrar.access(self as LoadRuntime, keyPath: LoadRuntime.stateKey)
    return storage
  }

  var reference: WeakSlot<EntryStateStorage> { WeakSlot(self) }

  /// The engine sees the committed base, never an optimistic value.
  func read() -> LoadableState<Value>? { entry?.book.base }

  func write(_ state: LoadableState<Value>) {
    let cause = nextCause ?? Self.cause(of: state)
    nextCause = nil
    entry?.engineWrote(state, cause: cause)
  }

  /// Shows `state` and tells its observers.
  func show(_ state: LoadableState<Value>) {
    registrar.willSet(self as LoadRuntime, keyPath: LoadRuntime.stateKey)
    storage = state
    registrar.didSet(self as LoadRuntime, keyPath: LoadRuntime.stateKey)
  }

  /// Why the engine wrote `state`: a spinner is a fetch's start, `.absent` a reset, and
  /// anything else what a fetch returned or threw.
  private static func cause(of state: LoadableState<Value>) -> WriteCause {
    switch state {
    case .loading: .started
    case .absent: .reset
    default: .fetched
    }
  }
}

/// The engine's operations on a shared entry's slot, for the entry's kind of state.
///
/// `SharedEntry` is generic over any ``SharedEntryState``, and the engine (`LoadMachine`)
/// runs only the states it knows (`EngineState`), which a public class cannot name; so the
/// entry calls the one engine through this object, made by the store for the entry's state:
/// ``ValueEntryEngine`` for a value's fetch (`ValueEntryEngine.swift`), ``PagedEntryEngine``
/// for a paged list's pages (`PagedEntryEngine.swift`). It holds what the fetches need (the
/// policy, a paged list's source) and never the entry: each call is handed the slot, which
/// holds a value entry's own fetch closure (``EntryStateStorage/valueFetch``).
///
/// An object, not a struct of closures: a store holds thousands of entries, and each closure
/// with a context is an allocation of its own. It holds nothing of one entry's, so entries
/// made one after another with the same plain policy share one (see
/// ``LoaderStore/valueEngine(policy:)``): entries made alike cost one engine between them,
/// not one each (see the restored entry's bytes in the Performance article).
@MainActor
class EntryEngine<Value: Sendable, State: SharedEntryState & Sendable>
where State.Value == Value {
  typealias Slot = EntryStateStorage<Value, State>

  nonisolated init() {}

  /// Starts the entry's fetch (a paged list's first page) in a new task, superseding the
  /// running one; silently when the book says so. With a `failure`, every attempt of the
  /// fetch throws it instead of running the app's fetch, under the same policy: an
  /// inspector's "make the next fetch fail" (``LoaderStore/failNextFetch(of:with:)``).
  func startFetch(_ slot: Slot, silently: Bool, failure: (any Error)?) {}

  /// Stops the running fetch and brings back what it replaced (``LoadMachine/cancel()``).
  func cancel(_ slot: Slot) {}

  /// Stops the running fetch and writes the reset state (``LoadMachine/reset()``).
  func reset(_ slot: Slot) {}

  /// Starts a paged list's next page (or, when `previous`, its previous page) in a new task;
  /// nothing for an entry of one value.
  func startAddedPage(_ slot: Slot, previous: Bool) {}

  /// Runs the fetch of the entry `slot` belongs to without touching the state (a
  /// ``SharedLoader``'s `fetch()`): the app's closure for a value; the first page's items for
  /// a paged list.
  func fetch(_ slot: Slot) async throws -> Value { throw CancellationError() }

  /// What a ``LoadKeyTypeMismatch`` names as the entry's type: the value's type for a
  /// ``LoadableState``, the state's for any other.
  var valueType: Any.Type { State.self }

  /// How many pages of a paged list `state` dropped to keep within its `maxPages`, at its
  /// start and at its end; none for an entry of one value.
  func droppedPages(in state: State) -> (start: Int, end: Int) { (0, 0) }

  /// The most pages a paged list keeps; `nil` for no limit, and for an entry of one value.
  var maxPages: Int? { nil }

  /// Whether `generation` is the slot's generation of a load fetching a paged list's next or
  /// previous page; never, for an entry of one value.
  func isAddedPage(_ generation: UInt64) -> Bool { false }

  /// The policy every fetch runs under, as ``LoadPolicy/description`` writes it.
  var policyDescription: String { "none" }
}

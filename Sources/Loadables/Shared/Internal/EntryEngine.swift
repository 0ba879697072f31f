/// The engine's operations on a shared entry's slot, bound when the entry is made, where its
/// state's engine is known.
///
/// `SharedEntry` is generic over any ``SharedEntryState``, and the engine (`LoadMachine`)
/// runs only the states it knows (`EngineState`), which a public class cannot name; so the
/// entry calls the one engine through these closures, made by the store for the entry's
/// state: a value's fetch (`SharedLoader.swift`), a paged list's first page
/// (`SharedPagedLoader.swift`). None holds the entry: each is handed the slot.
@MainActor
struct EntryEngine<Value: Sendable, State: SharedEntryState & Sendable>
where State.Value == Value {
  typealias Slot = EntryStateStorage<Value, State>

  /// Starts the entry's fetch (a paged list's first page) in a new task, superseding the
  /// running one; silently when the book says so.
  let startFetch: @MainActor (_ slot: Slot, _ silently: Bool) -> Void

  /// Stops the running fetch and brings back what it replaced (``LoadMachine/cancel()``).
  let cancel: @MainActor (_ slot: Slot) -> Void

  /// Stops the running fetch and writes the reset state (``LoadMachine/reset()``).
  let reset: @MainActor (_ slot: Slot) -> Void

  /// Runs the entry's fetch without touching the state (a ``SharedLoader``'s `fetch()`): the
  /// app's closure for a value; the first page's items for a paged list.
  let fetch: @MainActor () async throws -> Value

  /// What a ``LoadKeyTypeMismatch`` names as the entry's type: the value's type for a
  /// ``LoadableState``, the state's for any other.
  let valueType: Any.Type
}

extension EntryEngine where State: EngineState {
  /// The engine of an entry whose fetch `startFetch` starts and `fetch` runs; cancel and
  /// reset are the engine's own.
  init(
    valueType: Any.Type,
    fetch: @escaping @MainActor () async throws -> Value,
    startFetch: @escaping @MainActor (_ slot: Slot, _ silently: Bool) -> Void
  ) {
    self.init(
      startFetch: startFetch, cancel: { $0.cancel() }, reset: { $0.reset() }, fetch: fetch,
      valueType: valueType)
  }
}

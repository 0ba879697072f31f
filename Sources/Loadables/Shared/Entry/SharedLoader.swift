/// The shared entry of a single value: a ``SharedEntry`` holding a ``LoadableState``, and a
/// ``Loader``.
///
/// Get one from
/// ``LoaderStore/loader(for:staleTime:policy:waitsForNetwork:refreshing:persisted:fetch:)``:
///
/// ```swift
/// let post: SharedLoader<Post> = store.loader(for: ["posts", id]) { try await api.post(id) }
/// await post.load()
/// ```
public typealias SharedLoader<Value: Sendable> = SharedEntry<Value, LoadableState<Value>>

extension SharedEntry: Loader where State == LoadableState<Value> {
  /// Loads (see ``SharedEntry/load(silently:)``) and returns the value, or throws the error.
  ///
  /// - Parameter silently: When `true`, `.loading` is not written.
  /// - Returns: The value.
  /// - Throws: The error the entry shows, its refresh error, or `CancellationError` when
  ///   the caller was cancelled or the entry holds no value.
  public func value(silently: Bool) async throws -> Value {
    let state = await load(silently: silently)
    try Task.checkCancellation()
    if let error = slot.currentRefreshError { throw error }
    return try state.outcome()
  }

  /// Runs the entry's fetch closure, without touching the state.
  ///
  /// - Returns: The value.
  /// - Throws: Whatever the closure throws.
  public func fetch() async throws -> Value { try await engine.fetch() }
}

/// The engine of a value's entry: each fetch runs the app's closure under the entry's
/// policy.
final class ValueEntryEngine<Value: Sendable>: EntryEngine<Value, LoadableState<Value>> {
  private let policy: LoadPolicy<Value>
  private let work: @MainActor () async throws -> Value

  init(policy: LoadPolicy<Value>, fetch work: @escaping @MainActor () async throws -> Value) {
    self.policy = policy
    self.work = work
    super.init()
  }

  override func startFetch(_ slot: Slot, silently: Bool, failure: (any Error)?) {
    // The block holds the slot weakly, as the entry's task does: an entry gone before its
    // task runs fetches nothing.
    let work = self.work
    let block: @MainActor () async throws -> Value = { [weak slot] in
      guard slot != nil else { throw CancellationError() }
      if let failure { throw failure }
      return try await work()
    }
    _ = slot.launch((), silently: silently, priority: nil, policy: policy, block: block)
  }

  override func cancel(_ slot: Slot) { slot.cancel() }
  override func reset(_ slot: Slot) { slot.reset() }
  override func fetch() async throws -> Value { try await work() }
  override var valueType: Any.Type { Value.self }
  override var policyDescription: String { policy.description }
}

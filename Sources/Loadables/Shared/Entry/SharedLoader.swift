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
  public func fetch() async throws -> Value { try await engine.fetch(slot) }
}

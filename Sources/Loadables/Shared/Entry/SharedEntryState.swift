/// A state a ``SharedEntry`` of a ``LoaderStore`` can hold: ``LoadableState`` for a single
/// value (a ``SharedLoader``), ``PagedState`` for a list loaded page by page (a
/// ``SharedPagedLoader``, whose value is the items).
///
/// The store's rules — one fetch for every screen, freshness, invalidation, optimistic edits
/// that roll back, persistence — are written once, for every state that conforms. What they
/// need to know of a state is whether it shows a value, and how to show another one:
///
/// <!-- compile: context Shared -->
/// ```swift
/// let posts = store.loader(for: ["posts"]) { try await api.posts() }
/// try await store.edit {
///   $0.update(posts) { $0[0].title = "Renamed" }
/// } perform: {
///   try await api.rename(id, to: "Renamed")
/// }
/// ```
///
/// The library's states conform; its requirements are implementation details of the store,
/// named with a leading underscore. Do not conform your own types.
public protocol SharedEntryState {
  /// The value an edit changes and a persisted entry saves: the loaded value of a
  /// ``LoadableState``, the items of a ``PagedState``.
  associatedtype Value

  /// Whether the state shows a value. An implementation detail of ``LoaderStore``.
  var _holdsValue: Bool { get }

  /// The value the state shows; `nil` when it shows none. An implementation detail of
  /// ``LoaderStore``.
  var _value: Value? { get }

  /// This state showing `value` instead: an edit's `set`, or a value restored from the
  /// store's persistence. An implementation detail of ``LoaderStore``.
  ///
  /// - Parameter value: The value to show.
  /// - Returns: The state showing it.
  func _holding(_ value: Value) -> Self

  /// This state with the value it shows changed by `transform`; the state itself when it
  /// shows no value. An edit's `update`. An implementation detail of ``LoaderStore``.
  ///
  /// - Parameter transform: Returns the changed value.
  /// - Returns: The changed state.
  func _updatingValue(_ transform: (Value) -> Value) -> Self
}

extension LoadableState: SharedEntryState {
  /// Whether the state is ``loaded(_:)``. An implementation detail of ``LoaderStore``.
  @inlinable public var _holdsValue: Bool { isLoaded }

  /// The loaded value. An implementation detail of ``LoaderStore``.
  @inlinable public var _value: Value? { data }

  /// ``loaded(_:)`` with `value`, whatever this state is. An implementation detail of
  /// ``LoaderStore``.
  ///
  /// - Parameter value: The value to show.
  /// - Returns: `.loaded(value)`.
  @inlinable public func _holding(_ value: Value) -> LoadableState { .loaded(value) }

  /// The loaded value changed by `transform`; any other state as it is. An implementation
  /// detail of ``LoaderStore``.
  ///
  /// - Parameter transform: Returns the changed value.
  /// - Returns: The changed state.
  @inlinable
  public func _updatingValue(_ transform: (Value) -> Value) -> LoadableState {
    guard case .loaded(let value) = self else { return self }
    return .loaded(transform(value))
  }
}

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

extension PagedState: SharedEntryState {
  /// Whether the list is loaded. An implementation detail of ``LoaderStore``.
  public var _holdsValue: Bool { list.isLoaded }

  /// The items of the loaded list. An implementation detail of ``LoaderStore``.
  public var _value: [Item]? { list.data }

  /// This state with `items` as its loaded list: the pages, their cursors and the next and
  /// previous pages' phases stay when the list was loaded (the pages show `items` when they hold as
  /// many, as in ``_updatingValue(_:)``). An implementation detail of ``LoaderStore``.
  ///
  /// - Parameter items: The items to show.
  /// - Returns: The state showing them.
  public func _holding(_ items: [Item]) -> PagedState {
    guard list.isLoaded else { return PagedState(list: .loaded(items)) }
    var state = self
    state.list = .loaded(items)
    state.pages = Self.pages(pages, showing: items)
    return state
  }

  /// This state with its loaded items changed by `transform`; any other state as it is. An
  /// implementation detail of ``LoaderStore``.
  ///
  /// A change that keeps the number of items (an item patched in place) shows in ``pages``
  /// too, page by page; one that adds or removes items changes ``items`` only, and the pages
  /// stay as they were fetched. Views read ``items``.
  ///
  /// - Parameter transform: Returns the changed items.
  /// - Returns: The changed state.
  public func _updatingValue(_ transform: ([Item]) -> [Item]) -> PagedState {
    guard case .loaded(let items) = list else { return self }
    let changed = transform(items)
    var state = self
    state.list = .loaded(changed)
    state.pages = Self.pages(pages, showing: changed)
    return state
  }

  /// `pages` with their items replaced by `items`, page by page, when they hold as many
  /// items in all; `pages` as they are otherwise.
  static func pages(_ pages: [Page<Item, Cursor>], showing items: [Item]) -> [Page<Item, Cursor>] {
    guard pages.reduce(0, { $0 + $1.items.count }) == items.count else { return pages }
    var start = items.startIndex
    return pages.map { page in
      let end = start + page.items.count
      defer { start = end }
      var page = page
      page.items = Array(items[start..<end])
      return page
    }
  }
}

// `@Paged` and the key-path paged form follow a shared paged entry as the value forms follow
// a `SharedLoader` (see `Following.swift`): the entry's states are mirrored into the form's
// own state. The entry is the one source of truth: its own `loadNextPage()`, `refresh()` and
// `loadPreviousPage()` load its pages, and every form following it shows them.

extension Paged.Binding {
  /// Shows a shared paged entry's list in this property and keeps following it — its next
  /// pages, a refresh after an invalidation, another screen's edit — until this property
  /// starts, cancels or resets a load of its own, is assigned, or goes away; starts the
  /// entry's load (see ``SharedEntry/load(silently:)``) before returning.
  ///
  /// ```swift
  /// @Paged var list: PagedState<Post, Int>
  /// let feed = store.pagedLoader(
  ///   for: ["feed"], source: .numbered(pageSize: 20) { _, _ in try await api.posts() })
  /// await $list.load(from: feed)  // the entry's pages; at once when it holds some
  /// await feed.loadNextPage()     // the entry's next page, shown here and on every screen
  /// ```
  ///
  /// While it follows, the property shows the entry's pages, cursors and errors, and its
  /// ``handle`` the entry's status (`isRunning`, `isRefreshing`, `refreshError`, …), so the
  /// entry's own ``SharedEntry/loadNextPage()``, ``SharedEntry/refresh()`` and
  /// ``SharedEntry/loadPreviousPage()`` show their spinners here too. A call with a
  /// ``PagedSource`` is a load of the property's own, which ends the following.
  ///
  /// - Parameter entry: The shared paged entry to follow.
  /// - Returns: The task waiting for the entry's load; you need not keep it.
  @MainActor @discardableResult
  public func load(from entry: SharedPagedLoader<Item, Cursor>) -> Task<Void, Never> {
    storage.follow(entry)
    return entry.start()
  }

  /// Shows a shared paged entry's list in this property, keeps following it, and returns
  /// when the entry's load ends; see `load(from: entry)` above.
  ///
  /// - Parameter entry: The shared paged entry to follow.
  @MainActor
  public func load(from entry: SharedPagedLoader<Item, Cursor>) async {
    storage.follow(entry)
    await entry.load()
  }
}

extension LoadableSupport {
  /// Shows a shared paged entry's list in `state` and keeps following it for as long as this
  /// instance lives (or until a load, cancel or reset of `state` of its own); starts the
  /// entry's load before returning, as `$list.load(from: entry)` does on a ``Paged`` property.
  ///
  /// ```swift
  /// @MainActor @Observable final class SharedFeedModel: LoadableSupport {
  ///   var feed = PagedState<Post, Int>()
  ///   let entry: SharedPagedLoader<Post, Int>
  ///
  ///   init(store: LoaderStore, source: PagedSource<Post, Int>) {
  ///     entry = store.pagedLoader(for: ["feed"], source: source)
  ///   }
  ///
  ///   func appear() { load(\.feed, from: entry) }
  ///   func reachedLastRow() async { await entry.loadNextPage() }
  /// }
  /// ```
  ///
  /// The following counts as one observer of the entry, and `handle(\.feed)` shows the
  /// entry's status while it lasts, for the entry's own page loads and refreshes too. Once
  /// this instance is released it no longer counts.
  ///
  /// - Parameters:
  ///   - state: The key path of the list.
  ///   - entry: The shared paged entry to follow.
  /// - Returns: The task waiting for the entry's load; you need not keep it.
  @MainActor @discardableResult
  public func load<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>,
    from entry: SharedPagedLoader<Item, Cursor>
  ) -> Task<Void, Never> {
    SlotRegistry.slot(self, state).follow(entry, owner: self)
    return entry.start()
  }

  /// Shows a shared paged entry's list in `state`, keeps following it, and returns when the
  /// entry's load ends.
  ///
  /// - Parameters:
  ///   - state: The key path of the list.
  ///   - entry: The shared paged entry to follow.
  @MainActor
  public func load<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>,
    from entry: SharedPagedLoader<Item, Cursor>
  ) async {
    SlotRegistry.slot(self, state).follow(entry, owner: self)
    await entry.load()
  }
}

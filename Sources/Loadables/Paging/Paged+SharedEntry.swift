// `@Paged` and the key-path paged form follow a shared paged entry as the value forms follow
// a `SharedLoader` (see `Following.swift`): the entry's states are mirrored into the form's
// own state, and the form's page calls drive the entry. The entry is the one source of truth.

extension Paged.Binding {
  /// Shows a shared paged entry's list in this property and keeps following it — its next
  /// pages, a refetch after an invalidation, another screen's edit — until this property
  /// starts, cancels or resets a load of its own, is assigned, or goes away; starts the
  /// entry's load (see ``SharedEntry/load(silently:)``) before returning.
  ///
  /// ```swift
  /// @Paged var list: PagedState<Post, Int>
  /// let feed = store.pagedLoader(
  ///   for: ["feed"], source: .numbered(pageSize: 20) { _, _ in try await api.posts() })
  /// await $list.load(from: feed)          // the entry's pages; at once when it holds some
  /// await $list.loadNextPage(from: feed)  // the entry's next page, for every screen
  /// ```
  ///
  /// While it follows, the property's ``handle`` shows the entry's status (`isRunning`,
  /// `isRefreshing`, `refreshError`, …), and `refresh(from: entry)`,
  /// `loadNextPage(from: entry)` and `loadPreviousPage(from: entry)` load the entry's
  /// pages. A call with a ``PagedSource`` is a load of the property's own, which ends the
  /// following.
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

  /// Refetches a shared paged entry (see ``SharedEntry/refetch()``), keeping its list on
  /// screen, and follows it; returns at once.
  ///
  /// - Parameter entry: The shared paged entry.
  /// - Returns: The task waiting for the refetch; you need not keep it.
  @MainActor @discardableResult
  public func refresh(from entry: SharedPagedLoader<Item, Cursor>) -> Task<Void, Never> {
    storage.follow(entry)
    return entry.startRefetchTask()
  }

  /// Refetches a shared paged entry, keeping its list on screen, follows it, and returns when
  /// the refetch ends. Use it from `.refreshable { }`.
  ///
  /// - Parameter entry: The shared paged entry.
  @MainActor
  public func refresh(from entry: SharedPagedLoader<Item, Cursor>) async {
    storage.follow(entry)
    await entry.refetch()
  }

  /// Loads a shared paged entry's next page (see ``SharedEntry/loadNextPage()``) and follows
  /// the entry; the page's spinner shows before this returns. Every screen showing the entry
  /// gets the page.
  ///
  /// - Parameter entry: The shared paged entry.
  /// - Returns: The task waiting for the page; you need not keep it.
  @MainActor @discardableResult
  public func loadNextPage(from entry: SharedPagedLoader<Item, Cursor>) -> Task<Void, Never> {
    storage.follow(entry)
    return entry.startAddedPage(previous: false)
  }

  /// Loads a shared paged entry's next page, follows the entry, and returns when the load has
  /// stopped.
  ///
  /// - Parameter entry: The shared paged entry.
  @MainActor
  public func loadNextPage(from entry: SharedPagedLoader<Item, Cursor>) async {
    storage.follow(entry)
    await entry.loadNextPage()
  }

  /// Loads the page before a shared paged entry's first one (see
  /// ``SharedEntry/loadPreviousPage()``) and follows the entry; returns at once.
  ///
  /// - Parameter entry: The shared paged entry.
  /// - Returns: The task waiting for the page; you need not keep it.
  @MainActor @discardableResult
  public func loadPreviousPage(from entry: SharedPagedLoader<Item, Cursor>) -> Task<Void, Never> {
    storage.follow(entry)
    return entry.startAddedPage(previous: true)
  }

  /// Loads the page before a shared paged entry's first one, follows the entry, and returns
  /// when the load has stopped.
  ///
  /// - Parameter entry: The shared paged entry.
  @MainActor
  public func loadPreviousPage(from entry: SharedPagedLoader<Item, Cursor>) async {
    storage.follow(entry)
    await entry.loadPreviousPage()
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
  ///   func reachedLastRow() { loadNextPage(\.feed, from: entry) }
  /// }
  /// ```
  ///
  /// The following counts as one observer of the entry, and `handle(\.feed)` shows the
  /// entry's status while it lasts. Once this instance is released it no longer counts.
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

  /// Refetches a shared paged entry, keeping its list on screen, and follows it in `state`;
  /// returns at once.
  ///
  /// - Parameters:
  ///   - state: The key path of the list.
  ///   - entry: The shared paged entry.
  /// - Returns: The task waiting for the refetch; you need not keep it.
  @MainActor @discardableResult
  public func refresh<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>,
    from entry: SharedPagedLoader<Item, Cursor>
  ) -> Task<Void, Never> {
    SlotRegistry.slot(self, state).follow(entry, owner: self)
    return entry.startRefetchTask()
  }

  /// Refetches a shared paged entry, keeping its list on screen, follows it in `state`, and
  /// returns when the refetch ends.
  ///
  /// - Parameters:
  ///   - state: The key path of the list.
  ///   - entry: The shared paged entry.
  @MainActor
  public func refresh<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>,
    from entry: SharedPagedLoader<Item, Cursor>
  ) async {
    SlotRegistry.slot(self, state).follow(entry, owner: self)
    await entry.refetch()
  }

  /// Loads a shared paged entry's next page and follows the entry in `state`; the page's
  /// spinner shows before this returns.
  ///
  /// - Parameters:
  ///   - state: The key path of the list.
  ///   - entry: The shared paged entry.
  /// - Returns: The task waiting for the page; you need not keep it.
  @MainActor @discardableResult
  public func loadNextPage<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>,
    from entry: SharedPagedLoader<Item, Cursor>
  ) -> Task<Void, Never> {
    SlotRegistry.slot(self, state).follow(entry, owner: self)
    return entry.startAddedPage(previous: false)
  }

  /// Loads a shared paged entry's next page, follows the entry in `state`, and returns when
  /// the load has stopped.
  ///
  /// - Parameters:
  ///   - state: The key path of the list.
  ///   - entry: The shared paged entry.
  @MainActor
  public func loadNextPage<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>,
    from entry: SharedPagedLoader<Item, Cursor>
  ) async {
    SlotRegistry.slot(self, state).follow(entry, owner: self)
    await entry.loadNextPage()
  }

  /// Loads the page before a shared paged entry's first one and follows the entry in
  /// `state`; returns at once.
  ///
  /// - Parameters:
  ///   - state: The key path of the list.
  ///   - entry: The shared paged entry.
  /// - Returns: The task waiting for the page; you need not keep it.
  @MainActor @discardableResult
  public func loadPreviousPage<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>,
    from entry: SharedPagedLoader<Item, Cursor>
  ) -> Task<Void, Never> {
    SlotRegistry.slot(self, state).follow(entry, owner: self)
    return entry.startAddedPage(previous: true)
  }

  /// Loads the page before a shared paged entry's first one, follows the entry in `state`,
  /// and returns when the load has stopped.
  ///
  /// - Parameters:
  ///   - state: The key path of the list.
  ///   - entry: The shared paged entry.
  @MainActor
  public func loadPreviousPage<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>,
    from entry: SharedPagedLoader<Item, Cursor>
  ) async {
    SlotRegistry.slot(self, state).follow(entry, owner: self)
    await entry.loadPreviousPage()
  }
}

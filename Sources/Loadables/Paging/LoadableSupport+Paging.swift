// The key-path form of paging: a `PagedState` stored in the user's own (`@Observable`)
// class, loaded with the same calls as `@Paged`'s binding.

extension LoadableSupport {
  /// Loads the first page of `state` in a new task, showing `.loading` in place of the
  /// list; see ``Paged/Binding/load(from:priority:)``.
  ///
  /// <!-- compile: context PagingTypes -->
  /// ```swift
  /// @MainActor @Observable final class FeedModel: LoadableSupport {
  ///   var feed = PagedState<Post, Int>()
  ///   let source = PagedSource<Post, Int>.numbered(pageSize: 20) { page, size in
  ///     try await api.posts(page: page, perPage: size)
  ///   }
  ///
  ///   func appear() { load(\.feed, from: source) }
  ///   func reachedLastRow() { loadNextPage(\.feed, from: source) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - state: The key path of the list.
  ///   - source: The paged source.
  ///   - priority: The priority of the new task.
  /// - Returns: The task running the load; you need not keep it.
  @MainActor @discardableResult @inlinable
  public func load<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>,
    from source: PagedSource<Item, Cursor>,
    priority: TaskPriority? = nil
  ) -> Task<Void, Never> {
    SlotRegistry.slot(self, state).launchFirstPage(source, refreshing: false, priority: priority)
  }

  /// Starts loading the first page of `state` in a new task and returns at once, from
  /// synchronous and asynchronous code alike: the one way to start without waiting. Inside
  /// `async` code `load(_:from:)` waits; `start` never does. See
  /// ``Paged/Binding/start(from:priority:)``.
  ///
  /// <!-- compile: context PagingModel -->
  /// ```swift
  /// func appeared() async {
  ///   start(\.feed, from: source)  // does not wait
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - state: The key path of the list.
  ///   - source: The paged source.
  ///   - priority: The priority of the new task.
  /// - Returns: The task running the load; you need not keep it.
  @MainActor @discardableResult @inlinable
  public func start<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>,
    from source: PagedSource<Item, Cursor>,
    priority: TaskPriority? = nil
  ) -> Task<Void, Never> {
    SlotRegistry.slot(self, state).launchFirstPage(source, refreshing: false, priority: priority)
  }

  /// Loads the first page of `state`, showing `.loading`, and returns when the load has
  /// stopped.
  ///
  /// - Parameters:
  ///   - state: The key path of the list.
  ///   - source: The paged source.
  @MainActor @inlinable
  public func load<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>,
    from source: PagedSource<Item, Cursor>
  ) async {
    await SlotRegistry.slot(self, state).performFirstPage(source, refreshing: false)
  }

  /// Reloads `state` from the first page in a new task, keeping the list on screen until
  /// the new first page replaces it; see ``Paged/Binding/refresh(from:priority:)``.
  ///
  /// - Parameters:
  ///   - state: The key path of the list.
  ///   - source: The paged source.
  ///   - priority: The priority of the new task.
  /// - Returns: The task running the load; you need not keep it.
  @MainActor @discardableResult @inlinable
  public func refresh<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>,
    from source: PagedSource<Item, Cursor>,
    priority: TaskPriority? = nil
  ) -> Task<Void, Never> {
    SlotRegistry.slot(self, state).launchFirstPage(source, refreshing: true, priority: priority)
  }

  /// Reloads `state` from the first page, keeping the list on screen, and returns when the
  /// load has stopped.
  ///
  /// - Parameters:
  ///   - state: The key path of the list.
  ///   - source: The paged source.
  @MainActor @inlinable
  public func refresh<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>,
    from source: PagedSource<Item, Cursor>
  ) async {
    await SlotRegistry.slot(self, state).performFirstPage(source, refreshing: true)
  }

  /// Loads the next page of `state` in a new task and appends it; while a load of `state`
  /// runs, the returned task waits for it instead. See
  /// ``Paged/Binding/loadNextPage(from:priority:)``.
  ///
  /// - Parameters:
  ///   - state: The key path of the list.
  ///   - source: The paged source.
  ///   - priority: The priority of the new task.
  /// - Returns: The task running (or waiting for) the load; you need not keep it.
  @MainActor @discardableResult @inlinable
  public func loadNextPage<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>,
    from source: PagedSource<Item, Cursor>,
    priority: TaskPriority? = nil
  ) -> Task<Void, Never> {
    SlotRegistry.slot(self, state).launchNextPage(source, priority: priority)
  }

  /// Loads the next page of `state`, appends it, and returns when the load has stopped.
  ///
  /// - Parameters:
  ///   - state: The key path of the list.
  ///   - source: The paged source.
  @MainActor @inlinable
  public func loadNextPage<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>,
    from source: PagedSource<Item, Cursor>
  ) async {
    await SlotRegistry.slot(self, state).performNextPage(source)
  }

  /// Loads the page before the first one of `state` in a new task and puts it first; while
  /// a load of `state` runs, the returned task waits for it instead. See
  /// ``Paged/Binding/loadPreviousPage(from:priority:)``.
  ///
  /// <!-- compile: context PagingModel -->
  /// ```swift
  /// func reachedFirstRow() { loadPreviousPage(\.feed, from: source) }
  /// ```
  ///
  /// - Parameters:
  ///   - state: The key path of the list.
  ///   - source: The paged source.
  ///   - priority: The priority of the new task.
  /// - Returns: The task running (or waiting for) the load; you need not keep it.
  @MainActor @discardableResult @inlinable
  public func loadPreviousPage<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>,
    from source: PagedSource<Item, Cursor>,
    priority: TaskPriority? = nil
  ) -> Task<Void, Never> {
    SlotRegistry.slot(self, state).launchPreviousPage(source, priority: priority)
  }

  /// Loads the page before the first one of `state`, puts it first, and returns when the
  /// load has stopped. See ``Paged/Binding/loadPreviousPage(from:priority:)``.
  ///
  /// - Parameters:
  ///   - state: The key path of the list.
  ///   - source: The paged source.
  @MainActor @inlinable
  public func loadPreviousPage<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>,
    from source: PagedSource<Item, Cursor>
  ) async {
    await SlotRegistry.slot(self, state).performPreviousPage(source)
  }

  /// Cancels the running load of `state` and brings back what it replaced.
  ///
  /// - Parameter state: The key path of the list.
  @MainActor @inlinable
  public func cancel<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>
  ) {
    SlotRegistry.existingSlot(self, state)?.cancel()
  }

  /// Cancels the running load of `state` and empties the list.
  ///
  /// - Parameter state: The key path of the list.
  @MainActor @inlinable
  public func reset<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>
  ) {
    SlotRegistry.reset(self, state)
  }

  /// Calls `callback` with every state the library writes to `state` on this instance, in
  /// order.
  @_spi(Testing)
  @MainActor
  public func watchStates<Item: Sendable, Cursor: Equatable & Sendable>(
    _ state: ReferenceWritableKeyPath<Self, PagedState<Item, Cursor>>,
    _ callback: @escaping @MainActor (PagedState<Item, Cursor>) -> Void
  ) -> StateWatch {
    StateWatch(slot: SlotRegistry.slot(self, state)) { callback($0) }
  }
}

#if canImport(SwiftUI)
  internal import SwiftUI
#endif

/// A property wrapper that holds a ``PagedState`` — a list loaded one page at a time — and
/// manages the loads of its pages.
///
/// Describe the source once (``PagedSource``), then call `load`, `refresh`,
/// `loadNextPage` and `loadPreviousPage` on the projected value (`$feed`). Every page fetch runs through the same
/// engine as `@Loadable`: a newer load supersedes the older, a superseded or cancelled
/// fetch never writes, `cancel()` brings back what the load replaced, `reset()` empties the
/// list.
///
/// <!-- compile: context PagingTypes -->
/// ```swift
/// struct FeedView: View {
///   @Paged var feed: PagedState<Post, Int>
///   let source = PagedSource<Post, Int>.numbered(pageSize: 20) { page, size in
///     try await api.posts(page: page, perPage: size)
///   }
///
///   var body: some View {
///     List {
///       ForEach(feed.items) { post in
///         PostRow(post).onAppear {
///           if post.id == feed.items.last?.id { $feed.loadNextPage(from: source) }
///         }
///       }
///     }
///     .task { await $feed.load(from: source) }
///     .refreshable { await $feed.refresh(from: source) }
///   }
/// }
/// ```
///
/// In an `@Observable` class mark it `@ObservationIgnored`: the wrapper notifies observers
/// itself. When the wrapper's storage goes away, its running load is cancelled.
@propertyWrapper
public struct Paged<Item: Sendable, Cursor: Equatable & Sendable> {
  @usableFromInline var storage: StoredStateStorage<PagedState<Item, Cursor>>

  #if canImport(SwiftUI)
    /// The storage SwiftUI keeps for a view across re-creation; see `update()`.
    @SwiftUI.State var installedStorage: StoredStateStorage<PagedState<Item, Cursor>>
  #endif

  /// Creates the wrapper with an initial state, an empty unloaded list by default.
  ///
  /// - Parameter wrappedValue: The initial state.
  public init(wrappedValue: PagedState<Item, Cursor> = PagedState()) {
    let storage = StoredStateStorage(wrappedValue)
    self.storage = storage
    #if canImport(SwiftUI)
      _installedStorage = SwiftUI.State(initialValue: storage)
    #endif
  }

  /// The list: its pages, the first page's phase and the next page's phase.
  ///
  /// Reading it registers observation. Assigning it cancels the running load first.
  @MainActor @inlinable public var wrappedValue: PagedState<Item, Cursor> {
    get { storage.state }
    nonmutating set { storage.assign(newValue) }
  }

  /// The controls: `load`, `refresh`, `loadNextPage`, `loadPreviousPage`, `cancel()`,
  /// `reset()`, `isRunning`.
  @MainActor @inlinable public var projectedValue: Binding {
    Binding(storage: storage)
  }
}

extension Paged {
  /// The controls of a ``Paged`` property, from its projected value (`$feed`).
  ///
  /// | call | what it writes |
  /// |---|---|
  /// | `load(from:)` | `list` `.loading`, then the first page (`.loaded(items)`) or `.error(error)` |
  /// | `refresh(from:)` | nothing until the new first page arrives, which replaces the list; a failure keeps the list and sets `refreshError` |
  /// | `loadNextPage(from:)` | `nextPage` `.loading`, then the page appended (`nextPage` `.idle` or `.end`) or `nextPage` `.failed(error)` |
  /// | `loadPreviousPage(from:)` | `previousPage` `.loading`, then the page put first (`previousPage` `.idle` or `.end`) or `previousPage` `.failed(error)` |
  /// | `cancel()` | what the running load replaced |
  /// | `reset()` | an empty, unloaded list |
  ///
  /// `load` also takes a store's paged entry in place of a source
  /// (`$feed.load(from: entry)`): the property then follows the entry, showing what it
  /// writes, and the entry's own ``SharedEntry/loadNextPage()``, ``SharedEntry/refresh()``
  /// and ``SharedEntry/loadPreviousPage()`` load its pages.
  ///
  /// It is also a property wrapper, so a child view can declare
  /// `@PagedBinding var feed: PagedState<Post, Int>` and receive `$feed`.
  ///
  /// Everything a running load shows beside the list (`isRunning`, `isRefreshing`,
  /// `progress`, `attempt`, `isWaitingForNetwork`, `refreshError`, `states`) is the binding's
  /// ``handle``, the ``LoadHandle`` every form hands out.
  @propertyWrapper @dynamicMemberLookup
  public struct Binding: Sendable {
    @usableFromInline let storage: StoredStateStorage<PagedState<Item, Cursor>>

    @usableFromInline init(storage: StoredStateStorage<PagedState<Item, Cursor>>) {
      self.storage = storage
    }

    /// Creates a binding from a projected value: lets a child view's memberwise initialiser
    /// take `feed: $feed`.
    ///
    /// - Parameter projectedValue: The binding to share.
    public init(projectedValue: Binding) {
      self = projectedValue
    }

    /// The list. Assigning it cancels the running load first.
    @MainActor @inlinable public var wrappedValue: PagedState<Item, Cursor> {
      get { storage.state }
      nonmutating set { storage.assign(newValue) }
    }

    /// The binding itself, so `$feed` works on a `@PagedBinding` property too.
    public var projectedValue: Binding { self }

    /// The handle of this list: its status and controls, as every form hands them out,
    /// with the paging members (``LoadHandle/isRefreshing``).
    @MainActor @inlinable public var handle: LoadHandle<PagedState<Item, Cursor>> {
      LoadHandle(storage)
    }

    /// A member of the list's ``handle``: `$feed.isRunning`, `$feed.isRefreshing`,
    /// `$feed.refreshError`, `$feed.states`, …
    @MainActor @inlinable
    public subscript<Member>(
      dynamicMember member: KeyPath<LoadHandle<PagedState<Item, Cursor>>, Member>
    ) -> Member {
      handle[keyPath: member]
    }

    /// Cancels the running load and brings back what it replaced: a next page's footer
    /// spinner goes back to what the footer showed before, a first page's `.loading` to the
    /// list before it.
    @MainActor @inlinable public func cancel() { storage.cancel() }

    /// Cancels the running load and empties the list: `list` `.absent`, no pages.
    @MainActor @inlinable public func reset() { storage.reset() }

    /// Loads the first page in a new task, showing `.loading` in place of the list.
    ///
    /// Cancels the running load first. For pull-to-refresh, use
    /// ``refresh(from:priority:)``, which keeps the list on screen.
    ///
    /// - Parameters:
    ///   - source: The paged source.
    ///   - priority: The priority of the new task.
    /// - Returns: The task running the load; you need not keep it.
    @MainActor @discardableResult @inlinable
    public func load(
      from source: PagedSource<Item, Cursor>, priority: TaskPriority? = nil
    ) -> Task<Void, Never> {
      storage.launchFirstPage(source, refreshing: false, priority: priority)
    }

    /// Starts loading the first page in a new task and returns at once, from synchronous and
    /// asynchronous code alike: the one way to start without waiting.
    ///
    /// Inside `async` code `load(from:)` resolves to the awaited overload and returns when
    /// the load has stopped; `start` never waits. Everything else is as for `load`: the
    /// running load is cancelled first, `.loading` shows in place of the list, then the first
    /// page or the error.
    ///
    /// ```swift
    /// @Paged var list: PagedState<Post, Int>
    /// let source = PagedSource<Post, Int>.numbered(pageSize: 20) { _, _ in try await api.posts() }
    /// $list.start(from: source)                 // does not wait, in async code too
    /// await $feed.load { try await api.feed() }  // waits
    /// ```
    ///
    /// - Parameters:
    ///   - source: The paged source.
    ///   - priority: The priority of the new task.
    /// - Returns: The task running the load; you need not keep it.
    @MainActor @discardableResult @inlinable
    public func start(
      from source: PagedSource<Item, Cursor>, priority: TaskPriority? = nil
    ) -> Task<Void, Never> {
      storage.launchFirstPage(source, refreshing: false, priority: priority)
    }

    /// Loads the first page, showing `.loading` in place of the list, and returns when the
    /// load has stopped. Use it from `.task { }`.
    ///
    /// - Parameter source: The paged source.
    @MainActor @inlinable
    public func load(from source: PagedSource<Item, Cursor>) async {
      await storage.performFirstPage(source, refreshing: false)
    }

    /// Reloads from the first page in a new task, keeping the list on screen.
    ///
    /// The old pages stay until the new first page arrives, then the list holds that page
    /// alone: later pages are fetched again as they are asked for, from the cursors the new
    /// first page hands out. A next or previous page in flight is cancelled first, and its
    /// answer never written. When the refresh fails the list stays and the error is ``LoadHandle/refreshError``.
    /// With no list loaded yet it loads as ``load(from:priority:)`` does.
    ///
    /// - Parameters:
    ///   - source: The paged source.
    ///   - priority: The priority of the new task.
    /// - Returns: The task running the load; you need not keep it.
    @MainActor @discardableResult @inlinable
    public func refresh(
      from source: PagedSource<Item, Cursor>, priority: TaskPriority? = nil
    ) -> Task<Void, Never> {
      storage.launchFirstPage(source, refreshing: true, priority: priority)
    }

    /// Reloads from the first page, keeping the list on screen, and returns when the load
    /// has stopped; see ``refresh(from:priority:)``. Use it from `.refreshable { }`.
    ///
    /// - Parameter source: The paged source.
    @MainActor @inlinable
    public func refresh(from source: PagedSource<Item, Cursor>) async {
      await storage.performFirstPage(source, refreshing: true)
    }

    /// Loads the next page in a new task and appends it.
    ///
    /// Does nothing before the first page has arrived, at the end of the list, or after a
    /// ``RepeatedCursorError``. While a load of this list runs (a first page, a next or a
    /// previous page), it fetches nothing and the returned task waits for that load: calls
    /// made while a next page loads never fetch it twice, and one page loads at a time. After
    /// a failed next page it fetches that page again. When a page was dropped from the end
    /// by ``PagedSource/maxPages`` (after a previous page), it fetches that page again, at
    /// the cursor it was first fetched with.
    ///
    /// - Parameters:
    ///   - source: The paged source.
    ///   - priority: The priority of the new task.
    /// - Returns: The task running (or waiting for) the load; you need not keep it.
    @MainActor @discardableResult @inlinable
    public func loadNextPage(
      from source: PagedSource<Item, Cursor>, priority: TaskPriority? = nil
    ) -> Task<Void, Never> {
      storage.launchNextPage(source, priority: priority)
    }

    /// Loads the next page, appends it, and returns when the load has stopped; see
    /// ``loadNextPage(from:priority:)``. A call that joins a running load returns when that
    /// load has stopped, or at once when the caller is cancelled: the joined load goes on.
    ///
    /// - Parameter source: The paged source.
    @MainActor @inlinable
    public func loadNextPage(from source: PagedSource<Item, Cursor>) async {
      await storage.performNextPage(source)
    }

    /// Loads the page before the first one loaded in a new task and puts it first: its
    /// items come before the others.
    ///
    /// The page fetched is the one dropped from the start by ``PagedSource/maxPages``, at the
    /// cursor it was first fetched with, when one was dropped (scrolling back up); otherwise
    /// the page at the first page's ``Page/previous`` cursor (a feed that pages both ways).
    /// With `maxPages`, the last pages are dropped and fetched again by a later next page.
    ///
    /// <!-- compile: context PagingView -->
    /// ```swift
    /// ForEach(feed.items) { message in
    ///   MessageRow(message).onAppear {
    ///     if message.id == feed.items.first?.id { $feed.loadPreviousPage(from: source) }
    ///   }
    /// }
    /// ```
    ///
    /// Does nothing before the first page has arrived, when nothing comes before the first
    /// page (``PagedState/hasPreviousPage`` is `false`: ``PagedState/previousPage`` is
    /// ``NextPageState/end``), or after a ``RepeatedCursorError``. While a load of this list
    /// runs (a first page, a next or a previous page) it fetches nothing and the returned
    /// task waits for that load: one page loads at a time, so ask again once it has landed.
    /// After a failed previous page it fetches that page again. A refresh, `cancel()` or
    /// `reset()` stops it, and its answer is never written.
    ///
    /// - Parameters:
    ///   - source: The paged source.
    ///   - priority: The priority of the new task.
    /// - Returns: The task running (or waiting for) the load; you need not keep it.
    @MainActor @discardableResult @inlinable
    public func loadPreviousPage(
      from source: PagedSource<Item, Cursor>, priority: TaskPriority? = nil
    ) -> Task<Void, Never> {
      storage.launchPreviousPage(source, priority: priority)
    }

    /// Loads the page before the first one loaded, puts it first, and returns when the load
    /// has stopped; see ``loadPreviousPage(from:priority:)``. A call that joins a running
    /// load returns when that load has stopped, or at once when the caller is cancelled:
    /// the joined load goes on.
    ///
    /// - Parameter source: The paged source.
    @MainActor @inlinable
    public func loadPreviousPage(from source: PagedSource<Item, Cursor>) async {
      await storage.performPreviousPage(source)
    }
  }
}

/// The projected value of a ``Paged`` property, for a child view that loads pages into its
/// parent's list: `@PagedBinding var feed: PagedState<Post, Int>`.
public typealias PagedBinding<Item: Sendable, Cursor: Equatable & Sendable> = Paged<Item, Cursor>
  .Binding

extension Paged.Binding {
  /// Calls `callback` with every state the library writes to this list, in order.
  @_spi(Testing)
  @MainActor
  public func watchStates(
    _ callback: @escaping @MainActor (PagedState<Item, Cursor>) -> Void
  ) -> StateWatch {
    StateWatch(slot: storage) { callback($0) }
  }
}

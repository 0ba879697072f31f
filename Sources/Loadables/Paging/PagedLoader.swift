/// An object that loads one paged list and that any number of views observe: a feed, a
/// search's results, a thread's replies.
///
/// It holds its ``PagedSource`` and runs every page fetch through the same engine as
/// `@Paged` and the loaders: a newer load supersedes the older, a superseded or cancelled
/// fetch never writes, `cancel()` brings back what the load replaced.
///
/// <!-- compile: context Paging -->
/// ```swift
/// let feed = PagedLoader(source: .numbered(pageSize: 20) { page, size in
///   try await api.posts(page: page, perPage: size)
/// })
/// Task { for await state in feed.states { print(state) } }  // every state, in order
/// await feed.load()          // the first page
/// await feed.loadNextPage()  // the second, appended
/// await feed.loadPreviousPage()  // a page before the first, put first (when there is one)
/// await feed.refresh()       // the first page again, replacing the list when it arrives
/// ```
///
/// Its status and controls are its ``handle``, the ``LoadHandle`` every form hands out, read
/// on the loader itself (`feed.isRunning`, `feed.isRefreshing`, `feed.states`). They are
/// observable: a SwiftUI view that reads ``state``, `isRunning`, `progress`, `attempt` or
/// `refreshError` updates when they change.
@MainActor @dynamicMemberLookup
public final class PagedLoader<Item: Sendable, Cursor: Equatable & Sendable> {
  @usableFromInline let slot: StoredStateStorage<PagedState<Item, Cursor>>

  /// The source every page is fetched from, under its policy.
  public let source: PagedSource<Item, Cursor>

  /// Creates a loader.
  ///
  /// - Parameters:
  ///   - source: The paged source.
  ///   - state: The initial state; an empty, unloaded list by default.
  public init(source: PagedSource<Item, Cursor>, state: PagedState<Item, Cursor> = PagedState()) {
    self.slot = StoredStateStorage(state, loader: true)
    self.source = source
  }

  /// The list: its pages, the first page's phase and the next page's phase. Observable.
  public var state: PagedState<Item, Cursor> { slot.state }

  /// The loader's status and controls: its engine slot's ``LoadHandle``.
  ///
  /// <!-- compile: context Paging -->
  /// ```swift
  /// let recorder = StateRecorder(feed.handle)
  /// ```
  public var handle: LoadHandle<PagedState<Item, Cursor>> { LoadHandle(slot) }

  /// Every member of the loader's ``handle``, read on the loader: `feed.states`,
  /// `feed.isRunning`, `feed.progress`, `feed.attempt`, `feed.isWaitingForNetwork`,
  /// `feed.refreshError`, `feed.isRefreshing`.
  ///
  /// <!-- compile: context PagedLoaderView -->
  /// ```swift
  /// if feed.isRefreshing { ProgressView() }  // the list stays below
  /// ```
  ///
  /// - Parameter member: The handle's member.
  /// - Returns: Its value now.
  public subscript<Member>(
    dynamicMember member: KeyPath<LoadHandle<PagedState<Item, Cursor>>, Member>
  ) -> Member {
    handle[keyPath: member]
  }

  /// Loads the first page, showing `.loading` in place of the list, and returns when the
  /// load has stopped. Cancelling the calling task cancels the load.
  @inlinable
  public func load() async {
    await slot.performFirstPage(source, refreshing: false)
  }

  /// Starts loading the first page, showing `.loading` in place of the list, and returns at
  /// once: the one way to start without waiting, from synchronous and asynchronous code
  /// alike. `.loading` shows before this returns.
  ///
  /// ```swift
  /// let feed = PagedLoader(
  ///   source: PagedSource<Post, Int>.numbered(pageSize: 20) { _, _ in try await api.posts() })
  /// feed.start()  // `.loading` shows now; does not wait
  /// ```
  ///
  /// - Returns: The task running the load; cancelling it cancels the load.
  @discardableResult @inlinable
  public func start() -> Task<Void, Never> {
    slot.launchFirstPage(source, refreshing: false, priority: nil)
  }

  /// Reloads from the first page, keeping the list on screen, and returns when the load
  /// has stopped.
  ///
  /// The old pages stay until the new first page arrives, then the list holds that page
  /// alone; later pages are fetched again as they are asked for. A next or previous page in
  /// flight is cancelled first and its answer never written. A failed refresh keeps the list and
  /// shows the error as ``LoadHandle/refreshError``.
  @inlinable
  public func refresh() async {
    await slot.performFirstPage(source, refreshing: true)
  }

  /// Loads the next page, appends it, and returns when the load has stopped.
  ///
  /// Does nothing before the first page has arrived, at the end of the list, or after a
  /// ``RepeatedCursorError``. While a load of this list runs (a first, next or previous
  /// page) it fetches nothing and waits for that load: calls made while a next page loads
  /// never fetch it twice, and one page loads at a time. After a failed next page it fetches
  /// that page again. A page dropped from the end by ``PagedSource/maxPages`` is fetched
  /// again at the cursor it was first fetched with.
  @inlinable
  public func loadNextPage() async {
    await slot.performNextPage(source)
  }

  /// Loads the page before the first one loaded, puts it first, and returns when the load
  /// has stopped.
  ///
  /// <!-- compile: context Paging -->
  /// ```swift
  /// let chat = PagedLoader(source: PagedSource(first: "") { cursor in  // "": the newest
  ///   let response = try await api.messages(around: cursor.isEmpty ? nil : cursor)
  ///   return Page(items: response.messages, previous: response.older, next: response.newer)
  /// })
  /// await chat.load()              // the newest messages
  /// await chat.loadPreviousPage()  // the older ones, put first
  /// ```
  ///
  /// The page fetched is the one dropped from the start by ``PagedSource/maxPages``, at the
  /// cursor it was first fetched with, when one was dropped; otherwise the page at the first
  /// page's ``Page/previous`` cursor. With `maxPages`, the last pages are dropped, and a
  /// later ``loadNextPage()`` fetches them again. Does nothing before the first page, when
  /// ``PagedState/hasPreviousPage`` is `false`, or after a ``RepeatedCursorError``; while a
  /// load of this list runs it fetches nothing and waits for that load. After a failed
  /// previous page it fetches that page again. A refresh, `cancel()` or `reset()` stops it.
  @inlinable
  public func loadPreviousPage() async {
    await slot.performPreviousPage(source)
  }

  /// Cancels the running load and brings back what it replaced.
  public func cancel() { slot.cancel() }

  /// Cancels the running load and empties the list.
  public func reset() { slot.reset() }

  /// Calls `callback` with every state the loader writes, in order.
  @_spi(Testing)
  public func watchStates(
    _ callback: @escaping @MainActor (PagedState<Item, Cursor>) -> Void
  ) -> StateWatch {
    StateWatch(slot: slot) { callback($0) }
  }
}

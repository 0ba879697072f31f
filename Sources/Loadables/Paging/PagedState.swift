/// A list loaded one page at a time: the pages loaded so far, in order, the phase of the
/// first page, and — kept apart — the phase of the page being added.
///
/// Keeping the two phases apart is what stops a paged list from blanking: while the next
/// page loads, or after it failed, ``list`` still holds every item loaded so far, and only
/// ``nextPage`` says what is happening at the bottom of the list. A view switches on
/// ``list`` as it would on any ``LoadableState`` and shows ``nextPage`` in a footer:
///
/// <!-- compile: context PagingView -->
/// ```swift
/// switch feed.list {
/// case .absent, .loading: ProgressView()
/// case .error(let error): ErrorView(error)
/// case .loaded(let posts):
///   List {
///     ForEach(posts) { PostRow($0) }
///     switch feed.nextPage {
///     case .loading: ProgressView()
///     case .failed: Button("Retry") { $feed.loadNextPage(from: source) }
///     case .idle, .end: EmptyView()
///     }
///   }
/// }
/// ```
///
/// The library writes it; you read it. Load it with `@Paged` (``Paged``), with
/// ``LoadableSupport``'s paged calls, or with a ``PagedLoader``. A fresh state is
/// ``LoadableState/absent`` with no pages.
public struct PagedState<Item, Cursor> {
  /// The list, as the phase of its first page: `.absent` before the first load,
  /// `.loading` while the first page loads (unless the load is silent), `.error(error)`
  /// when the first page failed, and `.loaded(items)` — every item of every page loaded so
  /// far, in order — once the first page arrived.
  ///
  /// A next or previous page never changes this phase: its items are appended to (or put
  /// before) `.loaded`, and its loading or failure shows in ``nextPage`` (or
  /// ``previousPage``).
  public internal(set) var list: LoadableState<[Item]>

  /// The phase of the page being added at the end of the list.
  public internal(set) var nextPage: NextPageState

  /// The phase of the page being added at the start of the list, before its first loaded
  /// page: ``NextPageState/end`` once the first page says nothing comes before it (a list
  /// that pages forward only), ``NextPageState/idle`` while a page before it can be asked for
  /// (``hasPreviousPage``).
  public internal(set) var previousPage: NextPageState

  /// The pages loaded so far, in order; empty unless ``list`` is loaded.
  ///
  /// Views read ``items`` (or ``list``). In a paged entry of a ``LoaderStore``, an optimistic
  /// edit that keeps the number of items (an item patched in place) shows here too, page by
  /// page; one that adds or removes items shows in ``items`` only, and the pages stay as
  /// they were fetched.
  public internal(set) var pages: [Page<Item, Cursor>]

  /// The cursor each of ``pages`` was fetched with, in the same order: what a page dropped
  /// by `maxPages` is fetched again with, and what stops a source that hands out a cursor
  /// twice from looping forever.
  @usableFromInline var cursors: [Cursor]

  /// The cursors of the pages dropped from the start of the list to keep it within
  /// `maxPages`, in list order: the last one is the page just before the first loaded page.
  @usableFromInline var droppedBefore: [Cursor]

  /// The cursors of the pages dropped from the end of the list to keep it within
  /// `maxPages`, in list order: the first one is the page just after the last loaded page.
  @usableFromInline var droppedAfter: [Cursor]

  /// An empty list that has not been loaded: `list` is `.absent`.
  public init() {
    list = .absent
    nextPage = .idle
    previousPage = .idle
    pages = []
    cursors = []
    droppedBefore = []
    droppedAfter = []
  }

  @usableFromInline
  init(
    list: LoadableState<[Item]>,
    nextPage: NextPageState = .idle,
    previousPage: NextPageState = .idle,
    pages: [Page<Item, Cursor>] = [],
    cursors: [Cursor] = [],
    droppedBefore: [Cursor] = [],
    droppedAfter: [Cursor] = []
  ) {
    self.list = list
    self.nextPage = nextPage
    self.previousPage = previousPage
    self.pages = pages
    self.cursors = cursors
    self.droppedBefore = droppedBefore
    self.droppedAfter = droppedAfter
  }
}

extension PagedState {
  /// Every item loaded so far, in order; empty unless ``list`` is loaded.
  public var items: [Item] { list.data ?? [] }

  /// How many pages at the start of the list were dropped to keep it within its source's
  /// ``PagedSource/maxPages``; `0` when the list starts at its first page.
  ///
  /// When it is above `0`, the top of ``items`` is not the top of the list: a previous page
  /// (``hasPreviousPage``) fetches the dropped page just before it again, at the cursor it
  /// was first fetched with, so scrolling back up brings the dropped pages back one by one.
  /// A refresh (or, for a store's entry, a refresh) loads the list again from its first
  /// page instead, for a "Back to top" row. Pages dropped from the end, after a previous
  /// page, are counted by ``droppedTrailingPageCount``.
  public var droppedPageCount: Int { droppedBefore.count }

  /// How many pages at the end of the list were dropped to keep it within its source's
  /// ``PagedSource/maxPages`` when previous pages were put before it; `0` when none were.
  ///
  /// The next page (`loadNextPage` in every form) fetches the dropped page just after the
  /// last loaded page again, at the cursor it was first fetched with.
  public var droppedTrailingPageCount: Int { droppedAfter.count }

  /// The cursor of the page after the last one loaded; `nil` before the first page and
  /// once the end is reached.
  ///
  /// It is the cursor a page dropped from the end (``droppedTrailingPageCount``) was first
  /// fetched with, when one was dropped; the last page's ``Page/next`` otherwise.
  @inlinable
  public var nextCursor: Cursor? { droppedAfter.first ?? pages.last?.next }

  /// The cursor of the page before the first one loaded; `nil` before the first page and
  /// when nothing comes before it.
  ///
  /// It is the cursor a page dropped from the start (``droppedPageCount``) was first
  /// fetched with, when one was dropped; the first page's ``Page/previous`` otherwise (a
  /// feed that pages both ways, such as a chat opened at its newest messages).
  @inlinable
  public var previousCursor: Cursor? { droppedBefore.last ?? pages.first?.previous }

  /// Whether there is a page after the last one loaded: the first page has arrived, the end
  /// has not been reached, and no repeated cursor stopped the list.
  @inlinable
  public var hasNextPage: Bool {
    guard list.isLoaded, nextCursor != nil else { return false }
    return !(nextPage.error is RepeatedCursorError)
  }

  /// Whether there is a page before the first one loaded: the first page has arrived, and
  /// either a page was dropped from the start (``droppedPageCount``) or the first page has a
  /// ``Page/previous`` cursor that no repeated cursor stopped.
  @inlinable
  public var hasPreviousPage: Bool {
    guard list.isLoaded, previousCursor != nil else { return false }
    return !(previousPage.error is RepeatedCursorError)
  }
}

/// The phase of the page being added at one end of a ``PagedState``'s list: its
/// ``PagedState/nextPage`` at the end, its ``PagedState/previousPage`` at the start.
public enum NextPageState: Sendable {
  /// No page is loading at this end; one may be asked for.
  case idle
  /// The page is loading: show a spinner in the footer (or, for a previous page, the
  /// header).
  case loading
  /// The page failed: show the error and a retry in the footer (or header). Asking for the
  /// page again retries it. The pages already loaded stay.
  case failed(any Error)
  /// The last page (or, for a previous page, the first) has been loaded: there is nothing
  /// more to ask for at this end.
  case end
}

extension NextPageState {
  /// Whether no page is loading, failed, or the end was reached.
  public var isIdle: Bool {
    if case .idle = self { return true }
    return false
  }

  /// Whether the page is loading.
  public var isLoading: Bool {
    if case .loading = self { return true }
    return false
  }

  /// Whether the page at this end of the list has been loaded.
  public var isEnd: Bool {
    if case .end = self { return true }
    return false
  }

  /// The error the page failed with, if it failed.
  public var error: (any Error)? {
    if case .failed(let error) = self { return error }
    return nil
  }
}

extension NextPageState: Equatable {
  /// Two failures are equal when their errors have the same type and, when that type is
  /// `Equatable`, compare equal.
  public static func == (lhs: NextPageState, rhs: NextPageState) -> Bool {
    switch (lhs, rhs) {
    case (.idle, .idle), (.loading, .loading), (.end, .end): true
    case (.failed(let lhs), .failed(let rhs)): errorsAreEqual(lhs, rhs)
    default: false
    }
  }
}

extension NextPageState: CustomDebugStringConvertible {
  /// The phase and, for a failure, the error.
  public var debugDescription: String {
    switch self {
    case .idle: "idle"
    case .loading: "loading"
    case .failed(let error): "failed(\(error))"
    case .end: "end"
    }
  }
}

/// One page of a paged source: its items, and the cursors of the pages after and before it.
///
/// A source's fetch returns one:
///
/// <!-- compile: context Paging -->
/// ```swift
/// PagedSource(first: "") { cursor in  // "" stands for the first page's cursor
///   let response = try await api.posts(after: cursor.isEmpty ? nil : cursor)
///   return Page(items: response.posts, next: response.nextCursor)
/// }
/// ```
///
/// A feed that pages both ways (a chat opened at its newest messages, a timeline opened in
/// its middle) says where the page before starts too:
///
/// <!-- compile: context Paging -->
/// ```swift
/// Page(items: response.messages, previous: response.olderCursor, next: response.newerCursor)
/// ```
public struct Page<Item, Cursor> {
  /// The page's items, in order.
  public var items: [Item]

  /// The cursor to fetch the page after this one with; `nil` when this is the last page.
  public var next: Cursor?

  /// The cursor to fetch the page before this one with; `nil` when this is the first page,
  /// or when the source pages forward only.
  ///
  /// Read from the first loaded page only, and only when no page before it was dropped by
  /// ``PagedSource/maxPages`` (a dropped page is fetched again at the cursor it was first
  /// fetched with).
  public var previous: Cursor?

  /// The pages fetched after this one in the same load, in order (each at the cursor its
  /// predecessor gave): how a refresh of every loaded page hands its pages to the engine as
  /// one outcome. Empty in every page a ``PagedState`` holds.
  @usableFromInline var following: [Page] = []

  /// Creates a page.
  ///
  /// - Parameters:
  ///   - items: The page's items, in order.
  ///   - previous: The cursor of the page before this one; `nil` (the default) when this is
  ///     the first page or the source pages forward only.
  ///   - next: The cursor of the page after this one; `nil` when this is the last page.
  public init(items: [Item], previous: Cursor? = nil, next: Cursor?) {
    self.items = items
    self.previous = previous
    self.next = next
  }
}

extension Page: Sendable where Item: Sendable, Cursor: Sendable {}
extension Page: Equatable where Item: Equatable, Cursor: Equatable {}

extension PagedState: Sendable where Item: Sendable, Cursor: Sendable {}

extension PagedState: Equatable where Item: Equatable, Cursor: Equatable {
  /// Two paged states are equal when their lists, pages (with the cursors they and any
  /// dropped pages were fetched with) and next- and previous-page phases are.
  public static func == (lhs: PagedState, rhs: PagedState) -> Bool {
    lhs.nextPage == rhs.nextPage && lhs.previousPage == rhs.previousPage
      && lhs.cursors == rhs.cursors && lhs.droppedBefore == rhs.droppedBefore
      && lhs.droppedAfter == rhs.droppedAfter && lhs.pages == rhs.pages && lhs.list == rhs.list
  }
}

extension PagedState: CustomDebugStringConvertible {
  /// The list's phase, the number of pages and items, and the next page's phase; the
  /// previous page's too while it loads or failed.
  public var debugDescription: String {
    let list =
      switch self.list {
      case .absent: "absent"
      case .loading: "loading"
      case .error(let error): "error(\(error))"
      case .loaded(let items): "loaded(\(items.count) items in \(pages.count) pages)"
      }
    let previous =
      previousPage.isIdle || previousPage.isEnd
      ? "" : ", previousPage: \(previousPage.debugDescription)"
    return "PagedState(list: \(list), nextPage: \(nextPage.debugDescription)\(previous))"
  }
}

/// A paged source returned a next (or previous) cursor that was already fetched: following it
/// would load the same pages again, forever, so the list stops there.
///
/// It shows as the failure of the next page (``NextPageState/failed(_:)``), or of the
/// previous page for a previous cursor, with the pages loaded so far kept. Asking for that
/// page again does nothing; `refresh`, `load` or `reset` start the list over. Its description names the cursor, as Swift writes it in
/// source (`""` for an empty string, `nil` for an optional without a value), and the page.
public struct RepeatedCursorError: Error, Equatable, CustomStringConvertible {
  /// What went wrong, naming the page and the repeated cursor.
  public let description: String

  @usableFromInline init(cursor: some Any, page: Int, previous: Bool = false) {
    // `String(reflecting:)`, not interpolation: an empty string cursor must read `""`, not
    // vanish from the sentence.
    description =
      "Loadables: page \(page) of a paged source returned the \(previous ? "previous" : "next") cursor "
      + "\(String(reflecting: cursor)), which was already fetched; paging stops here instead "
      + "of loading the same pages forever"
  }
}

/// A list loaded one page at a time: the pages loaded so far, in order, the phase of the
/// first page, and — kept apart — the phase of the page being added.
///
/// Keeping the two phases apart is what stops a paged list from blanking: while the next
/// page loads, or after it failed, ``list`` still holds every item loaded so far, and only
/// ``nextPage`` says what is happening at the bottom of the list. A view switches on
/// ``list`` as it would on any ``LoadableState`` and shows ``nextPage`` in a footer:
///
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
  /// A next page never changes this phase: its items are appended to `.loaded`, and its
  /// loading or failure shows in ``nextPage``.
  public internal(set) var list: LoadableState<[Item]>

  /// The phase of the page being added at the end of the list.
  public internal(set) var nextPage: NextPageState

  /// The pages loaded so far, in order; empty unless ``list`` is loaded.
  ///
  /// Views read ``items`` (or ``list``). In a paged entry of a ``LoaderStore``, an optimistic
  /// edit that keeps the number of items (an item patched in place) shows here too, page by
  /// page; one that adds or removes items shows in ``items`` only, and the pages stay as
  /// they were fetched.
  public internal(set) var pages: [Page<Item, Cursor>]

  /// The cursor each of ``pages`` was fetched with, in the same order: what stops a source
  /// that hands out a cursor twice from looping forever.
  @usableFromInline var cursors: [Cursor]

  /// An empty list that has not been loaded: `list` is `.absent`.
  public init() {
    list = .absent
    nextPage = .idle
    pages = []
    cursors = []
  }

  @usableFromInline
  init(
    list: LoadableState<[Item]>,
    nextPage: NextPageState = .idle,
    pages: [Page<Item, Cursor>] = [],
    cursors: [Cursor] = []
  ) {
    self.list = list
    self.nextPage = nextPage
    self.pages = pages
    self.cursors = cursors
  }
}

extension PagedState {
  /// Every item loaded so far, in order; empty unless ``list`` is loaded.
  public var items: [Item] { list.data ?? [] }

  /// How many pages at the start of the list were dropped to keep it within its source's
  /// ``PagedSource/maxPages``; `0` when the list starts at its first page.
  ///
  /// When it is above `0`, the top of ``items`` is not the top of the list: show a "Back to
  /// top" row there that refreshes (or, for a store's entry, refetches) the list, which
  /// loads it again from its first page.
  public var droppedPageCount: Int { Swift.max(0, cursors.count - pages.count) }

  /// The cursor of the page after the last one loaded; `nil` before the first page and
  /// once the end is reached.
  public var nextCursor: Cursor? { pages.last?.next }

  /// Whether there is a page after the last one loaded: the first page has arrived, the end
  /// has not been reached, and no repeated cursor stopped the list.
  public var hasNextPage: Bool {
    guard list.isLoaded, nextCursor != nil else { return false }
    return !(nextPage.error is RepeatedCursorError)
  }
}

/// The phase of the page being added at the end of a ``PagedState``'s list.
public enum NextPageState: Sendable {
  /// No next page is loading; one may be asked for.
  case idle
  /// The next page is loading: show a spinner in the footer.
  case loading
  /// The next page failed: show the error and a retry in the footer. Asking for the next
  /// page again retries it. The pages already loaded stay.
  case failed(any Error)
  /// The last page has been loaded: there is nothing more to ask for.
  case end
}

extension NextPageState {
  /// Whether no next page is loading, failed, or the end was reached.
  public var isIdle: Bool {
    if case .idle = self { return true }
    return false
  }

  /// Whether the next page is loading.
  public var isLoading: Bool {
    if case .loading = self { return true }
    return false
  }

  /// Whether the last page has been loaded.
  public var isEnd: Bool {
    if case .end = self { return true }
    return false
  }

  /// The error the next page failed with, if it failed.
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

/// One page of a paged source: its items, and the cursor of the page after it.
///
/// A source's fetch returns one:
///
/// ```swift
/// PagedSource(first: nil as String?) { cursor in
///   let response = try await api.posts(after: cursor)
///   return Page(items: response.posts, next: response.nextCursor)
/// }
/// ```
public struct Page<Item, Cursor> {
  /// The page's items, in order.
  public var items: [Item]

  /// The cursor to fetch the page after this one with; `nil` when this is the last page.
  public var next: Cursor?

  /// The pages fetched after this one in the same load, in order (each at the cursor its
  /// predecessor gave): how a refetch of every loaded page hands its pages to the engine as
  /// one outcome. Empty in every page a ``PagedState`` holds.
  @usableFromInline var following: [Page] = []

  /// Creates a page.
  ///
  /// - Parameters:
  ///   - items: The page's items, in order.
  ///   - next: The cursor of the page after this one; `nil` when this is the last page.
  public init(items: [Item], next: Cursor?) {
    self.items = items
    self.next = next
  }
}

extension Page: Sendable where Item: Sendable, Cursor: Sendable {}
extension Page: Equatable where Item: Equatable, Cursor: Equatable {}

extension PagedState: Sendable where Item: Sendable, Cursor: Sendable {}

extension PagedState: Equatable where Item: Equatable, Cursor: Equatable {
  /// Two paged states are equal when their lists, pages and next-page phases are.
  public static func == (lhs: PagedState, rhs: PagedState) -> Bool {
    lhs.nextPage == rhs.nextPage && lhs.cursors == rhs.cursors && lhs.pages == rhs.pages
      && lhs.list == rhs.list
  }
}

extension PagedState: CustomDebugStringConvertible {
  /// The list's phase, the number of pages and items, and the next page's phase.
  public var debugDescription: String {
    let list =
      switch self.list {
      case .absent: "absent"
      case .loading: "loading"
      case .error(let error): "error(\(error))"
      case .loaded(let items): "loaded(\(items.count) items in \(pages.count) pages)"
      }
    return "PagedState(list: \(list), nextPage: \(nextPage.debugDescription))"
  }
}

/// A paged source returned a next cursor that was already fetched: following it would load
/// the same pages again, forever, so the list stops there.
///
/// It shows as the failure of the next page (``NextPageState/failed(_:)``), with the pages
/// loaded so far kept. Asking for the next page again does nothing; `refresh`, `load` or
/// `reset` start the list over. Its description names the cursor, as Swift writes it in
/// source (`""` for an empty string, `nil` for an optional without a value), and the page.
public struct RepeatedCursorError: Error, Equatable, CustomStringConvertible {
  /// What went wrong, naming the page and the repeated cursor.
  public let description: String

  @usableFromInline init(cursor: some Any, page: Int) {
    // `String(reflecting:)`, not interpolation: an empty string cursor must read `""`, not
    // vanish from the sentence.
    description =
      "Loadables: page \(page) of a paged source returned the next cursor "
      + "\(String(reflecting: cursor)), which was already fetched; paging stops here instead "
      + "of loading the same pages forever"
  }
}

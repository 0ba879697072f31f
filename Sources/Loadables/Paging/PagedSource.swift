/// A paged source, described once: where the list starts, how to fetch the page at a
/// position, and the policy each page fetch runs under.
///
/// The position is a `Cursor`: a page number, an offset, or an opaque token the previous
/// page returned. Each page says where the next one starts (``Page/next``); `nil` means it
/// was the last.
///
/// <!-- compile: context Paging -->
/// ```swift
/// // The first page has no cursor: "" stands for it.
/// let posts = PagedSource(first: "", policy: .retry(maxAttempts: 3)) { cursor in
///   let response = try await api.posts(after: cursor.isEmpty ? nil : cursor)
///   return Page(items: response.posts, next: response.nextCursor)
/// }
/// ```
///
/// > Important: Give the cursor a type that is not optional; <doc:ListsThatPage> says why.
///
/// The policy applies to each page fetch on its own: a retry retries the page that failed,
/// a timeout limits one page, a concurrency limit holds one permit per page.
public struct PagedSource<Item: Sendable, Cursor: Equatable & Sendable>: Sendable {
  /// The cursor of the first page.
  public let first: Cursor

  /// The policy every page fetch runs under.
  public let policy: LoadPolicy<Page<Item, Cursor>>

  /// Fetches the page at a cursor.
  public let fetch: @MainActor (_ cursor: Cursor) async throws -> Page<Item, Cursor>

  /// The most pages a list keeps; `nil` for no cap.
  ///
  /// When a next page would make the list longer, the pages at the far end — the first
  /// ones — are dropped with their items (``PagedState/droppedPageCount`` says how many), so
  /// a long scroll holds at most this many pages in memory; a previous page drops the last
  /// ones instead (``PagedState/droppedTrailingPageCount``).
  ///
  /// The list remembers the cursor each dropped page was fetched with, and fetches it again
  /// at that cursor when the list is paged back to it: scrolling back up, a previous page
  /// fetches the page dropped just before the first loaded page; scrolling down again, a
  /// next page fetches the page dropped just after the last one. A remembered cursor wins
  /// over what the neighbouring page says (its ``Page/previous`` or ``Page/next``), so the
  /// page comes back exactly as it was asked for the first time, and a source that pages
  /// forward only (no ``Page/previous``) scrolls back all the same. Past the pages ever
  /// loaded, the pages' own cursors lead on. A refresh (or a load, or an entry's refresh)
  /// forgets the dropped pages: it replaces the list with its first page.
  ///
  /// <!-- compile: context Paging -->
  /// ```swift
  /// let feed = PagedSource(first: 1, maxPages: 3) { page in
  ///   Page(items: try await api.posts(page: page), next: page + 1)
  /// }
  /// // pages 1–5 loaded: 3, 4, 5 kept, droppedPageCount 2
  /// // loadPreviousPage(): fetches page 2 again; 2, 3, 4 kept, droppedTrailingPageCount 1
  /// // loadNextPage(): fetches page 5 again; 3, 4, 5 kept
  /// ```
  public let maxPages: Int?

  /// Creates a source.
  ///
  /// - Parameters:
  ///   - first: The cursor of the first page.
  ///   - policy: The policy each page fetch runs under (retry, timeout, limit, ...); none by
  ///     default.
  ///   - maxPages: The most pages a list keeps, at least `1`; `nil` (the default) for no
  ///     cap. See ``maxPages``.
  ///   - fetch: Fetches the page at a cursor. Throw `CancelLoadable` to cancel the fetch or
  ///     `ResetLoadable` to reset the list, as in any load.
  ///
  /// > Important: A `maxPages` below `1` stops the program with a message naming it.
  public init(
    first: Cursor,
    policy: LoadPolicy<Page<Item, Cursor>> = LoadPolicy(),
    maxPages: Int? = nil,
    fetch: @escaping @MainActor (_ cursor: Cursor) async throws -> Page<Item, Cursor>
  ) {
    if let maxPages {
      precondition(
        maxPages >= 1, "Loadables: PagedSource(maxPages:) must be at least 1, got \(maxPages)")
    }
    self.first = first
    self.policy = policy
    self.maxPages = maxPages
    self.fetch = fetch
  }
}

extension PagedSource where Cursor == Int {
  /// A source of numbered pages of a fixed size: the list ends at the first page that
  /// returns fewer than `pageSize` items.
  ///
  /// <!-- compile: context Paging -->
  /// ```swift
  /// let feed = PagedSource<Post, Int>.numbered(pageSize: 20) { page, size in
  ///   try await api.posts(page: page, perPage: size)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - firstPage: The number of the first page; `1` by default.
  ///   - pageSize: How many items a full page holds; at least `1`.
  ///   - policy: The policy each page fetch runs under; none by default.
  ///   - fetch: Fetches the items of a page, given its number and the page size.
  /// - Returns: The source.
  public static func numbered(
    firstPage: Int = 1,
    pageSize: Int,
    policy: LoadPolicy<Page<Item, Int>> = LoadPolicy(),
    fetch: @escaping @MainActor (_ page: Int, _ pageSize: Int) async throws -> [Item]
  ) -> PagedSource {
    precondition(
      pageSize >= 1,
      "Loadables: PagedSource.numbered(pageSize:) must be at least 1, got \(pageSize)"
    )
    return PagedSource(first: firstPage, policy: policy) { page in
      let items = try await fetch(page, pageSize)
      return Page(items: items, next: items.count < pageSize ? nil : page + 1)
    }
  }
}

/// What a paged entry fetches when it refreshes a loaded list: an invalidation, a refresh
/// trigger, a ``SharedEntry/refresh()`` or a load of a stale list.
///
/// <!-- compile: context Shared -->
/// ```swift
/// let feed = store.pagedLoader(for: ["feed"], refreshedPages: .allLoadedPages, source: feedSource)
/// ```
public enum PagedRefresh: Sendable, Equatable {
  /// The first page alone (the default): the list then holds that page, and later pages are
  /// fetched again as they are asked for. One request.
  case firstPage
  /// Every page the list holds, in order, from the first: each page at the cursor the page
  /// before it returned, so a list of N pages costs N requests. The list stays on screen
  /// until the last of them arrives, then holds them all; it stops early at a page with no
  /// next cursor. The source's policy applies to each page of the run on its own, as to a
  /// next page: a retry retries the page that failed (the pages before it are not fetched
  /// again), and a timeout limits one page. A failure keeps the list on screen, as a
  /// first-page refresh does.
  case allLoadedPages
}

/// The shared entry of a paged list: a ``SharedEntry`` holding a ``PagedState``, whose value
/// is the list's items.
///
/// Get one from
/// ``LoaderStore/pagedLoader(for:staleTime:waitsForNetwork:refreshing:persisted:maxPages:refreshedPages:source:)``.
/// Every screen asking for the key shows the same pages; the store's rules hold as for any
/// entry:
///
/// | call | a paged entry |
/// |---|---|
/// | ``SharedEntry/load(silently:)``, ``SharedEntry/refresh()`` | fetches the first page (the list then holds it alone), or joins the load running |
/// | ``SharedEntry/loadNextPage()`` | appends the next page, or joins the load running |
/// | ``SharedEntry/loadPreviousPage()`` | puts the previous page first, or joins the load running |
/// | ``LoaderStore/invalidate(_:matching:)`` | refreshes the first page of an observed entry, silently; a next or previous page in flight is cancelled |
/// | ``LoaderStore/edit(invalidating:_:perform:)`` | `set` and `update` change the items; a next or previous page in flight goes on, and the edit is laid over its outcome |
///
/// <!-- compile: context Shared -->
/// ```swift
/// let feed = store.pagedLoader(for: ["feed"], staleTime: .seconds(60), source: feedSource)
/// await feed.load()          // the first page
/// await feed.loadNextPage()  // the second, appended
/// ```
///
/// `@Paged` and a model's key path show it as they show a source's list, following it:
/// `$list.load(from: feed)`, `load(\.list, from: feed)`; the entry's own `loadNextPage()`,
/// `refresh()` and `loadPreviousPage()` then load its pages for every screen that follows it.
public typealias SharedPagedLoader<Item: Sendable, Cursor: Equatable & Sendable> =
  SharedEntry<[Item], PagedState<Item, Cursor>>

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

extension PagedState: SharedEntryState {
  /// Whether the list is loaded. An implementation detail of ``LoaderStore``.
  public var _holdsValue: Bool { list.isLoaded }

  /// The items of the loaded list. An implementation detail of ``LoaderStore``.
  public var _value: [Item]? { list.data }

  /// This state with `items` as its loaded list: the pages, their cursors and the next and
  /// previous pages' phases stay when the list was loaded (the pages show `items` when they hold as
  /// many, as in ``_updatingValue(_:)``). An implementation detail of ``LoaderStore``.
  ///
  /// - Parameter items: The items to show.
  /// - Returns: The state showing them.
  public func _holding(_ items: [Item]) -> PagedState {
    guard list.isLoaded else { return PagedState(list: .loaded(items)) }
    var state = self
    state.list = .loaded(items)
    state.pages = Self.pages(pages, showing: items)
    return state
  }

  /// This state with its loaded items changed by `transform`; any other state as it is. An
  /// implementation detail of ``LoaderStore``.
  ///
  /// A change that keeps the number of items (an item patched in place) shows in ``pages``
  /// too, page by page; one that adds or removes items changes ``items`` only, and the pages
  /// stay as they were fetched. Views read ``items``.
  ///
  /// - Parameter transform: Returns the changed items.
  /// - Returns: The changed state.
  public func _updatingValue(_ transform: ([Item]) -> [Item]) -> PagedState {
    guard case .loaded(let items) = list else { return self }
    let changed = transform(items)
    var state = self
    state.list = .loaded(changed)
    state.pages = Self.pages(pages, showing: changed)
    return state
  }

  /// `pages` with their items replaced by `items`, page by page, when they hold as many
  /// items in all; `pages` as they are otherwise.
  static func pages(_ pages: [Page<Item, Cursor>], showing items: [Item]) -> [Page<Item, Cursor>] {
    guard pages.reduce(0, { $0 + $1.items.count }) == items.count else { return pages }
    var start = items.startIndex
    return pages.map { page in
      let end = start + page.items.count
      defer { start = end }
      var page = page
      page.items = Array(items[start..<end])
      return page
    }
  }
}

extension LoaderStore {
  /// The paged entry for `key`, made on first use: one list, loaded page by page, that every
  /// screen asking for the key shows.
  ///
  /// <!-- compile: context Shared -->
  /// ```swift
  /// let feed = store.pagedLoader(for: ["feed"], staleTime: .seconds(60), source: feedSource)
  /// await feed.load()          // the first page, once for every screen
  /// await feed.loadNextPage()  // the next one, appended
  /// store.invalidate(["feed"])  // an observed feed refreshes its first page
  /// ```
  ///
  /// The first caller's settings and `source` make the entry; later callers for the same key
  /// get that entry, and their arguments are not used.
  ///
  /// Its freshness is its first page's: a next page changes the list, not when it was
  /// fetched, so it never makes a stale or invalidated list fresh. A load, a refresh, an
  /// invalidation or a trigger fetches the first page — silently, keeping the list on
  /// screen and keeping it if the fetch fails (the error shows as
  /// ``LoadHandle/refreshError``), when a list is loaded — and the list then holds that page
  /// alone; later pages are fetched again as they are asked for. A first-page fetch cancels
  /// a next or previous page in flight. An optimistic edit does not: the page builds on the
  /// fetched list, and the edit is laid over its outcome (an `update` reaches the items of a
  /// page put first as it does those of a page appended).
  ///
  /// With a ``persistence``, a list whose items and cursors are `Codable` is saved whole —
  /// its pages, their cursors and those of the pages `maxPages` dropped — after its first
  /// page, each page that arrives and each commit; restored, it shows them at once and pages
  /// on from its last cursor (see <doc:WorkingOffline#Keep-entries-between-launches>).
  ///
  /// - Parameters:
  ///   - key: The entry's key.
  ///   - staleTime: How long a first page stays fresh; zero means every load refreshes it,
  ///     silently. Not negative. `nil` (the default) for ``LoadDefaults/staleTime``.
  ///   - waitsForNetwork: Whether the page fetches wait while the store's ``connectivity``
  ///     says offline; `nil` (the default) for ``LoadDefaults/waitsForNetwork``.
  ///   - triggers: What makes the entry refresh its first page while observed; `nil` (the
  ///     default) for ``LoadDefaults/refreshTriggers``.
  ///   - persisted: Whether the items are saved between launches when the store has a
  ///     ``persistence`` and they are `Codable`; `nil` (the default) for
  ///     ``LoadDefaults/isPersisted``.
  ///   - maxPages: The most pages the list keeps, at least `1`: a next page beyond it drops
  ///     the first pages, a previous page the last ones, and either end's dropped pages are
  ///     fetched again at their own cursors as the list is paged back to them (see
  ///     ``PagedSource/maxPages``); a refresh loads the list again from its first page. `nil` (the default) for the source's ``PagedSource/maxPages``.
  ///   - refreshedPages: What an invalidation, a trigger, a ``SharedEntry/refresh()`` or a stale load
  ///     fetches over a loaded list: its first page alone (``PagedRefresh/firstPage``, the
  ///     default), or every page it holds, in order (``PagedRefresh/allLoadedPages``).
  ///   - source: The paged source; its policy applies to each page fetch.
  /// - Returns: The shared paged entry.
  ///
  /// > Important: A negative `staleTime` or a `maxPages` below `1` stops the program with a
  /// > message naming the key.
  /// > A key whose entry holds another type is reported and kept apart, as
  /// > ``loader(for:staleTime:policy:waitsForNetwork:refreshing:persisted:fetch:)`` does.
  public func pagedLoader<Item: Sendable, Cursor: Equatable & Sendable>(
    for key: LoadKey,
    staleTime: Duration? = nil,
    waitsForNetwork: Bool? = nil,
    refreshing triggers: [RefreshTrigger]? = nil,
    persisted: Bool? = nil,
    maxPages: Int? = nil,
    refreshedPages: PagedRefresh = .firstPage,
    source: PagedSource<Item, Cursor>
  ) -> SharedPagedLoader<Item, Cursor> {
    if let existing = entries[key] {
      if let entry = existing as? SharedPagedLoader<Item, Cursor> {
        touch(entry)
        noteIgnored(
          entry, staleTime: staleTime, waitsForNetwork: waitsForNetwork, persisted: persisted)
        return entry
      }
      // Another type holds the key: an entry of this type kept apart (see `loader(for:)`).
      return apartEntry(
        for: key, asked: PagedState<Item, Cursor>.self, holding: existing.valueType
      ) {
        makePagedEntry(
          key, registryKey: $0, staleTime: staleTime, waitsForNetwork: waitsForNetwork,
          triggers: triggers, persisted: false, maxPages: maxPages, refreshedPages: refreshedPages,
          source: source)
      }
    }
    return makePagedEntry(
      key, registryKey: key, staleTime: staleTime, waitsForNetwork: waitsForNetwork,
      triggers: triggers, persisted: persisted, maxPages: maxPages, refreshedPages: refreshedPages,
      source: source)
  }

  private func makePagedEntry<Item: Sendable, Cursor: Equatable & Sendable>(
    _ key: LoadKey,
    registryKey: LoadKey,
    staleTime: Duration?,
    waitsForNetwork: Bool?,
    triggers: [RefreshTrigger]?,
    persisted: Bool?,
    maxPages: Int?,
    refreshedPages: PagedRefresh,
    source: PagedSource<Item, Cursor>
  ) -> SharedPagedLoader<Item, Cursor> {
    if let maxPages {
      precondition(
        maxPages >= 1,
        "LoaderStore.pagedLoader(for: \(key)): maxPages must be at least 1, got \(maxPages)")
    }
    let staleTime = staleTime ?? defaults.staleTime
    precondition(
      staleTime >= .zero,
      "LoaderStore.pagedLoader(for: \(key)): staleTime must not be negative, got \(staleTime)")
    var policy = source.policy
    let waits = waitsForNetwork ?? defaults.waitsForNetwork
    if waits, let connectivity { policy = policy.waitsForNetwork(connectivity) }
    let persisted = persisted ?? defaults.isPersisted
    let entry = SharedPagedLoader(
      key: key, registryKey: registryKey, store: self, clock: clock, now: now,
      staleTime: staleTime, triggers: triggers ?? defaults.refreshTriggers,
      requested: RequestedSettings(
        staleTime: staleTime, waitsForNetwork: waits, waitsInForce: waits && connectivity != nil,
        persisted: persisted),
      engine: PagedEntryEngine(
        PagedSource<Item, Cursor>(
          first: source.first, policy: policy, maxPages: maxPages ?? source.maxPages,
          fetch: source.fetch),
        refreshedPages: refreshedPages))
    return register(entry, persisted: persisted, kind: "paged")
  }
}

/// A state that pages: what lets a ``SharedEntry`` over a ``PagedState`` say whether it is
/// refreshing. An implementation detail of ``LoaderStore``; ``PagedState`` is its one
/// conformance.
public protocol _PagedEntryState {
  /// Whether a load that is `running` refreshes a loaded list, rather than loading it first
  /// or loading its next page.
  func _isRefreshing(running: Bool) -> Bool
}

extension PagedState: _PagedEntryState {
  /// Whether a load that is `running` refreshes this loaded list: the list is loaded and no
  /// next or previous page loads. An implementation detail of ``LoaderStore``.
  ///
  /// - Parameter running: Whether a load of the list runs.
  /// - Returns: Whether that load is a refresh.
  public func _isRefreshing(running: Bool) -> Bool {
    running && list.isLoaded && !nextPage.isLoading && !previousPage.isLoading
  }
}

extension SharedEntry {
  /// Loads the next page of a paged entry, appends it, and returns when the load has
  /// stopped.
  ///
  /// <!-- compile: context StoreView -->
  /// ```swift
  /// ForEach(feed.state.items) { story in
  ///   StoryRow(story).task { if story.id == feed.state.items.last?.id { await feed.loadNextPage() } }
  /// }
  /// ```
  ///
  /// - A load of the list runs (a first page, a next or previous page): fetches nothing and
  ///   waits for it, so rows that all ask fetch each page once, and one page loads at a time.
  /// - Before the first page, at the end of the list, after a ``RepeatedCursorError``: does
  ///   nothing.
  /// - After a failed next page: fetches that page again.
  /// - After a previous page dropped pages from the end (``PagedState/droppedTrailingPageCount``):
  ///   fetches the first of them again, at the cursor it was first fetched with.
  /// - A list restored with its items alone (saved by an earlier version, or with a cursor
  ///   that is not `Codable`): refreshes the first page (silently), after which pages follow.
  ///
  /// The page is the entry's, as every fetch of it is: cancelling the caller ends only its
  /// wait. A first-page fetch (a load of a stale list, ``refresh()``, an invalidation)
  /// cancels it; an optimistic edit does not. It never makes the list fresh.
  public func loadNextPage<Item, Cursor>() async where State == PagedState<Item, Cursor> {
    await loadAddedPage(previous: false)
  }

  /// Loads the page before the first one of a paged entry, puts it first, and returns when
  /// the load has stopped.
  ///
  /// <!-- compile: context StoreView -->
  /// ```swift
  /// ForEach(chat.state.items) { message in
  ///   MessageRow(message).task {
  ///     if message.id == chat.state.items.first?.id { await chat.loadPreviousPage() }
  ///   }
  /// }
  /// ```
  ///
  /// - A page was dropped from the start by `maxPages` (``PagedState/droppedPageCount``):
  ///   fetches the last of them again, at the cursor it was first fetched with. Otherwise it
  ///   fetches the page at the first page's ``Page/previous`` cursor.
  /// - A load of the list runs (a first page, a next or previous page): fetches nothing and
  ///   waits for it; one page loads at a time.
  /// - Before the first page, when ``PagedState/hasPreviousPage`` is `false` (a list that
  ///   pages forward only, at its first page), after a ``RepeatedCursorError``: does nothing.
  /// - After a failed previous page: fetches that page again.
  /// - A list restored with its items alone: refreshes the first page (silently), as
  ///   ``loadNextPage()`` does.
  ///
  /// With `maxPages`, the pages at the end are dropped, and a later ``loadNextPage()``
  /// fetches them again at their own cursors. The pending edits are laid over the new list,
  /// so an `update` reaches the page put first. As with ``loadNextPage()``, a first-page
  /// fetch cancels it, an optimistic edit does not, and it never makes the list fresh.
  public func loadPreviousPage<Item, Cursor>() async where State == PagedState<Item, Cursor> {
    await loadAddedPage(previous: true)
  }

  /// Loads the page at one end of a paged entry, or joins the load running.
  private func loadAddedPage<Item, Cursor>(previous: Bool) async
  where State == PagedState<Item, Cursor> {
    beginAddedPage(previous: previous)
    await slot.untilIdle()
  }

  /// The first, synchronous step of a next or previous page: starts its fetch, or joins the
  /// load running (fetching nothing).
  private func beginAddedPage<Item, Cursor>(previous: Bool)
  where State == PagedState<Item, Cursor> {
    if slot.isBusy {
      store?.touch(self)
    } else if book.base.list.isLoaded, book.base.pages.isEmpty {
      startRefresh()
    } else {
      store?.touch(self)
      itemLink?.fetchStarted()
      engine.startAddedPage(slot, previous: previous)
      noteFetchStarted()
    }
  }
}

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

/// The engine of a paged list's entry: its fetches are the first page's, and its next and
/// previous pages the engine's (``LoadMachine/launchAddedPage(_:previous:priority:)``), all
/// from `source`.
final class PagedEntryEngine<Item: Sendable, Cursor: Equatable & Sendable>:
  EntryEngine<[Item], PagedState<Item, Cursor>>
{
  private let source: PagedSource<Item, Cursor>
  private let refreshedPages: PagedRefresh

  init(_ source: PagedSource<Item, Cursor>, refreshedPages: PagedRefresh) {
    self.source = source
    self.refreshedPages = refreshedPages
    super.init()
  }

  override func startFetch(_ slot: Slot, silently: Bool, failure: (any Error)?) {
    // A first page supersedes a next or previous page in flight; cancelled first, so its
    // spinner goes and the list's freshness stays the first page's.
    if slot.isLoadingAddedPage {
      slot.nextCause = .nextPage
      slot.cancel()
      slot.nextCause = nil
    }
    // A silent fetch refreshes a loaded list: a failure keeps the list on screen, as a
    // `refresh` does.
    let policy = silently ? source.policy.keepValueOnFailure() : source.policy
    let first = source.first
    var fetch = source.fetch
    if let failure { fetch = { @Sendable _ in throw failure } }
    // Every loaded page, in order: one request a page, each at the cursor the page before
    // it returned, handed to the engine as one outcome (the first page carrying the rest).
    let count = silently && refreshedPages == .allLoadedPages ? (slot.read()?.pages.count ?? 1) : 1
    guard count > 1 else {
      let block: @MainActor () async throws -> Page<Item, Cursor> = { [weak slot] in
        guard slot != nil else { throw CancellationError() }
        return try await fetch(first)
      }
      _ = slot.launch(
        .first(first), silently: silently, priority: nil, policy: policy, block: block)
      return
    }
    // Each page of the run goes through the policy on its own, as a next page does: a retry
    // retries the page that failed, not the run; a timeout limits one page. The load itself
    // runs under the policy's unwrapped form, so its attempts still show on the entry.
    let block: @MainActor () async throws -> Page<Item, Cursor> = { [weak slot] in
      guard slot != nil else { throw CancellationError() }
      var page = try await policy.wrap({ try await fetch(first) })()
      var cursors = [first]
      var last = page
      while page.following.count + 1 < count, let next = last.next, !cursors.contains(next) {
        cursors.append(next)
        last = try await policy.wrap({ try await fetch(next) })()
        page.following.append(last)
      }
      return page
    }
    _ = slot.launch(
      .first(first), silently: silently, priority: nil, policy: policy.unwrapped, block: block)
  }

  override func startAddedPage(_ slot: Slot, previous: Bool) {
    // The writes of this load (its spinner, its page or its failure) are the added page's;
    // if no load starts, the generation stays and so must the mark.
    let before = slot.generation
    slot.addedPageGeneration = before &+ 1
    _ = slot.launchAddedPage(source, previous: previous, priority: nil)
    if slot.generation == before { slot.addedPageGeneration = nil }
  }

  override func cancel(_ slot: Slot) { slot.cancel() }
  override func reset(_ slot: Slot) { slot.reset() }
  override func fetch() async throws -> [Item] { try await source.fetch(source.first).items }
  override var policyDescription: String { source.policy.description }
  override var maxPages: Int? { source.maxPages }

  override func droppedPages(in state: PagedState<Item, Cursor>) -> (start: Int, end: Int) {
    (state.droppedPageCount, state.droppedTrailingPageCount)
  }
}

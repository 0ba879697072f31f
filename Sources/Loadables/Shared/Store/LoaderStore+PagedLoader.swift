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
    // An entry's fetch supersedes a stale one, as a value entry's does
    // (`LoaderStore.makeEntry`): ignoring starts while one runs is dropped.
    var policy = source.policy.restartingWhileRunning
    let waits = waitsForNetwork ?? defaults.waitsForNetwork
    if waits, let connectivity { policy = policy.waitsForNetwork(connectivity) }
    let persisted = persisted ?? defaults.isPersisted
    let requested = RequestedSettings(
      staleTime: staleTime, waitsForNetwork: waits, waitsInForce: waits && connectivity != nil,
      persisted: persisted)
    let entry = SharedPagedLoader(
      key: key, registryKey: registryKey, now: now,
      settings: entrySettings(requested, triggers: triggers ?? defaults.refreshTriggers),
      engine: PagedEntryEngine(
        PagedSource<Item, Cursor>(
          first: source.first, policy: policy, maxPages: maxPages ?? source.maxPages,
          fetch: source.fetch),
        refreshedPages: refreshedPages))
    return register(entry, persisted: persisted, kind: "paged")
  }
}

/// One kind of paged list in the store, described once: its key, its source, its item and
/// cursor types, and the settings that differ from the store's ``LoadDefaults``.
///
/// The paged counterpart of ``LoadDefinition``: write one for each list the app shows, and
/// ask the store for the entry of a definition wherever a screen needs it; every screen
/// asking for the same key gets the same list, with the same settings and source:
///
/// <!-- compile: context SharedDefining -->
/// ```swift
/// struct FeedQuery: PagedLoadDefinition {
///   var key: LoadKey { ["feed"] }
///   var staleTime: Duration? { .seconds(60) }
///   var source: PagedSource<Post, String> {
///     PagedSource(first: "") { cursor in  // "" stands for the first page's cursor
///       let response = try await api.posts(after: cursor.isEmpty ? nil : cursor)
///       return Page(items: response.posts, next: response.nextCursor)
///     }
///   }
/// }
///
/// let feed = store.pagedLoader(for: FeedQuery())  // SharedPagedLoader<Post, String>
/// await feed.load()
/// ```
///
/// Every setting but ``key`` and ``source`` has a default: `nil` says "the store's" (or the
/// source's, for ``maxPages``), and ``LoaderStore/defaults`` decides the rest. The settings
/// an entry was made with are its ``SharedEntry/settings``.
///
/// | setting | when the definition says `nil` (the default) |
/// |---|---|
/// | ``staleTime`` | ``LoadDefaults/staleTime`` |
/// | ``waitsForNetwork`` | ``LoadDefaults/waitsForNetwork`` |
/// | ``refreshTriggers`` | ``LoadDefaults/refreshTriggers`` |
/// | ``isPersisted`` | ``LoadDefaults/isPersisted`` |
/// | ``maxPages`` | the source's ``PagedSource/maxPages`` |
///
/// ``refreshedPages`` is ``PagedRefresh/firstPage`` unless the definition says otherwise. Each
/// page fetch runs under the source's ``PagedSource/policy``, as with
/// ``LoaderStore/pagedLoader(for:staleTime:waitsForNetwork:refreshing:persisted:maxPages:refreshedPages:source:)``.
///
/// As with every shared entry, the first caller for a key makes it. A caller that finds its
/// key's entry already made (a key-based call, a definition of another type, another
/// instance of the same definition type) gets that entry; each setting it states that
/// differs from the entry's is not used, and is reported once per key and setting as
/// ``StoreDiagnostic/settingsIgnored(key:setting:used:asked:)``. One whose item or cursor
/// type differs from the entry's gets an entry of its own, see
/// ``StoreDiagnostic/typeMismatch(_:)``.
public protocol PagedLoadDefinition: _PagedRefetchMode, Sendable {
  /// The type of the list's items.
  associatedtype Item: Sendable
  /// The type of the position of a page: a page number, an offset, or a token.
  associatedtype Cursor: Equatable & Sendable

  /// The entry's key. Keys are compared whole: two definitions with one key share an entry.
  var key: LoadKey { get }

  /// The list's source: its first cursor, its page fetch and the policy each page fetch
  /// runs under. Read only when the store makes the entry.
  var source: PagedSource<Item, Cursor> { get }

  /// How long a first page stays fresh; `nil` (the default) for the store's
  /// ``LoadDefaults/staleTime``. Not negative.
  var staleTime: Duration? { get }

  /// Whether page fetches wait while the store's connectivity says offline; `nil` (the
  /// default) for the store's ``LoadDefaults/waitsForNetwork``.
  var waitsForNetwork: Bool? { get }

  /// What refreshes the first page while the entry is observed; `nil` (the default) for the
  /// store's ``LoadDefaults/refreshTriggers``.
  var refreshTriggers: [RefreshTrigger]? { get }

  /// Whether the items are kept between launches by the store's persistence (they must be
  /// `Codable`); `nil` (the default) for the store's ``LoadDefaults/isPersisted``.
  var isPersisted: Bool? { get }

  /// The most pages the list keeps, at least `1`; `nil` (the default) for the source's
  /// ``PagedSource/maxPages``.
  var maxPages: Int? { get }

  /// What a refresh of a loaded list fetches; ``PagedRefresh/firstPage`` by default.
  var refreshedPages: PagedRefresh { get }

  /// What a refresh of a loaded list fetches: the 0.3 spelling of ``refreshedPages``.
  @available(*, deprecated, renamed: "refreshedPages")
  var refetch: PagedRefresh { get }

  /// A placeholder list to show until the first page lands, computed from what the store
  /// already holds (the first items of another list, say); `nil` (the default) for none.
  /// Asked once, when the store makes the entry and nothing was restored for it; see
  /// ``SharedEntry/showPlaceholder(_:)``. The list shows the items, flagged
  /// ``SharedEntry/isPlaceholder``, until its first page replaces them; it has no pages and
  /// no cursor, so a ``SharedEntry/loadNextPage()`` over it fetches the first page. A first
  /// page that fails keeps it on screen, still flagged, with the error as
  /// ``LoadHandle/refreshError``, as a failed refresh of a loaded list does. A placeholder
  /// that throws is reported as ``StoreDiagnostic/placeholderFailed(key:error:)`` and none
  /// is shown.
  ///
  /// ```swift
  /// func placeholder(in store: LoaderStore) -> [Post]? {
  ///   // The pinned posts another screen loaded, until the feed's first page lands.
  ///   store.existingLoader(for: ["pinned"], as: [Post].self)?.state.data
  /// }
  /// ```
  @MainActor func placeholder(in store: LoaderStore) throws -> [Item]?
}

extension PagedLoadDefinition {
  /// The store's stale time: ``LoadDefaults/staleTime``.
  public var staleTime: Duration? { nil }
  /// The store's ``LoadDefaults/waitsForNetwork``.
  public var waitsForNetwork: Bool? { nil }
  /// The store's ``LoadDefaults/refreshTriggers``.
  public var refreshTriggers: [RefreshTrigger]? { nil }
  /// The store's ``LoadDefaults/isPersisted``.
  public var isPersisted: Bool? { nil }
  /// The source's ``PagedSource/maxPages``.
  public var maxPages: Int? { nil }
  /// The first page alone (``PagedRefresh/firstPage``), or what a definition written for 0.3
  /// states as its `refetch`.
  public var refreshedPages: PagedRefresh { statedRefetch }
  /// No placeholder.
  @MainActor public func placeholder(in store: LoaderStore) throws -> [Item]? { nil }
}

extension LoaderStore {
  /// The paged entry of `definition`, made on first use with its settings and source.
  ///
  /// <!-- compile: context Shared -->
  /// ```swift
  /// let feed = store.pagedLoader(for: FeedQuery())
  /// await feed.load()          // the first page, once for every screen
  /// await feed.loadNextPage()  // the next one, appended
  /// ```
  ///
  /// Reading an entry that exists looks up the definition's key and compares the settings
  /// the definition states with the entry's (see ``PagedLoadDefinition`` for the rule); its
  /// source and refresh triggers are read only when the entry is made. The entry
  /// behaves as one made by
  /// ``pagedLoader(for:staleTime:waitsForNetwork:refreshing:persisted:maxPages:refreshedPages:source:)``.
  ///
  /// - Parameter definition: What the list is: its key, types, source and settings.
  /// - Returns: The shared paged entry for the definition's key.
  ///
  /// > Important: A negative ``PagedLoadDefinition/staleTime`` or a
  /// > ``PagedLoadDefinition/maxPages`` below `1` stops the program with a message naming
  /// > the key when it makes the entry.
  public func pagedLoader<Definition: PagedLoadDefinition>(
    for definition: Definition
  ) -> SharedPagedLoader<Definition.Item, Definition.Cursor> {
    let key = definition.key
    if let existing = existingPagedEntry(
      for: key, as: Definition.Item.self, cursor: Definition.Cursor.self)
    {
      noteIgnored(
        existing, staleTime: definition.staleTime,
        waitsForNetwork: definition.waitsForNetwork, persisted: definition.isPersisted)
      return existing
    }
    if LoadEvents.isOn { makingDefinition = Definition.self }
    defer { makingDefinition = nil }
    let entry = pagedLoader(
      for: key, staleTime: definition.staleTime, waitsForNetwork: definition.waitsForNetwork,
      refreshing: definition.refreshTriggers, persisted: definition.isPersisted,
      maxPages: definition.maxPages, refreshedPages: definition.refreshedPages,
      source: definition.source)
    if !entry.isDefined {
      entry.isDefined = true
      showPlaceholder(in: entry) { try definition.placeholder(in: self) }
    }
    return entry
  }

  /// The paged entry for `key` if the store holds one of those item and cursor types (or
  /// one kept apart for them after a ``LoadKeyTypeMismatch``); `nil` otherwise. Never makes
  /// an entry.
  ///
  /// ```swift
  /// // A detail's placeholder, read from the feed if a screen loaded it:
  /// let row = store.existingPagedLoader(for: ["feed"], as: Post.self, cursor: String.self)?
  ///   .state.items.first { $0.id == id }
  /// ```
  ///
  /// - Parameters:
  ///   - key: The entry's key.
  ///   - item: The type of the list's items.
  ///   - cursor: The type of its cursor.
  /// - Returns: The entry, or `nil`.
  public func existingPagedLoader<Item: Sendable, Cursor: Equatable & Sendable>(
    for key: LoadKey, as item: Item.Type = Item.self, cursor: Cursor.Type = Cursor.self
  ) -> SharedPagedLoader<Item, Cursor>? {
    if let entry = entries[key] as? SharedPagedLoader<Item, Cursor> { return entry }
    return entries[key.appending(ApartTag(PagedState<Item, Cursor>.self))]
      as? SharedPagedLoader<Item, Cursor>
  }

  /// The paged entry held for `key` with these types (or the one kept apart for them),
  /// counted as a use; `nil` when the store has none, so the caller makes it.
  private func existingPagedEntry<Item: Sendable, Cursor: Equatable & Sendable>(
    for key: LoadKey, as _: Item.Type, cursor _: Cursor.Type
  ) -> SharedPagedLoader<Item, Cursor>? {
    guard let entry = existingPagedLoader(for: key, as: Item.self, cursor: Cursor.self) else {
      return nil
    }
    touch(entry)
    return entry
  }

  /// Makes the paged entry of `definition` if needed (see ``pagedLoader(for:)``) and
  /// prefetches its first page (``SharedEntry/prefetch(ifOlderThan:priority:)``): fetches
  /// it at a low priority unless a fetch runs or the list is recent enough.
  ///
  /// <!-- compile: context Shared -->
  /// ```swift
  /// // Warm the feed before its tab opens:
  /// store.prefetch(FeedQuery(), ifOlderThan: .seconds(30))
  /// ```
  ///
  /// - Parameters:
  ///   - definition: What the list is.
  ///   - age: How old the first page may be before it is fetched again; `nil` (the
  ///     default) uses the entry's stale time.
  ///   - priority: The priority the fetch waits at in a limiter; ``LoadPriority/prefetch`` by
  ///     default.
  /// - Returns: The entry.
  @discardableResult
  public func prefetch<Definition: PagedLoadDefinition>(
    _ definition: Definition,
    ifOlderThan age: Duration? = nil,
    priority: LoadPriority = .prefetch
  ) -> SharedPagedLoader<Definition.Item, Definition.Cursor> {
    let entry = pagedLoader(for: definition)
    entry.prefetch(ifOlderThan: age, priority: priority)
    return entry
  }
}

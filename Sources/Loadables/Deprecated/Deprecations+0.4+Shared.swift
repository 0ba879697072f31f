public import Foundation

// The 0.3 spellings of the loader objects and shared entries that 0.4 replaced, kept for this
// minor version so that code written against 0.3 still compiles (with a warning naming the
// replacement) and behaves the same.

// MARK: - Starting without waiting: `start` in every form

extension Loader {
  /// Starts a load, showing `.loading`, and returns at once.
  ///
  /// - Returns: The task running the load.
  @available(*, deprecated, renamed: "start()")
  @discardableResult
  public func startLoad() -> Task<Void, Never> {
    start(silently: false)
  }

  /// Starts a load and returns at once.
  ///
  /// - Parameter silently: When `true`, the old state stays until the new one arrives.
  /// - Returns: The task running the load.
  @available(*, deprecated, renamed: "start(silently:)")
  @discardableResult
  public func startLoad(silently: Bool) -> Task<Void, Never> {
    start(silently: silently)
  }
}

// MARK: - One parameter for a prefix or an exact key: `matching:`

extension LoaderStore {
  /// Starts a fetch of the entry of exactly `key`, whatever its freshness.
  ///
  /// - Parameter key: The entry's key.
  /// - Returns: Whether the store holds an entry of that key.
  @available(
    *, deprecated,
    message: "use refresh(_:matching: .exact), which returns a count"
  )
  @discardableResult
  public func refetchEntry(_ key: LoadKey) -> Bool {
    refresh(key, matching: .exact) > 0
  }

  /// Marks the entry of exactly `key` stale.
  ///
  /// - Parameter key: The entry's key.
  /// - Returns: Whether the store holds an entry of that key.
  @available(
    *, deprecated,
    message: "use invalidate(_:matching: .exact), which returns a count"
  )
  @discardableResult
  public func invalidateEntry(_ key: LoadKey) -> Bool {
    invalidate(key, matching: .exact) > 0
  }

  /// Resets the entry of exactly `key`; the outbox's queued edits for it stay.
  ///
  /// - Parameter key: The entry's key.
  /// - Returns: Whether the store holds an entry of that key.
  @available(
    *, deprecated,
    message: "use reset(_:matching: .exact), which returns a PrefixRemoval"
  )
  @discardableResult
  public func resetEntry(_ key: LoadKey) -> Bool {
    reset(key, matching: .exact).entryCount > 0
  }

  /// Removes the entry of exactly `key` from the store; the outbox's queued edits stay.
  ///
  /// - Parameter key: The entry's key.
  /// - Returns: Whether the store held an entry of that key.
  @available(
    *, deprecated,
    message: "use remove(_:matching: .exact), which returns a PrefixRemoval"
  )
  @discardableResult
  public func removeEntry(_ key: LoadKey) -> Bool {
    remove(key, matching: .exact).entryCount > 0
  }
}

// MARK: - One word for a load in flight: `isRunning`

extension LoaderStore {
  /// Whether any entry of the store runs a fetch now.
  @available(*, deprecated, renamed: "isRunning")
  public var isFetching: Bool { isRunning }

  /// How many entries of the store run a fetch now.
  @available(*, deprecated, renamed: "runningCount")
  public var fetchingCount: Int { runningCount }
}

extension StoreSnapshot {
  /// How many entries run a fetch now.
  @available(*, deprecated, renamed: "runningCount")
  public var fetchingCount: Int { runningCount }

  /// Creates a snapshot.
  ///
  /// - Parameters:
  ///   - entries: The entries.
  ///   - outbox: The queued edits.
  ///   - fetchingCount: How many entries run a fetch now.
  ///   - isOnline: Whether the connectivity says online; `nil` without one.
  ///   - isSimulatingOffline: Whether the store pretends to be offline.
  ///   - date: When the snapshot was taken.
  @available(
    *, deprecated, renamed: "init(entries:outbox:runningCount:isOnline:isSimulatingOffline:date:)"
  )
  public init(
    entries: [EntrySnapshot], outbox: [OutboxItem], fetchingCount: Int, isOnline: Bool?,
    isSimulatingOffline: Bool, date: Date
  ) {
    self.init(
      entries: entries, outbox: outbox, runningCount: fetchingCount, isOnline: isOnline,
      isSimulatingOffline: isSimulatingOffline, date: date)
  }
}

extension EntrySnapshot {
  /// Whether a fetch is in flight.
  @available(*, deprecated, renamed: "isRunning")
  public var isFetching: Bool { isRunning }

  /// Creates an entry's snapshot.
  ///
  /// - Parameters:
  ///   - key: The entry's key.
  ///   - id: Its identity; the key's description by default.
  ///   - kind: A value or a paged list.
  ///   - valueType: Its value type's name.
  ///   - phase: What it shows.
  ///   - valueSummary: Its value in a line.
  ///   - error: The error shown or kept.
  ///   - nextPage: A paged list's next page in a word.
  ///   - observerCount: How many observers are alive.
  ///   - fetchedAt: When the value was fetched.
  ///   - staleTime: How long a value stays fresh.
  ///   - staleness: Whether it is fresh, and why not.
  ///   - staleAt: When a fresh value turns stale.
  ///   - isFetching: Whether a fetch is in flight.
  ///   - isWaitingForNetwork: Whether it waits for the network.
  ///   - attempt: The retry attempt.
  ///   - progress: The fetch's progress.
  ///   - isPersisted: Whether the entry is saved between launches.
  ///   - pendingEditCount: Uncommitted optimistic edits.
  ///   - editCount: Every optimistic edit laid over.
  ///   - failsNextFetch: Whether its next fetch fails on purpose.
  @available(*, deprecated, message: "the label isFetching: is now isRunning:")
  public init(
    key: LoadKey, id: String? = nil, kind: Kind = .value, valueType: String = "",
    phase: Phase, valueSummary: String? = nil, error: (any Error)? = nil,
    nextPage: String? = nil, observerCount: Int = 0, fetchedAt: Date? = nil,
    staleTime: Duration = .zero, staleness: Staleness, staleAt: Date? = nil,
    isFetching: Bool, isWaitingForNetwork: Bool = false, attempt: RetryAttempt? = nil,
    progress: LoadingProgress? = nil, isPersisted: Bool = false, pendingEditCount: Int = 0,
    editCount: Int = 0, failsNextFetch: Bool = false
  ) {
    self.init(
      key: key, id: id, kind: kind, valueType: valueType, phase: phase,
      valueSummary: valueSummary, error: error, nextPage: nextPage,
      observerCount: observerCount, fetchedAt: fetchedAt, staleTime: staleTime,
      staleness: staleness, staleAt: staleAt, isRunning: isFetching,
      isWaitingForNetwork: isWaitingForNetwork, attempt: attempt, progress: progress,
      isPersisted: isPersisted, pendingEditCount: pendingEditCount, editCount: editCount,
      failsNextFetch: failsNextFetch)
  }
}

// MARK: - One word for a reload that keeps the value: `refresh`

extension SharedEntry {
  /// Fetches now, whatever the freshness, keeping a loaded value on screen, and returns
  /// when the fetch ends.
  ///
  /// - Returns: The state when the call returns.
  @available(*, deprecated, renamed: "refresh()")
  @discardableResult
  public func refetch() async -> State {
    await refresh()
  }
}

/// What a paged entry fetches when it refreshes a loaded list.
@available(*, deprecated, renamed: "PagedRefresh")
public typealias PagedRefetch = PagedRefresh

extension LoaderStore {
  /// The paged entry for `key`, made on first use.
  ///
  /// - Parameters:
  ///   - key: The entry's key.
  ///   - staleTime: How long a first page stays fresh; `nil` for the store's default.
  ///   - waitsForNetwork: Whether page fetches wait while offline; `nil` for the default.
  ///   - triggers: What makes the entry refresh its first page; `nil` for the default.
  ///   - persisted: Whether the items are saved between launches; `nil` for the default.
  ///   - maxPages: The most pages the list keeps; `nil` for the source's.
  ///   - refetch: What a refresh of a loaded list fetches.
  ///   - source: The paged source.
  /// - Returns: The shared paged entry.
  @available(*, deprecated, message: "the label refetching: is now refreshedPages:")
  public func pagedLoader<Item: Sendable, Cursor: Equatable & Sendable>(
    for key: LoadKey,
    staleTime: Duration? = nil,
    waitsForNetwork: Bool? = nil,
    refreshing triggers: [RefreshTrigger]? = nil,
    persisted: Bool? = nil,
    maxPages: Int? = nil,
    refetching refetch: PagedRefresh,
    source: PagedSource<Item, Cursor>
  ) -> SharedPagedLoader<Item, Cursor> {
    pagedLoader(
      for: key, staleTime: staleTime, waitsForNetwork: waitsForNetwork, refreshing: triggers,
      persisted: persisted, maxPages: maxPages, refreshedPages: refetch, source: source)
  }
}

/// The 0.3 requirement of a ``PagedLoadDefinition`` that said what a refresh of its loaded
/// list fetches, now ``PagedLoadDefinition/refreshedPages``. An implementation detail: a
/// definition written for 0.3 that states `refetch` keeps it, because the default
/// `refreshedPages` reads it through this protocol (whose requirement is not deprecated, so
/// the library reads it without a warning); ``PagedLoadDefinition`` restates it deprecated.
public protocol _PagedRefetchMode {
  /// What a refresh of the loaded list fetches; ``PagedRefresh/firstPage`` by default.
  var refetch: PagedRefresh { get }
}

extension _PagedRefetchMode {
  /// The first page alone: ``PagedRefresh/firstPage``.
  public var refetch: PagedRefresh { .firstPage }

  /// The 0.3 `refetch` of this definition, read without naming the deprecated requirement.
  var statedRefetch: PagedRefresh { refetch }
}

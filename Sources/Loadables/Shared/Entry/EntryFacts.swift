/// The counts and times of an ``EntryBook``: freshness, observers and fetches, with no
/// generic value in them.
struct EntryFacts {
  // In the order that packs them: the flags in the bytes after the optional time; the two
  // other times are a time and a flag each, as an optional's extra byte would cost a word.

  /// How long a fetched value stays fresh.
  let staleTime: Duration
  /// How many observers are alive.
  var observerCount = 0
  /// How many fetches the book has started; a fetch's writes belong to the latest one.
  var fetchEpoch: UInt64 = 0
  /// Since when nobody observes the entry; `nil` while observed.
  var unobservedSince: Duration?
  /// Whether the value was invalidated since it was shown.
  var invalidated = false
  /// The staleness last told to observers (the observable `isStale`).
  var staleFlag = false
  /// Whether the book's shown state holds a value, kept at every write.
  var showsValue = false
  /// Whether the base is a placeholder that no fetch has replaced yet.
  var isPlaceholder = false
  /// Whether the edit log is empty, so the state shown is the base with nothing laid over
  /// it: kept at each change of the log.
  var showsBase = true
  /// Whether ``updatedAt`` is set.
  private var hasUpdatedAt = false
  /// Whether ``fetchedAt`` is set.
  private var hasFetchedAt = false
  /// ``updatedAt`` while it is set.
  private var updatedTime: Duration = .zero
  /// ``fetchedAt`` while it is set.
  private var fetchedTime: Duration = .zero

  /// When a value was last shown, on the store's stopwatch; `nil` before any value.
  var updatedAt: Duration? {
    get { hasUpdatedAt ? updatedTime : nil }
    set {
      hasUpdatedAt = newValue != nil
      updatedTime = newValue ?? .zero
    }
  }

  /// When the committed value was fetched (or, restored, when it was fetched in an earlier
  /// launch), on the store's stopwatch; `nil` before any.
  var fetchedAt: Duration? {
    get { hasFetchedAt ? fetchedTime : nil }
    set {
      hasFetchedAt = newValue != nil
      fetchedTime = newValue ?? .zero
    }
  }

  init(staleTime: Duration, unobservedSince: Duration) {
    self.staleTime = staleTime
    self.unobservedSince = unobservedSince
  }

  /// Whether the value is stale at `now`: invalidated, older than the stale time, or absent.
  func isStale(at now: Duration) -> Bool {
    guard !invalidated, let updatedAt else { return true }
    return now - updatedAt >= staleTime
  }

  /// Whether a load at `now` fetches: no fetch runs to join, and no fresh value is shown.
  func loadFetches(isFetching: Bool, at now: Duration) -> Bool {
    !isFetching && !(showsValue && !isStale(at: now))
  }
}

/// The counts and times of an ``EntryBook``: freshness, observers and fetches, with no
/// generic value in them.
struct EntryFacts {
  // In the order that packs them: two times in whole nanoseconds, two counts, the flags in
  // one word, then the two times of a fetched value. Every optional time is a time and a
  // flag, as an optional's extra byte would cost a word. The stale time and the time the
  // observers left keep whole nanoseconds (a word each) rather than a `Duration` (two): no
  // freshness or grace time needs finer, and the book is in every shared entry.

  /// ``staleTime`` in whole nanoseconds, clamped to what 64 bits hold (292 years).
  private let staleNanoseconds: Int64
  /// ``unobservedSince`` in whole nanoseconds, while it is set.
  private var unobservedNanoseconds: Int64 = 0
  /// How many observers are alive.
  var observerCount = 0
  /// How many fetches the book has started; a fetch's writes belong to the latest one.
  var fetchEpoch: UInt64 = 0
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
  /// Whether ``unobservedSince`` is set.
  private var isUnobserved = true
  /// Whether ``updatedAt`` is set.
  private var hasUpdatedAt = false
  /// Whether ``fetchedAt`` is set.
  private var hasFetchedAt = false
  /// ``updatedAt`` while it is set.
  private var updatedTime: Duration = .zero
  /// ``fetchedAt`` while it is set.
  private var fetchedTime: Duration = .zero

  /// How long a fetched value stays fresh, to the nanosecond.
  var staleTime: Duration { .nanoseconds(staleNanoseconds) }

  /// Since when nobody observes the entry, on the store's stopwatch to the nanosecond; `nil`
  /// while observed.
  var unobservedSince: Duration? {
    get { isUnobserved ? .nanoseconds(unobservedNanoseconds) : nil }
    set {
      isUnobserved = newValue != nil
      unobservedNanoseconds = newValue?.clampedNanoseconds ?? 0
    }
  }

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
    staleNanoseconds = staleTime.clampedNanoseconds
    unobservedNanoseconds = unobservedSince.clampedNanoseconds
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

  /// Whether an edit (a `set` when `isSet`, else an `update`) supersedes the fetch running
  /// now, which started before it. It does when it changes what shows: a `set`, or an update
  /// of a shown value. An update of an entry that shows no value yet changes nothing now (an
  /// outbox edit keeps it for the value the entry loads): the fetch goes on, and the update
  /// runs over its value once it lands. Cancelled, a first load would leave nothing to lay
  /// the update over, and nothing running.
  func editSupersedesFetch(isSet: Bool) -> Bool {
    isSet || showsValue
  }
}

extension Duration {
  /// The duration in whole nanoseconds, rounded toward zero, and clamped to what 64 bits hold
  /// (about 292 years either way): a longer one is as good as forever.
  var clampedNanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (whole, overflowed) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    let (total, overflowedAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
    guard !overflowed, !overflowedAgain else { return seconds < 0 ? .min : .max }
    return total
  }
}

/// Values kept by key, so that a load can show what it loaded before at once.
///
/// Pass it to ``LoadPolicy/cache(_:key:)-type.method``. As a load starts, its entry decides what it
/// shows:
///
/// | entry | what the load does |
/// |---|---|
/// | *fresh*: younger than `timeToLive`, not invalidated | writes `.loaded(cached)` and fetches nothing |
/// | *stale*: older, or invalidated, but within `staleWhileRevalidate` | writes `.loaded(cached)` at once (no `.loading`), refreshes silently, writes the new value |
/// | none, or expired | loads as usual: `.loading`, then the value |
///
/// A value the block returns is stored; errors are not. A fetch that started before an
/// ``invalidate(_:)``, ``invalidateAll()``, ``remove(_:)`` or ``removeAll()`` does not store
/// its result, so a write made meanwhile is not overwritten by older data.
///
/// <!-- compile: context Model -->
/// ```swift
/// let profiles = LoadCache<User.ID, Profile>(timeToLive: .seconds(60))
///
/// $profile.load(policy: .cache(profiles, key: id)) { try await api.profile(id) }
/// ```
///
/// When more than `maxEntries` values are stored, the least recently used goes. Storing or
/// reading an entry counts as a use. Eviction looks through the entries, so it costs time
/// in proportion to `maxEntries`; keep it to the hundreds.
@MainActor
public final class LoadCache<Key: Hashable & Sendable, Value: Sendable> {
  /// How long a stored value is fresh: loads use it without fetching.
  public let timeToLive: Duration

  /// How long after `timeToLive` a stale value is still shown while a load refreshes it;
  /// `nil` for no limit.
  public let staleWhileRevalidate: Duration?

  /// The most values kept; the least recently used goes first.
  public let maxEntries: Int

  /// How fresh a cached value is.
  public enum Freshness: Sendable, Hashable {
    /// Younger than `timeToLive` and not invalidated: used without fetching.
    case fresh
    /// Shown while a load refreshes it.
    case stale
  }

  private struct Entry {
    var value: Value
    var storedAt: Duration
    var isInvalidated = false
    var lastUse: UInt64
  }

  private let explicitClock: (any Clock<Duration>)?
  /// Chosen the first time the cache measures time.
  private var startedStopwatch: Stopwatch?
  private var stopwatch: Stopwatch {
    if let startedStopwatch { return startedStopwatch }
    let made = Stopwatch(resolved(explicitClock))
    startedStopwatch = made
    return made
  }
  private var entries: [Key: Entry] = [:]
  private var uses: UInt64 = 0
  /// Moves on with every invalidation or removal; a fetch that saw an older epoch does not
  /// store its result.
  private(set) var epoch: UInt64 = 0

  /// Creates an empty cache.
  ///
  /// - Parameters:
  ///   - timeToLive: How long a value stays fresh; not negative. Zero makes every value
  ///     stale at once: shown, then refreshed.
  ///   - staleWhileRevalidate: How long after that a stale value is still shown while a load
  ///     refreshes it; `nil` (the default) for no limit; not negative.
  ///   - maxEntries: The most values kept; at least 1.
  ///   - clock: The clock ages are measured on; the cache only reads it and never sleeps on
  ///     it, so it starts no timers; `nil` (the default) for
  ///     ``LoadClock/current`` as it is the first time the cache measures time (it then
  ///     keeps that clock: the ages it stores are measured on it).
  ///
  /// > Important: A negative duration or a `maxEntries` below 1 stops the program with a
  /// > message naming it.
  public init(
    timeToLive: Duration,
    staleWhileRevalidate: Duration? = nil,
    maxEntries: Int = 100,
    clock: (any Clock<Duration>)? = nil
  ) {
    checkNotNegative(timeToLive, "LoadCache: timeToLive")
    if let staleWhileRevalidate {
      checkNotNegative(staleWhileRevalidate, "LoadCache: staleWhileRevalidate")
    }
    precondition(maxEntries >= 1, "LoadCache: maxEntries must be at least 1, got \(maxEntries)")
    self.timeToLive = timeToLive
    self.staleWhileRevalidate = staleWhileRevalidate
    self.maxEntries = maxEntries
    self.explicitClock = clock
  }

  /// How many values are stored, expired ones included until they are next looked up.
  public var count: Int { entries.count }

  /// The value stored for `key` and how fresh it is; `nil` when there is none or it has
  /// expired (an expired value is removed). Counts as a use.
  ///
  /// - Parameter key: The key.
  /// - Returns: The value and its freshness, or `nil`.
  public func entry(for key: Key) -> (value: Value, freshness: Freshness)? {
    guard var entry = entries[key] else { return nil }
    let age = stopwatch.elapsed - entry.storedAt
    if let staleWhileRevalidate, age >= timeToLive + staleWhileRevalidate {
      entries[key] = nil
      return nil
    }
    uses += 1
    entry.lastUse = uses
    entries[key] = entry
    let isFresh = !entry.isInvalidated && age < timeToLive
    return (entry.value, isFresh ? .fresh : .stale)
  }

  /// The value stored for `key`, fresh or stale; `nil` when there is none or it has expired.
  ///
  /// - Parameter key: The key.
  /// - Returns: The value, or `nil`.
  public func value(for key: Key) -> Value? { entry(for: key)?.value }

  /// Stores `value` for `key`, fresh from now, evicting the least recently used value if the
  /// cache is full.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - key: The key.
  public func insert(_ value: Value, for key: Key) {
    uses += 1
    entries[key] = Entry(value: value, storedAt: stopwatch.elapsed, lastUse: uses)
    if entries.count > maxEntries,
      let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })
    {
      entries[oldest.key] = nil
    }
  }

  /// Marks the value for `key` stale: the next load shows it and refreshes it.
  ///
  /// - Parameter key: The key.
  public func invalidate(_ key: Key) {
    epoch &+= 1
    entries[key]?.isInvalidated = true
  }

  /// Marks every value stale.
  public func invalidateAll() {
    epoch &+= 1
    for key in entries.keys { entries[key]?.isInvalidated = true }
  }

  /// Removes the value for `key`: the next load shows `.loading`.
  ///
  /// - Parameter key: The key.
  public func remove(_ key: Key) {
    epoch &+= 1
    entries[key] = nil
  }

  /// Removes every value.
  public func removeAll() {
    epoch &+= 1
    entries.removeAll()
  }

  /// Stores `value` unless the cache was invalidated since `epoch`.
  func store(_ value: Value, for key: Key, ifStillAt epoch: UInt64) {
    guard epoch == self.epoch else { return }
    insert(value, for: key)
  }
}

extension LoadPolicy {
  /// Shows the value `cache` holds for `key` as the load starts, fetches only when it is not
  /// fresh, and stores what the block returns.
  ///
  /// See ``LoadCache`` for what each kind of entry does. With a stale value the load runs
  /// silently: the state goes from `.loaded(cached)` straight to `.loaded(new)`, or to
  /// `.error(error)` if the refresh fails, while `isRunning` shows the refresh.
  ///
  /// <!-- compile: context Model -->
  /// ```swift
  /// $profile.load(policy: .cache(profiles, key: id).retry(maxAttempts: 3)) {
  ///   try await api.profile(id)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - cache: The cache, shared by the loads that may reuse each other's values.
  ///   - key: What identifies the value this load loads.
  /// - Returns: A caching policy.
  public static func cache<Key>(_ cache: LoadCache<Key, Value>, key: Key) -> LoadPolicy {
    LoadPolicy(
      "cache(key: \(key))",
      prelude: {
        guard let entry = cache.entry(for: key) else { return .fetch }
        return entry.freshness == .fresh ? .complete(entry.value) : .show(entry.value)
      },
      wrap: { next in
        {
          if let entry = cache.entry(for: key), entry.freshness == .fresh { return entry.value }
          let epoch = cache.epoch
          let value = try await next()
          cache.store(value, for: key, ifStillAt: epoch)
          return value
        }
      })
  }

  /// This policy, then ``cache(_:key:)-type.method`` inside it.
  public func cache<Key>(_ cache: LoadCache<Key, Value>, key: Key) -> LoadPolicy {
    then(.cache(cache, key: key))
  }
}

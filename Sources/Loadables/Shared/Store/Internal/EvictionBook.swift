/// What leaves a store, decided as a pure step: the facts of each entry in, the evictions
/// and the next wake-up out. No clock reads, no tasks: ``LoaderStore`` gathers the facts,
/// asks, and performs what it is told (`LoaderStore+Eviction.swift`); tests ask directly.
///
/// The rules: an entry nobody observes leaves once it has been unobserved for the grace
/// time; past `maxEntries` the least recently used unobserved entries leave; neither ever
/// drops an entry whose fetch is in flight, since a caller may be awaiting it.
struct EvictionBook {
  /// What the store knows of one entry when it decides.
  struct Facts: Equatable {
    /// Whether anyone observes it.
    var isObserved: Bool
    /// Whether its fetch is in flight.
    var isFetching: Bool
    /// Since when nobody observes it (on the store's clock); `nil` while observed.
    var unobservedSince: Duration?
    /// Whether a key-path follower, whose owner may go away unseen, still observes it.
    var hasBoundObservers: Bool
    /// Its last use, in the store's count of uses.
    var lastUse: UInt64
  }

  /// One entry to drop, by its index in the facts given, and why.
  struct Eviction: Equatable {
    var index: Int
    var cause: EvictionCause
  }

  /// What the sweeper does: the entries whose grace time is up, and how long until it must
  /// look again (`nil`: no entry waits, so it stops).
  struct Sweep: Equatable {
    var evictions: [Eviction]
    var nextCheck: Duration?
  }

  let graceTime: Duration
  /// How often a following owner's life is checked: once per grace time, never more often
  /// than once a second.
  var ownerCheck: Duration { max(graceTime, .seconds(1)) }

  /// The entries unobserved for the grace time or more, and when to look again.
  func sweep(_ entries: [Facts], at now: Duration) -> Sweep {
    var next: Duration?
    var evictions: [Eviction] = []
    func wake(at time: Duration) { next = min(next ?? time, time) }
    for (index, entry) in entries.enumerated() {
      // A follower still alive is checked again after a grace time.
      if entry.hasBoundObservers { wake(at: now + ownerCheck) }
      guard let since = entry.unobservedSince else { continue }
      if entry.isFetching {
        // In use even when nobody observes it: look again once the fetch may have ended.
        wake(at: now + graceTime)
        continue
      }
      let deadline = since + graceTime
      if deadline <= now {
        evictions.append(Eviction(index: index, cause: .graceTime))
      } else {
        wake(at: deadline)
      }
    }
    return Sweep(evictions: evictions, nextCheck: next.map { $0 - now })
  }

  /// The least recently used unobserved entries to drop so that at most `maxEntries`
  /// remain, oldest first; fewer when too many are observed or fetching.
  static func overflow(_ entries: [Facts], maxEntries: Int) -> [Eviction] {
    let excess = entries.count - maxEntries
    guard excess > 0 else { return [] }
    let candidates = entries.indices
      .filter { !entries[$0].isObserved && !entries[$0].isFetching }
      .sorted { entries[$0].lastUse < entries[$1].lastUse }
    return candidates.prefix(excess).map { Eviction(index: $0, cause: .maxEntries) }
  }

  /// Every unobserved entry, as memory pressure calls for (fetching or not).
  static func trim(_ entries: [Facts]) -> [Eviction] {
    entries.indices.filter { !entries[$0].isObserved }
      .map { Eviction(index: $0, cause: .memoryPressure) }
  }
}

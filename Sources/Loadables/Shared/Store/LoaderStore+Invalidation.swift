// A store's actions on keys: mark stale (`invalidate`) and fetch again (`refresh`), for a
// family of keys or one exact key, said with one parameter (`matching:`). `remove` and
// `reset` (LoaderStore+Removal.swift) take the same parameter.

extension LoadKey {
  /// Which entries a key names in a store's actions (``LoaderStore/invalidate(_:matching:)``,
  /// ``LoaderStore/refresh(_:matching:)``, ``LoaderStore/reset(_:matching:pendingEdits:)``,
  /// ``LoaderStore/remove(_:matching:pendingEdits:)``).
  ///
  /// ```swift
  /// store.invalidate(["posts"])                   // every entry under "posts"
  /// store.invalidate(["posts"], matching: .exact) // the list, not ["posts", 42]
  /// ```
  public enum Match: Sendable, Hashable {
    /// Every entry whose key starts with the key, the key's own entry included (the
    /// default): `["posts"]` names `["posts"]` and `["posts", 42]`.
    case prefix
    /// The entry of exactly the key: `["posts"]` leaves `["posts", 42]` alone.
    case exact
  }

  /// Whether this key is named by `key` under `match`.
  func isNamed(by key: LoadKey, _ match: Match) -> Bool {
    switch match {
    case .prefix: hasPrefix(key)
    case .exact: self == key
    }
  }
}

extension LoaderStore {
  /// Marks the entries `key` names stale. Entries someone observes, and entries with a fetch
  /// running, refresh silently at once (the older fetch never stores); the others refresh
  /// when next loaded or observed.
  ///
  /// ```swift
  /// store.invalidate(["posts"])                       // the list and every post
  /// store.invalidate(["posts", 42], matching: .exact) // that post only
  /// ```
  ///
  /// - Parameters:
  ///   - key: A key or a family of keys, such as `["posts"]`.
  ///   - match: Whether `key` names every entry under it (``LoadKey/Match/prefix``, the
  ///     default) or its own entry only (``LoadKey/Match/exact``).
  /// - Returns: How many entries were marked (an entry kept apart after a
  ///   ``LoadKeyTypeMismatch`` counts).
  @discardableResult
  public func invalidate(_ key: LoadKey, matching match: LoadKey.Match = .prefix) -> Int {
    let cause: InvalidationCause =
      switch match {
      case .prefix: .invalidate(key)
      case .exact: .exactKey(key)
      }
    return invalidate(key, match, cause)
  }

  /// Marks the entries `key` names stale, for `cause`; see ``invalidate(_:matching:)``.
  @discardableResult
  func invalidate(_ key: LoadKey, _ match: LoadKey.Match, _ cause: InvalidationCause) -> Int {
    var count = 0
    for entry in entries.values where entry.key.isNamed(by: key, match) {
      entry.invalidate(cause)
      count += 1
    }
    return count
  }

  /// Marks every entry under `prefix` stale, for `cause` (an edit's `invalidating:` keys).
  func invalidate(_ prefix: LoadKey, _ cause: InvalidationCause) {
    invalidate(prefix, .prefix, cause)
  }

  /// Marks every entry stale; see ``invalidate(_:matching:)``.
  public func invalidateAll() {
    for entry in entries.values { entry.invalidate(.invalidateAll) }
  }

  /// Starts a fetch of each entry `key` names, whatever its freshness, superseding a running
  /// one, as ``SharedEntry/refresh()`` does, without waiting for it: a devtool's
  /// "refresh", or a pull to refresh over several screens' data.
  ///
  /// ```swift
  /// store.refresh(["posts", 42], matching: .exact)
  /// ```
  ///
  /// - Parameters:
  ///   - key: A key or a family of keys, such as `["posts"]`.
  ///   - match: Whether `key` names every entry under it (``LoadKey/Match/prefix``, the
  ///     default) or its own entry only (``LoadKey/Match/exact``).
  /// - Returns: How many entries were told to fetch (every value type asked for under one
  ///   key counts).
  @discardableResult
  public func refresh(_ key: LoadKey, matching match: LoadKey.Match = .prefix) -> Int {
    var count = 0
    for entry in entries.values where entry.key.isNamed(by: key, match) {
      guard let entry = entry as? any InspectableEntry else { continue }
      entry.startInspectedRefresh()
      count += 1
    }
    return count
  }
}

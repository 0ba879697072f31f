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
    message: "use refetch(_:matching: .exact), which returns a count"
  )
  @discardableResult
  public func refetchEntry(_ key: LoadKey) -> Bool {
    refetch(key, matching: .exact) > 0
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

/// Shared entries by key: one state and one fetch for every screen that shows the same
/// data, with invalidation, optimistic edits that roll back, freshness and memory limits.
///
/// Make one for the app (or one per test) and ask it for the entry of a key; every caller
/// asking for the same key gets the same ``SharedLoader``:
///
/// ```swift
/// let store = LoaderStore()
///
/// // In the feed and in the detail screen alike:
/// let post = store.loader(for: ["posts", id], staleTime: .seconds(60)) {
///   try await api.post(id)
/// }
/// await post.load()  // one fetch, however many screens ask at once
///
/// // After a change on the server:
/// store.invalidate(["posts"])  // every entry under "posts"
/// ```
///
/// | rule | what happens |
/// |---|---|
/// | two callers, one key | one entry, one fetch; a second caller joins the running fetch |
/// | ``invalidate(_:)`` | matching entries turn stale; observed ones (and any with a fetch running) refetch silently at once, others when next loaded or observed |
/// | a fetch older than an invalidation or an edit | never stores its result |
/// | ``edit(invalidating:_:perform:)`` fails | each entry goes back to what it showed without that edit, unless something newer was written since |
/// | nobody observes an entry | it leaves the store after ``graceTime`` on the clock |
/// | more than ``maxEntries`` entries | the least recently used unobserved entry leaves |
///
/// The store is the keyed cache and deduplicator for shared data; ``LoadCache`` and
/// ``Deduplicator`` stay as policies for one load site's own cache and for sharing a
/// fetch between separate states.
@MainActor
public final class LoaderStore {
  /// How long an entry nobody observes stays in the store.
  public let graceTime: Duration

  /// The most entries kept; past it, the least recently used unobserved entry leaves.
  public let maxEntries: Int

  let clock: any Clock<Duration>
  private let stopwatch: Stopwatch
  private var entries: [LoadKey: any AnySharedEntry] = [:]
  /// The one task that drops entries whose grace time has passed; `nil` while none waits.
  private var sweeper: Task<Void, Never>?
  private var uses: UInt64 = 0
  private var nextEditID: UInt64 = 0

  /// Creates an empty store.
  ///
  /// - Parameters:
  ///   - graceTime: How long an entry nobody observes stays; zero or more. Five minutes by
  ///     default.
  ///   - maxEntries: The most entries kept; at least one.
  ///   - clock: The clock every wait and age in the store is measured on; by default the
  ///     load clock in force when the store is made (``LoadClock/current``), which the
  ///     store then keeps.
  ///
  /// > Important: A negative `graceTime` or a `maxEntries` below one stops the program with
  /// > a message naming it.
  public init(
    graceTime: Duration = .seconds(300),
    maxEntries: Int = 1_000,
    clock: (any Clock<Duration>)? = nil
  ) {
    precondition(
      graceTime >= .zero, "LoaderStore: graceTime must not be negative, got \(graceTime)")
    precondition(maxEntries >= 1, "LoaderStore: maxEntries must be at least 1, got \(maxEntries)")
    self.graceTime = graceTime
    self.maxEntries = maxEntries
    let clock = clock ?? LoadClock.current
    self.clock = clock
    self.stopwatch = Stopwatch(clock)
  }

  deinit {
    sweeper?.cancel()
  }

  /// The entry for `key`, made on first use.
  ///
  /// The first caller's settings and `fetch` make the entry; later callers for the same key
  /// get that entry, and their arguments are not used.
  ///
  /// - Parameters:
  ///   - key: The entry's key.
  ///   - staleTime: How long a value stays fresh: loading it again within that time
  ///     fetches nothing. Zero (the default) means every load refetches, silently, while
  ///     the value stays on screen. Not negative.
  ///   - policy: The policy every fetch runs under (retry, timeout, limit, ...).
  ///   - triggers: What makes the entry refetch while observed: ``RefreshTrigger/every(_:)``,
  ///     ``RefreshTrigger/signals(_:)``.
  ///   - fetch: Produces the value.
  /// - Returns: The shared entry.
  ///
  /// > Important: Asking for an existing key with another value type, or a negative
  /// > `staleTime`, stops the program with a message naming the key.
  public func loader<Value: Sendable>(
    for key: LoadKey,
    staleTime: Duration = .zero,
    policy: LoadPolicy<Value> = LoadPolicy(),
    refreshing triggers: [RefreshTrigger] = [],
    fetch: @escaping @MainActor () async throws -> Value
  ) -> SharedLoader<Value> {
    precondition(
      staleTime >= .zero,
      "LoaderStore.loader(for: \(key)): staleTime must not be negative, got \(staleTime)")
    if let existing = entries[key] {
      // `SharedLoader` is final, so comparing the exact type is the cast; `as?` on the
      // existential costs a dynamic cast through the runtime at every read.
      guard ObjectIdentifier(type(of: existing)) == loaderType(Value.self) else {
        preconditionFailure(
          "LoaderStore.loader(for: \(key)): the entry holds \(type(of: existing)), "
            + "asked for SharedLoader<\(Value.self)>")
      }
      touch(existing)
      return unsafeDowncast(existing, to: SharedLoader<Value>.self)
    }
    let entry = SharedLoader(
      key: key, store: self, clock: clock, staleTime: staleTime, policy: policy,
      triggers: triggers, fetch: fetch)
    entries[key] = entry
    touch(entry)
    entry.unobservedSince = now
    scheduleSweep()
    evictIfNeeded()
    return entry
  }

  /// The identity of `SharedLoader<Value>`, remembered for the last value type asked for:
  /// this generic code is not specialised, and fetching the metadata of a generic class in it
  /// costs more than the rest of a look-up (metadata is unique, so its identity never changes).
  private var lastLoaderType: (value: ObjectIdentifier, loader: ObjectIdentifier)?

  private func loaderType<Value: Sendable>(_: Value.Type) -> ObjectIdentifier {
    let value = ObjectIdentifier(Value.self)
    if let last = lastLoaderType, last.value == value { return last.loader }
    let loader = ObjectIdentifier(SharedLoader<Value>.self)
    lastLoaderType = (value, loader)
    return loader
  }

  /// The entry for `key` if the store holds one of that value type.
  ///
  /// - Parameters:
  ///   - key: The entry's key.
  ///   - type: The entry's value type.
  /// - Returns: The entry, or `nil`.
  public func existingLoader<Value: Sendable>(
    for key: LoadKey, as type: Value.Type = Value.self
  ) -> SharedLoader<Value>? {
    entries[key] as? SharedLoader<Value>
  }

  /// The number of entries held.
  public var count: Int { entries.count }

  /// The keys of the entries held, in no particular order.
  public var keys: [LoadKey] { Array(entries.keys) }

  /// Marks every entry whose key starts with `prefix` stale. Entries someone observes, and
  /// entries with a fetch running, refetch silently at once (the older fetch never stores);
  /// the others refetch when next loaded or observed.
  ///
  /// - Parameter prefix: A key or a family of keys, such as `["posts"]`.
  public func invalidate(_ prefix: LoadKey) {
    for entry in entries.values where entry.key.hasPrefix(prefix) { entry.invalidate() }
  }

  /// Marks every entry stale; see ``invalidate(_:)``.
  public func invalidateAll() {
    for entry in entries.values { entry.invalidate() }
  }

  /// Drops every entry nobody observes (and stops its fetch), as the system's memory
  /// pressure calls for.
  public func trim() {
    for entry in entries.values where !entry.isObserved { drop(entry) }
  }

  /// Writes optimistic values into entries at once, runs `job`, and on failure takes each
  /// value back.
  ///
  /// ```swift
  /// await $saving.run {
  ///   try await store.edit(invalidating: [["posts"]]) { edit in
  ///     edit.update(post) { $0.liked = true }
  ///   } perform: {
  ///     try await api.like(postID)
  ///   }
  /// }
  /// ```
  ///
  /// What a failure restores, entry by entry:
  ///
  /// | since the edit wrote | the entry after `job` throws |
  /// |---|---|
  /// | nothing | what it showed before the edit |
  /// | a later edit, still running | that edit's value (it stays on screen) |
  /// | a later edit that succeeded | that edit's value |
  /// | an earlier edit that then failed too | what it showed before both |
  /// | a fetch that finished, or any other write | that newer state: it wins |
  ///
  /// A fetch that was running when the edit wrote is stopped, so its older answer never
  /// lands; after success the keys in `invalidating` are invalidated, so observed entries
  /// refetch the server's truth. A cancelled `job` rolls back like a failed one.
  ///
  /// - Parameters:
  ///   - keys: Prefixes to invalidate once `job` succeeds.
  ///   - changes: Writes the optimistic values through ``SharedEdit``.
  ///   - job: The work that makes the change real, such as a request to the server.
  /// - Returns: What `job` returned.
  /// - Throws: What `job` threw, after rolling back.
  @discardableResult
  public func edit<Result>(
    invalidating keys: [LoadKey] = [],
    _ changes: (inout SharedEdit) -> Void,
    perform job: () async throws -> Result
  ) async throws -> Result {
    nextEditID += 1
    var edit = SharedEdit(id: nextEditID)
    changes(&edit)
    let touched = edit.entries
    do {
      let result = try await job()
      for entry in touched { entry.commitEdit(edit.id) }
      for key in keys { invalidate(key) }
      return result
    } catch {
      for entry in touched { entry.rollBackEdit(edit.id) }
      throw error
    }
  }

  // MARK: - Bookkeeping

  /// The time on the store's clock since the store was made.
  var now: Duration { stopwatch.elapsed }

  /// Makes sure the sweeper runs: one task for the whole store, sleeping on the clock until
  /// the next unobserved entry's grace time is up (one sleeper, however many entries).
  func scheduleSweep() {
    guard sweeper == nil else { return }
    // Holds the store weakly, also while it sleeps: a store nobody keeps goes, and its
    // `deinit` cancels the sweeper.
    sweeper = Task { @MainActor [weak self, clock] in
      while true {
        guard let wait = self?.dropExpiredEntries() else { break }
        do { try await clock.sleep(for: wait) } catch { break }
      }
      self?.sweeper = nil
    }
  }

  /// Drops every entry unobserved for `graceTime` or more; returns how long until the next
  /// one's grace time is up, or `nil` when no entry waits.
  private func dropExpiredEntries() -> Duration? {
    let now = self.now
    var next: Duration?
    var expired: [any AnySharedEntry] = []
    for entry in entries.values {
      guard let since = entry.unobservedSince else { continue }
      let deadline = since + graceTime
      if deadline <= now {
        expired.append(entry)
      } else {
        next = min(next ?? deadline, deadline)
      }
    }
    for entry in expired { drop(entry) }
    return next.map { $0 - now }
  }

  /// Counts a use of `entry`, for least-recently-used eviction.
  func touch(_ entry: any AnySharedEntry) {
    uses &+= 1
    entry.lastUse = uses
  }

  /// Removes `entry`, if it is still the one held for its key, and stops its work.
  func drop(_ entry: any AnySharedEntry) {
    guard let held = entries[entry.key], held === entry else { return }
    entries[entry.key] = nil
    entry.shutDown()
  }

  private func evictIfNeeded() {
    while entries.count > maxEntries {
      let candidates = entries.values.filter { !$0.isObserved }
      guard let oldest = candidates.min(by: { $0.lastUse < $1.lastUse }) else { return }
      drop(oldest)
    }
  }
}

/// The optimistic writes of one ``LoaderStore/edit(invalidating:_:perform:)``.
@MainActor
public struct SharedEdit {
  let id: UInt64
  private(set) var entries: [any AnySharedEntry] = []

  init(id: UInt64) { self.id = id }

  /// Shows `value` in `entry` at once.
  ///
  /// - Parameters:
  ///   - entry: The entry to write.
  ///   - value: The optimistic value.
  public mutating func set<Value: Sendable>(_ entry: SharedLoader<Value>, to value: Value) {
    entry.applyEdit(id, .loaded(value))
    if !entries.contains(where: { $0 === entry }) { entries.append(entry) }
  }

  /// Changes the loaded value of `entry` in place; does nothing when it holds no value.
  ///
  /// - Parameters:
  ///   - entry: The entry to write.
  ///   - change: Edits a copy of the value.
  public mutating func update<Value: Sendable>(
    _ entry: SharedLoader<Value>, _ change: (inout Value) -> Void
  ) {
    guard var value = entry.state.data else { return }
    change(&value)
    set(entry, to: value)
  }

  /// Changes the loaded value of every entry under `prefix` whose value is a `Value`.
  ///
  /// - Parameters:
  ///   - prefix: A key or family of keys.
  ///   - store: The store holding the entries.
  ///   - type: The value type of the entries to change.
  ///   - change: Edits a copy of each value.
  public mutating func update<Value: Sendable>(
    matching prefix: LoadKey, in store: LoaderStore, as type: Value.Type,
    _ change: (inout Value) -> Void
  ) {
    for key in store.keys where key.hasPrefix(prefix) {
      guard let entry = store.existingLoader(for: key, as: Value.self) else { continue }
      update(entry, change)
    }
  }
}

public import Foundation

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
/// | ``invalidate(_:matching:)`` | matching entries turn stale; observed ones (and any with a fetch running) refresh silently at once, others when next loaded or observed |
/// | a fetch older than an invalidation or an edit | never stores its result |
/// | ``edit(invalidating:_:perform:)`` fails | each entry shows its current base with the other pending edits, without that edit |
/// | nobody observes an entry | it leaves the store after ``graceTime`` on the clock, once no fetch of it runs |
/// | more than ``maxEntries`` entries | the least recently used unobserved entry with no fetch running leaves |
///
/// The store is the keyed cache and deduplicator for shared data; ``LoadCache`` and
/// ``Deduplicator`` stay as policies for one load site's own cache and for sharing a
/// fetch between separate states.
///
/// This file is the registry (entries by key, first caller's settings, invalidation); making
/// and registering an entry is in `LoaderStore+Registration.swift`, the grace sweeper, the
/// least-recently-used bound and `trim` are in `LoaderStore+Eviction.swift`, and the edit
/// transaction in `LoaderStore+Editing.swift`.
@MainActor
public final class LoaderStore {
  /// How long an entry nobody observes stays in the store.
  ///
  /// An entry followed by a key path (`load(\.post, from: entry)`) is observed while the
  /// instance lives. Swift cannot tell the store when an object dies,
  /// so the store checks: whenever it is asked whether an entry is observed, and at least
  /// once per grace time (once a second when the grace time is zero). The grace time counts
  /// from the moment the instance was found gone.
  public let graceTime: Duration

  /// The most entries kept; past it, the least recently used unobserved entry leaves.
  public let maxEntries: Int

  let clock: any Clock<Duration>
  /// Where entries and queued edits are kept between launches; `nil` keeps them in memory.
  public let persistence: StorePersistence?
  /// Whether the network is reachable; `nil` assumes it always is.
  public let connectivity: Connectivity?
  /// The one network truth every wait, trigger and the inspector of this store follow:
  /// ``connectivity``, or for a store made without one, a source of the store's own that
  /// says online unless the store simulates offline (``isSimulatingOffline``). Made at its
  /// first use: a launch that only shows saved values asks nothing of the network.
  lazy var network: Connectivity = connectivity ?? Connectivity(isOnline: true)
  /// The wall-clock time when the store was made; see ``wallDate(at:)``.
  let startDate: Date
  /// Saves and restores the entries that persist; `nil` without ``persistence``.
  let persister: EntryPersister?
  /// Reports persistence events; see ``onPersistenceEvent``.
  public var onPersistenceEvent: (@MainActor (PersistenceEvent) -> Void)?
  /// The latest persistence events, oldest first; the last 100 are kept.
  public internal(set) var recentPersistenceEvents: [PersistenceEvent] = []
  private let stopwatch: Stopwatch
  var entries: [LoadKey: any AnySharedEntry] = [:]
  /// The one task that drops entries whose grace time has passed; `nil` while none waits.
  var sweeper: Task<Void, Never>?
  /// The use counter behind least-recently-used eviction.
  var uses: UInt64 = 0
  /// The id of the latest edit transaction.
  var nextEditID: UInt64 = 0
  /// The definition type whose entry is being made, while someone listens to events: its
  /// ``LoadEventKind/entryMade`` event names it.
  var makingDefinition: Any.Type?
  /// The item types kept in sync across entries; `nil` until ``keepInSync(_:)``.
  var itemSync: ItemSyncRegistry?
  /// The settings every entry gets unless its caller states its own; see ``LoadDefinition``.
  public let defaults: LoadDefaults
  /// Reports mistakes in how the app uses the store (a key asked for with two value types,
  /// a setting a later caller states that the entry was not made with) as they happen.
  public var onDiagnostic: (@MainActor (StoreDiagnostic) -> Void)?
  /// The latest diagnostics, oldest first; the last 100 are kept.
  public internal(set) var recentDiagnostics: [StoreDiagnostic] = []
  /// Called after a ``LoadKeyTypeMismatch`` is reported. By default it is
  /// `assertionFailure`, which stops a debug build at the mistake and does nothing in a
  /// release build; a test that makes a mismatch on purpose replaces it.
  public var typeMismatchAssertion: @MainActor (LoadKeyTypeMismatch) -> Void = { mismatch in
    assertionFailure(mismatch.description)
  }
  /// The settings already reported as ignored, by key and setting name: each is reported
  /// once.
  var reportedIgnored: Set<LoadKey> = []
  /// The edits queued to be sent, restored from ``persistence`` when the store is made; see
  /// ``Outbox``, ``register(_:backoff:handler:)`` and ``edit(_:delivery:)``.
  public let outbox: Outbox
  /// How many entries fetch now; see ``isRunning`` (`LoaderStore+Activity.swift`).
  let activity = StoreActivity()
  /// The identity of `SharedLoader<Value>`, remembered for the last value type asked for:
  /// this generic code is not specialised, and fetching the metadata of a generic class in it
  /// costs more than the rest of a look-up (metadata is unique, so its identity never changes).
  var lastLoaderType: (value: ObjectIdentifier, loader: ObjectIdentifier)?

  /// The settings the last entry was made with, shared with the next made with the same
  /// (see ``entrySettings(_:triggers:)``).
  var lastEntrySettings: EntrySettings?

  /// The engine the last value entry was made with, shared with the next made with the same
  /// plain policy (see ``valueEngine(policy:)``).
  var lastValueEngine: AnyObject?

  /// Creates an empty store.
  ///
  /// - Parameters:
  ///   - graceTime: How long an entry nobody observes stays; zero or more. Five minutes by
  ///     default.
  ///   - maxEntries: The most entries kept; at least one.
  ///   - clock: The clock every wait and age in the store is measured on; by default the
  ///     load clock in force when the store is made (``LoadClock/current``), which the
  ///     store then keeps.
  ///   - persistence: Where entries whose value is `Codable` are kept between launches, and
  ///     the queued edits of the outbox; `nil` (the default) keeps everything in memory.
  ///   - connectivity: Whether the network is reachable: fetches wait for it instead of
  ///     failing, polling skips while offline, the outbox sends when online and
  ///     ``RefreshTrigger/networkReconnected`` refreshes when it comes back. `nil` (the
  ///     default) assumes the network is always there.
  ///   - defaults: The settings every entry gets unless its caller states its own: stale
  ///     time, default retry, waiting for the network, refresh triggers and persistence.
  ///   - startDate: The wall-clock time when the store is made. Saved values' ages and
  ///     ``SharedEntry/fetchedAt`` are this date plus the time on the store's `clock`, so a
  ///     test with a `ManualClock` and a fixed date gets exact ages. Now, by default.
  ///
  /// > Important: A negative `graceTime`, a `maxEntries` below one, or defaults out of range
  /// > (see ``LoadDefaults``) stop the program with a message naming them.
  public init(
    graceTime: Duration = .seconds(300),
    maxEntries: Int = 1_000,
    clock: (any Clock<Duration>)? = nil,
    persistence: StorePersistence? = nil,
    connectivity: Connectivity? = nil,
    defaults: LoadDefaults = LoadDefaults(),
    startDate: Date = Date()
  ) {
    precondition(
      graceTime >= .zero, "LoaderStore: graceTime must not be negative, got \(graceTime)")
    precondition(maxEntries >= 1, "LoaderStore: maxEntries must be at least 1, got \(maxEntries)")
    defaults.validate()
    self.defaults = defaults
    self.graceTime = graceTime
    self.maxEntries = maxEntries
    let clock = clock ?? LoadClock.current
    self.clock = clock
    self.stopwatch = Stopwatch(clock)
    self.persistence = persistence
    self.connectivity = connectivity
    self.startDate = startDate
    if let persistence {
      let persister = EntryPersister(persistence)
      self.persister = persister
      outbox = Outbox(persistence: persistence)
      outbox.attach(to: self)
      persister.launched(in: self)
    } else {
      persister = nil
      outbox = Outbox(persistence: nil)
      outbox.attach(to: self)
    }
  }

  deinit {
    sweeper?.cancel()
  }

  /// The entry for `key`, made on first use.
  ///
  /// The first caller's settings and `fetch` make the entry; later callers for the same key
  /// get that entry, and their arguments are not used. A setting left `nil` is the store's
  /// (``defaults``); the entry's are its ``SharedEntry/settings``. To describe a kind of
  /// entry once, write a ``LoadDefinition`` and use ``loader(for:)``.
  ///
  /// - Parameters:
  ///   - key: The entry's key.
  ///   - staleTime: How long a value stays fresh: loading it again within that time
  ///     fetches nothing. Zero means every load refreshes, silently, while the value stays
  ///     on screen. Not negative. `nil` (the default) for ``LoadDefaults/staleTime``.
  ///   - policy: The policy every fetch runs under (retry, timeout, limit, ...); `nil` (the
  ///     default) for the store's default retry (``LoadDefaults/maxAttempts``).
  ///   - waitsForNetwork: Whether the fetches wait while the store's ``connectivity`` says
  ///     offline (``LoadPolicy/waitsForNetwork(_:)-type.method`` added to `policy`); `nil`
  ///     (the default) for ``LoadDefaults/waitsForNetwork``, which is `true` unless the
  ///     store says otherwise. Pass `false` for an entry that does not need the network (a
  ///     local database). Nothing waits in a store made without a connectivity.
  ///   - triggers: What makes the entry refresh while observed: ``RefreshTrigger/every(_:)``,
  ///     ``RefreshTrigger/signals(_:)``; `nil` (the default) for
  ///     ``LoadDefaults/refreshTriggers``.
  ///   - persisted: Whether the entry is saved between launches when the store has a
  ///     ``persistence`` and the value is `Codable`; `nil` (the default) for
  ///     ``LoadDefaults/isPersisted``. A value that is not `Codable` stays in memory whatever
  ///     this says.
  ///   - fetch: Produces the value.
  /// - Returns: The shared entry.
  ///
  /// ## Saved between launches
  ///
  /// With a ``persistence``, an entry whose value is `Codable` is saved by the cause of
  /// each write:
  ///
  /// | the entry's write | saved |
  /// |---|---|
  /// | a fetch returned a value | the value, with the time it was fetched |
  /// | an edit committed | the committed value (without the edits still pending) |
  /// | a fetch failed, `.loading`, an optimistic edit, a rollback | nothing |
  /// | `reset()` | the saved record is removed |
  ///
  /// When the entry is made in a later launch, its saved record is read (one small file)
  /// and decoded: the value shows at once as `.loaded`, with ``SharedEntry/fetchedAt`` from
  /// the earlier launch, and it is as fresh as its age says. Older than `staleTime`, it is
  /// stale, and the next load or observer refreshes it silently with the value on screen.
  /// A record older than the persistence's `maxAge`, saved under another `version`,
  /// unreadable, or whose value no longer decodes is removed and reported
  /// (``onPersistenceEvent``), and the entry loads as if nothing was saved. Writes run off
  /// the main actor, in order; ``flushPersistence()`` waits for them. Nothing here stops the
  /// app: a key part that cannot be saved stably, a read-only directory or a full disk is
  /// reported, and the entry works in memory.
  ///
  /// <!-- compile: context Shared -->
  /// ```swift
  /// let store = LoaderStore(persistence: .directory(caches, version: "42"))
  /// let feed = store.loader(for: ["feed"], staleTime: .seconds(300)) { try await api.feed() }
  /// // At the next launch `feed.state` is the saved feed at once, and a load refreshes it
  /// // once it is older than five minutes.
  /// ```
  ///
  /// ## Mistakes
  ///
  /// Asking for an existing key with another value type is a bug in the app's keys: the
  /// store reports it (``StoreDiagnostic/typeMismatch(_:)``), calls
  /// ``typeMismatchAssertion`` (which stops a debug build), and keeps the two apart: the
  /// caller gets an entry of its own for that type, shared with every caller asking for the
  /// key with that type, and never persisted. A caller that finds its key's entry already
  /// made (a key-based call, a definition of another type, another instance of the same
  /// definition type) gets that entry; each setting it states that differs from the entry's
  /// is not used, and is reported once per key and setting as
  /// ``StoreDiagnostic/settingsIgnored(key:setting:used:asked:)``.
  ///
  /// > Important: A negative `staleTime` stops the program with a message naming the key
  /// > when it makes the entry (a later caller's settings are not used, nor checked).
  public func loader<Value: Sendable>(
    for key: LoadKey,
    staleTime: Duration? = nil,
    policy: LoadPolicy<Value>? = nil,
    waitsForNetwork: Bool? = nil,
    refreshing triggers: [RefreshTrigger]? = nil,
    persisted: Bool? = nil,
    fetch: @escaping @MainActor () async throws -> Value
  ) -> SharedLoader<Value> {
    if let existing = entries[key] {
      // `SharedEntry` is final, so comparing the exact type is the cast; `as?` on the
      // existential costs a dynamic cast through the runtime at every read.
      guard ObjectIdentifier(type(of: existing)) == loaderType(Value.self) else {
        return apartEntry(for: key, asked: Value.self, holding: existing.valueType) {
          makeEntry(
            for: key, registryKey: $0, staleTime: staleTime, policy: policy,
            waitsForNetwork: waitsForNetwork, triggers: triggers, persisted: false, fetch: fetch)
        }
      }
      touch(existing)
      let entry = unsafeDowncast(existing, to: SharedLoader<Value>.self)
      // A later caller's settings are compared, not used; a difference is reported once
      // (the one rule, `noteIgnored`, written out so a read that states nothing compares
      // nothing).
      if staleTime != nil || waitsForNetwork != nil || persisted != nil {
        noteIgnored(
          key, made: entry.requested, staleTime: staleTime, waitsForNetwork: waitsForNetwork,
          persisted: persisted)
      }
      return entry
    }
    return makeEntry(
      for: key, registryKey: key, staleTime: staleTime, policy: policy,
      waitsForNetwork: waitsForNetwork, triggers: triggers, persisted: persisted, fetch: fetch)
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
    if let entry = entries[key] as? SharedLoader<Value> { return entry }
    return entries[key.appending(ApartTag(Value.self))] as? SharedLoader<Value>
  }

  /// The number of entries held (an entry kept apart after a ``LoadKeyTypeMismatch``
  /// counts).
  public var count: Int { entries.count }

  /// The keys of the entries held, in no particular order. The key of an entry kept apart
  /// after a ``LoadKeyTypeMismatch`` appears once for each value type.
  public var keys: [LoadKey] { entries.values.map(\.key) }

  /// The time on the store's clock since the store was made.
  var now: Duration { stopwatch.elapsed }
}

public import Foundation

/// The shared entry for one key of a ``LoaderStore``: every screen asking for the key gets
/// it, so they all show one state and cause one fetch.
///
/// It is generic over the state it holds. A ``SharedLoader`` (an entry of a
/// ``LoadableState``) comes from
/// ``LoaderStore/loader(for:staleTime:policy:waitsForNetwork:refreshing:persisted:fetch:)``;
/// it conforms to ``Loader``, so code written against `Loader` takes it (`LoadingView`,
/// `states`, `value()`), and the `@Loadable` wrapper and the key-path form can follow it
/// (`$post.load(from: entry)`, `load(\.post, from: entry)`). The store's rules below hold for
/// every state.
///
/// What differs from a ``BaseLoader``:
///
/// | call | a shared entry |
/// |---|---|
/// | ``load(silently:)`` while a fetch runs | joins it: one fetch for every caller |
/// | ``load(silently:)`` with a fresh value | returns it; fetches nothing |
/// | ``load(silently:)`` with a stale value | keeps it on screen and refreshes silently |
/// | cancelling a caller of `load` | ends that caller's wait; the fetch goes on for the others |
/// | ``refresh()`` | starts a new fetch whatever the freshness, superseding a running one |
///
/// An entry is *observed* while an ``observe()`` token, a `states` subscription or a
/// following wrapper or key path is alive. Observed entries refresh when invalidated and
/// run their ``RefreshTrigger``s; an entry nobody observes is dropped from its store after
/// the store's grace time (the object keeps working for whoever holds it, but is no longer
/// shared).
///
/// The state it shows is its last fetched state with the optimistic edits still pending
/// laid over it (see ``LoaderStore/edit(invalidating:_:perform:)``).
///
/// The two type parameters name one thing twice: `Value` is always `State.Value` (a
/// recursive constraint such as `State == LoadableState<Value>` cannot be written on the
/// class). Spell an entry's type with its alias, ``SharedLoader``.
@MainActor @dynamicMemberLookup
public final class SharedEntry<Value: Sendable, State: SharedEntryState & Sendable>
where State.Value == Value {
  /// The entry's key.
  public let key: LoadKey
  // The flags next, in the bytes the key's layout leaves free before the next word.
  /// Whether the followers' watchers has any: asked at every write, without touching the
  /// generic array.
  @exclusivity(unchecked) var isWatched = false
  /// Whether the entry is kept apart after a ``LoadKeyTypeMismatch`` (see ``registryKey``).
  let isApart: Bool
  /// Whether a definition (a ``LoadDefinition``, a ``PagedLoadDefinition``) made the entry:
  /// its placeholder showed then, and no later reader shows one.
  @exclusivity(unchecked) var isDefined = false
  /// The key its store holds it under: ``key``, or for an entry kept apart after a
  /// ``LoadKeyTypeMismatch`` that key tagged with the type asked for (the type a mismatch
  /// names, ``valueType``). Made when asked, so a store's entries hold their key once.
  var registryKey: LoadKey { isApart ? key.appending(ApartTag(engine.valueType)) : key }
  /// What the entry was made with: its maker's settings, its triggers, its store and its
  /// store's clock.
  let madeWith: EntrySettings
  /// The settings its maker asked for (the store's defaults filled in): what ``settings``
  /// shows, and what a later caller's settings are compared with.
  var requested: RequestedSettings { madeWith.requested }

  // The entry runs what its book decides: the book keeps freshness, observers and edits;
  // this class owns the tasks (fetch, stale timer, triggers) and the observers' lives.
  // The bookkeeping properties are `@exclusivity(unchecked)`, as the engine's slots are:
  // every access is on the main actor, in synchronous code that calls out to nothing that
  // touches them. The book itself stays checked: laying an edit over runs the app's
  // `update` closures inside its accessors.
  let slot: EntryStateStorage<Value, State>
  var book: EntryBook<State>
  /// The engine's operations on ``slot`` for this entry's state, and its fetch.
  let engine: EntryEngine<Value, State>
  var triggers: [RefreshTrigger] { madeWith.triggers }
  /// The entry's store, held weakly by its settings, which the store made. Inlined, so that
  /// reading it costs the weak load alone, as a weak property of the entry's own would.
  @inline(__always) var store: LoaderStore? { madeWith.store }
  var clock: any Clock<Duration> { madeWith.clock }

  /// The observers, the watchers, the stale timer and the triggers; made for the first
  /// observer or watcher (see ``followers``).
  @exclusivity(unchecked) var followersIfMade: EntryFollowers<State>?

  /// A store's use counter at this entry's last use: the least recently used goes first.
  @exclusivity(unchecked) var lastUse: UInt64 = 0

  /// The priority scope of the running fetch when it started below the highest priority, for
  /// a joining load to raise; see `SharedEntry+Prefetch.swift`. Kept in the slot's activity,
  /// made for it: most fetches start at the highest priority and need none.
  var fetchPriority: LoadPriorityScope? {
    get { slot.activity?.fetchPriority }
    set {
      if let newValue {
        slot.activityObject().fetchPriority = newValue
      } else {
        slot.activity?.fetchPriority = nil
      }
    }
  }

  /// The entry's link to the items its store keeps in sync, when its value is made of them;
  /// see `EntryItemLink.swift`.
  @exclusivity(unchecked) var itemLink: EntryItemLinkBase<Value, State>?

  /// The key of the record the store's persistence saves what the entry writes under; `nil`
  /// when it is not saved. How its state is saved is the persister's, for each state type
  /// (`EntrySaving`).
  @exclusivity(unchecked) var savedKey: PersistentKey?

  /// Makes the entry of `key`, whose fetches `engine` runs (with `fetch`, the app's closure,
  /// for a value's entry); it shows the state's reset state until something is written.
  init(
    key: LoadKey,
    registryKey: LoadKey? = nil,
    now: Duration,
    settings: EntrySettings,
    engine: EntryEngine<Value, State>,
    fetch: (@MainActor () async throws -> Value)? = nil
  ) where State: EngineState {
    self.key = key
    if let registryKey, registryKey != key {
      assert(
        registryKey == key.appending(ApartTag(engine.valueType)),
        "an entry is kept apart under its key tagged with its type")
      isApart = true
    } else {
      isApart = false
    }
    self.madeWith = settings
    self.engine = engine
    self.book = EntryBook(staleTime: settings.requested.staleTime, at: now)
    self.slot = EntryStateStorage(.resetState, fetch: fetch)
  }

  /// The engine's slot, pointed at this entry first: every call that runs the engine on the
  /// slot (a fetch, a cancel, a reset, a stop) hands it this, so the engine's writes reach
  /// the entry, and an entry the engine never ran on holds no weak reference to itself.
  @inline(__always) var engineSlot: EntryStateStorage<Value, State> {
    if !slot.isLinked { slot.link(self) }
    return slot
  }

  /// The time on the store's clock; zero for an entry without a store.
  var now: Duration { store?.now ?? .zero }

  /// Counts a use of the entry in its store and returns ``now``: the store is held weakly,
  /// and loading it once rather than twice spares a load the weak load and the slow
  /// reference counting that comes with it.
  private func touchedNow() -> Duration {
    guard let store else { return .zero }
    store.touch(self)
    return store.now
  }

  // MARK: - Loading

  /// The current state. Observable.
  public var state: State { slot.state }

  /// Every state, the current one first, then each one written, in order. A subscription
  /// counts as an observer of the entry while it lasts.
  public var states: StateStream<State> {
    let token = observe()
    return StateStream(current: slot.storage, holding: token) { yield in
      let id = self.addWatcher { event in
        if !event.changesNothing { yield(event.state) }
      }
      return { [weak self] in self?.removeWatcher(id) }
    }
  }

  /// The entry's status and controls: the ``LoadHandle`` every form hands out, what
  /// `StateRecorder` and the other testing tools take. Its ``LoadHandle/cancel()`` and
  /// ``LoadHandle/reset()`` are the entry's own ``cancel()`` and ``reset()``, and its
  /// ``LoadHandle/states`` counts as an observer, as ``states`` does.
  ///
  /// <!-- compile: context Shared -->
  /// ```swift
  /// let recorder = StateRecorder(post.handle)
  /// ```
  public var handle: LoadHandle<State> { LoadHandle(self) }

  /// Every member of the entry's ``handle``, read on the entry: `entry.isRunning`,
  /// `entry.progress`, `entry.attempt`, `entry.isWaitingForNetwork`, `entry.refreshError`,
  /// and a paged entry's `isRefreshing`.
  ///
  /// <!-- compile: context StoreView -->
  /// ```swift
  /// if entry.isWaitingForNetwork { Label("Waiting for the network", systemImage: "wifi.slash") }
  /// ```
  ///
  /// - Parameter member: The handle's member.
  /// - Returns: Its value now.
  public subscript<Member>(dynamicMember member: KeyPath<LoadHandle<State>, Member>) -> Member {
    handle[keyPath: member]
  }

  /// Whether the value is older than the entry's stale time, or was invalidated (or there
  /// is no value yet): the next load refreshes it, silently when there is a value to keep.
  ///
  /// Observable: while the entry is observed, a timer on the store's clock tells observers
  /// the moment the value turns stale. Read without observers, it is computed on the spot.
  public var isStale: Bool {
    slot.observeStaleness()
    return book.facts.isStale(at: now)
  }

  /// When the value on screen was fetched, by the wall clock: for a value restored from the
  /// store's ``LoaderStore/persistence``, when it was fetched in an earlier launch. `nil`
  /// before any value was fetched, and for an entry without a store. Observable.
  ///
  /// <!-- compile: context StoreView -->
  /// ```swift
  /// if let fetchedAt = feed.fetchedAt {
  ///   Text("Updated \(fetchedAt, style: .relative) ago")
  /// }
  /// ```
  ///
  /// An optimistic edit, or a commit, does not change it: it dates the last fetched value.
  public var fetchedAt: Date? {
    guard let fetched = slot.fetchedAt, let store else { return nil }
    return store.wallDate(at: fetched)
  }

  // In the class body, not beside the rest of the observation (`SharedEntry+Observation.swift`):
  // a member of an extension is listed in the public API baseline with the class's
  // constraints, so moving it would change the baseline's line for it.
  /// How many observation tokens, `states` subscriptions and followers are alive. A key path
  /// whose instance is gone no longer counts.
  public var observerCount: Int {
    pruneObservers()
    return followersIfMade?.observers.count ?? 0
  }

  /// The entry's followers, made now if it has none yet.
  var followers: EntryFollowers<State> {
    if let followersIfMade { return followersIfMade }
    let made = EntryFollowers<State>()
    followersIfMade = made
    return made
  }

  /// Loads unless the value is fresh; joins a fetch that is already running.
  ///
  /// - A fetch runs: waits for it (and anything that supersedes it) to end.
  /// - The value is fresh: returns it; nothing is fetched.
  /// - The value is stale: keeps it on screen and refreshes silently.
  /// - Otherwise: writes `.loading` (unless `silently`) and fetches.
  ///
  /// Cancelling the caller ends only its wait; the fetch goes on, and its result is stored
  /// for every observer. Call ``cancel()`` to stop the fetch itself.
  ///
  /// - Parameter silently: When `true`, `.loading` is not written.
  /// - Returns: The state when the call returns.
  @inlinable @discardableResult
  public func load(silently: Bool) async -> State {
    // Inlinable, around synchronous steps: a fresh read, the common case, then returns
    // without an async frame of its own or a hop check of the call.
    if beginLoad(silently: silently) { return storedState }
    await untilIdle()
    return storedState
  }

  /// Loads, showing `.loading` unless the value is fresh; see ``load(silently:)``.
  ///
  /// ```swift
  /// let posts = store.loader(for: ["posts"], staleTime: .seconds(30)) { try await api.posts() }
  /// let state = await posts.load()
  /// ```
  ///
  /// - Returns: The state when the call returns.
  @inlinable @discardableResult
  public func load() async -> State {
    await load(silently: false)
  }

  /// Starts a load and returns at once, without waiting for it: ``load(silently:)``'s
  /// first step (a fresh value fetches nothing; a running fetch is joined; a stale value
  /// is refreshed silently), taken before this returns. The same word starts a load
  /// without waiting in every form.
  ///
  /// <!-- compile: context StoreView -->
  /// ```swift
  /// .onAppear { post.start() }
  /// ```
  ///
  /// The returned task ends when no fetch runs; cancelling it ends only that wait, as
  /// cancelling a caller of `load` does. Call ``cancel()`` to stop the fetch itself.
  ///
  /// - Parameter silently: When `true`, `.loading` is not written.
  /// - Returns: The task waiting for the fetch.
  @discardableResult
  public func start(silently: Bool = false) -> Task<Void, Never> {
    if beginLoad(silently: silently) { return Task {} }
    return Task { await self.untilIdle() }
  }

  /// The first, synchronous step of ``load(silently:)``: counts the use and starts a fetch
  /// if one is due. Returns `true` when the value is fresh and nothing is left to wait for.
  @usableFromInline
  func beginLoad(silently: Bool) -> Bool {
    if slot.isBusy {
      store?.touch(self)
      raiseFetchPriority()
      return false
    }
    // A fresh value, the common case, returns at once: asked of the book's facts, which
    // holds no generic value, so nothing is copied and no effect is built.
    let now = touchedNow()
    guard book.facts.loadFetches(isFetching: false, at: now) else { return true }
    perform(book.load(silently: silently, isFetching: false, at: now))
    return false
  }

  /// Waits until no fetch runs.
  @usableFromInline
  func untilIdle() async { await slot.untilIdle() }

  /// The current state, read without registering an observer.
  @usableFromInline
  var storedState: State { slot.storage }

  /// Fetches now, whatever the freshness: supersedes a running fetch, keeps a loaded value
  /// on screen, and returns when the fetch ends.
  ///
  /// - Returns: The state when the call returns.
  @discardableResult
  public func refresh() async -> State {
    startRefresh()
    await slot.untilIdle()
    return slot.storage
  }

  /// Counts a use and starts a fetch whatever the freshness; see ``refresh()``.
  func startRefresh() {
    store?.touch(self)
    perform(book.refresh())
  }

  /// Whether the running fetch is a paged list's next or previous page.
  var isLoadingAddedPage: Bool { slot.isBusy && engine.isAddedPage(slot.generation) }

  /// Cancels the running fetch and brings back the state it replaced.
  public func cancel() {
    slot.nextCause = isLoadingAddedPage ? .nextPage : .restored
    engine.cancel(engineSlot)
    slot.nextCause = nil
  }

  /// Cancels the running fetch, discards the pending edits and writes the reset state
  /// (`.absent`).
  public func reset() {
    engine.reset(engineSlot)
    perform(book.discardEdits(at: now))
  }
}

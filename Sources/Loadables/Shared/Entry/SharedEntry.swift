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
  /// The key its store holds it under: ``key``, or for an entry kept apart after a
  /// ``LoadKeyTypeMismatch`` that key tagged with the value type.
  let registryKey: LoadKey
  /// The settings its maker asked for (the store's defaults filled in): what ``settings``
  /// shows, and what a later caller's settings are compared with.
  let requested: RequestedSettings
  /// The type of the ``LoadDefinition`` that made the entry; `nil` for a key-based call.
  /// A definition of another type reading the entry has its settings compared.
  var definition: ObjectIdentifier?

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
  let triggers: [RefreshTrigger]
  weak var store: LoaderStore?
  private let clock: any Clock<Duration>
  let status = EntryStatus()

  /// The observers alive now, by id.
  @exclusivity(unchecked) private var observers: [Int: Observer] = [:]
  /// How many of ``observers`` are bound to an owner's life (key-path followers).
  @exclusivity(unchecked) private var boundObservers = 0
  @exclusivity(unchecked) private var nextObserverID = 0
  @exclusivity(unchecked) private var staleTimer: Task<Void, Never>?
  @exclusivity(unchecked) private var runningTriggers: [RunningTrigger] = []
  /// Who sees every write, with its cause: followers and `states` subscriptions.
  @exclusivity(unchecked) private var watchers:
    [(
      id: Int, includesCommits: Bool,
      callback: @MainActor (EntryEvent<State>) -> Void
    )] = []
  /// Whether ``watchers`` has any: asked at every write, without touching the generic array.
  @exclusivity(unchecked) private var isWatched = false
  @exclusivity(unchecked) private var nextWatcherID = 0

  /// A store's use counter at this entry's last use: the least recently used goes first.
  @exclusivity(unchecked) var lastUse: UInt64 = 0

  /// The priority scope of the running fetch when it started below the highest priority, for
  /// a joining load to raise; see `SharedEntry+Prefetch.swift`.
  @exclusivity(unchecked) var fetchPriority: LoadPriorityScope?

  /// The entry's link to the items its store keeps in sync, when its value is made of them;
  /// see `EntryItemLink.swift`.
  @exclusivity(unchecked) var itemLink: EntryItemLinkBase<Value, State>?

  /// Makes the entry of `key`, whose fetches `engine` runs; it shows the state's reset
  /// state until something is written.
  init(
    key: LoadKey,
    registryKey: LoadKey? = nil,
    store: LoaderStore?,
    clock: any Clock<Duration>,
    now: Duration,
    staleTime: Duration,
    triggers: [RefreshTrigger],
    requested: RequestedSettings,
    engine: EntryEngine<Value, State>
  ) where State: EngineState {
    self.key = key
    self.registryKey = registryKey ?? key
    self.requested = requested
    self.store = store
    self.clock = clock
    self.triggers = triggers
    self.engine = engine
    self.book = EntryBook(staleTime: staleTime, at: now)
    self.slot = EntryStateStorage(.resetState)
    slot.entry = self
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
    _ = status.isStale  // registers the observer, if any
    return book.tally.isStale(at: now)
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
    guard let fetched = status.fetchedAt, let store else { return nil }
    return store.wallDate(at: fetched)
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
    // A fresh value, the common case, returns at once: asked of the book's tally, which
    // holds no generic value, so nothing is copied and no effect is built.
    let now = touchedNow()
    guard book.tally.loadFetches(isFetching: false, at: now) else { return true }
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

  /// Cancels the running fetch and brings back the state it replaced.
  public func cancel() {
    slot.nextCause = slot.isLoadingAddedPage ? .nextPage : .restored
    engine.cancel(slot)
    slot.nextCause = nil
  }

  /// Cancels the running fetch, discards the pending edits and writes the reset state
  /// (`.absent`).
  public func reset() {
    engine.reset(slot)
    perform(book.discardEdits(at: now))
  }

  // MARK: - Observation

  /// Marks the entry as observed until the returned token ends (``SharedObservation/end()``,
  /// or when the token is released).
  ///
  /// While observed, the entry refreshes when invalidated and runs its refresh triggers.
  /// When observation starts on a stale value, the entry refreshes it silently.
  ///
  /// - Returns: The token that keeps the entry observed.
  public func observe() -> SharedObservation {
    addObserver(Observer(owner: nil, isBound: false, ownerGone: nil))
  }

  /// Marks the entry as observed while `owner` lives (and until the token ends): the
  /// observation of a key-path follower, whose slot holds its owner weakly. Swift has no
  /// callback when an object dies, so everything that asks whether the entry is observed
  /// first ends the observers whose owner is gone (``pruneObservers()``), and calls
  /// `ownerGone` for each.
  func observe(
    while owner: AnyObject, ownerGone: @escaping @MainActor () -> Void
  ) -> SharedObservation {
    boundObservers += 1
    // The store's sweeper checks owners' lives while any entry has such an observer.
    defer { store?.scheduleSweep() }
    return addObserver(Observer(owner: owner, isBound: true, ownerGone: ownerGone))
  }

  private func addObserver(_ observer: Observer) -> SharedObservation {
    nextObserverID += 1
    let id = nextObserverID
    observers[id] = observer
    perform(book.observe(isFetching: slot.isBusy, at: now))
    return SharedObservation { [weak self] in self?.endObservation(id) }
  }

  /// Keeps the entry observed for as long as the calling task runs; returns when that task
  /// is cancelled.
  ///
  /// In SwiftUI, `.task { await post.observeUntilCancelled() }` keeps an entry observed
  /// while the view is on screen (`LoadingView(entry)` does this for you).
  public func observeUntilCancelled() async {
    let token = observe()
    let (cancelled, continuation) = AsyncStream.makeStream(of: Never.self)
    // An `AsyncStream` ends its iteration when the iterating task is cancelled.
    for await _ in cancelled {}
    continuation.finish()
    token.end()
  }

  /// How many observation tokens, `states` subscriptions and followers are alive. A key path
  /// whose instance is gone no longer counts.
  public var observerCount: Int {
    pruneObservers()
    return observers.count
  }

  /// Whether anyone observes the entry now; see ``observerCount``.
  var isObserved: Bool {
    pruneObservers()
    return !observers.isEmpty
  }

  /// Whether some observer lasts only while its owner lives: the store's sweeper then
  /// checks that owner's life (``pruneObservers()``) at least once per grace time.
  var hasBoundObservers: Bool { boundObservers > 0 }

  /// Ends every observer whose owner is gone. The entry is unobserved from now on if that
  /// was the last one, so its grace time counts from the moment it was found unobserved.
  func pruneObservers() {
    guard boundObservers > 0 else { return }
    var gone: [Observer] = []
    for (id, observer) in observers where observer.isBound && observer.owner == nil {
      observers[id] = nil
      gone.append(observer)
    }
    guard !gone.isEmpty else { return }
    boundObservers -= gone.count
    let now = self.now
    for _ in gone { perform(book.endObservation(at: now)) }
    for observer in gone { observer.ownerGone?() }
  }

  private func endObservation(_ id: Int) {
    guard let observer = observers.removeValue(forKey: id) else { return }
    if observer.isBound { boundObservers -= 1 }
    perform(book.endObservation(at: now))
  }

  // MARK: - Watchers

  /// Calls `callback` with every state the entry shows from now on, and why; returns the
  /// id that ``removeWatcher(_:)`` takes.
  ///
  /// A commit moves the committed value, not what is on screen: only a watcher that asks
  /// for commits (`includingCommits`, as a persistence layer would) receives them; those
  /// that show the entry (followers, `states`) see every change of the screen and nothing
  /// else.
  func addWatcher(
    includingCommits: Bool = false,
    _ callback: @escaping @MainActor (EntryEvent<State>) -> Void
  ) -> Int {
    nextWatcherID += 1
    watchers.append((nextWatcherID, includingCommits, callback))
    isWatched = true
    return nextWatcherID
  }

  func removeWatcher(_ id: Int) {
    watchers.removeAll { $0.id == id }
    isWatched = !watchers.isEmpty
  }

  // MARK: - Running the book's effects

  /// Shows `state`, saved in an earlier launch and fetched at `fetchedAt` on the store's
  /// stopwatch, as the committed state.
  func restore(_ state: State, fetchedAt: Duration) {
    let now = self.now
    if LoadEvents.isOn {
      LoadEvents.report(
        .entryRestored, .entry(key),
        detail: "fetched \(LoadEvent.seconds(now - fetchedAt)) before", store: eventStore)
    }
    perform(book.restore(state, fetchedAt: fetchedAt, at: now))
  }

  /// The engine wrote `state`: the book takes it as the new base.
  func engineWrote(_ state: State, cause: WriteCause) {
    // A paged list's next or previous page may drop pages at the other end (`maxPages`):
    // the entry trimmed.
    if LoadEvents.isOn, cause == .nextPage { reportTrim(to: state) }
    if let itemLink { return itemLink.engineWrote(state, cause: cause) }
    perform(book.engineWrote(state, cause: cause, at: now))
  }

  /// Performs what the book asked for, in order.
  func perform(_ effects: EntryEffects) {
    for effect in effects {
      switch effect {
      case .startFetch(let silently):
        itemLink?.fetchStarted()
        // An inspector's injected failure (`FetchInjection.swift`): one flag read
        // while none is armed.
        let failure = FetchInjection.isArmed ? FetchInjection.take(for: self) : nil
        startingFetchAtCurrentPriority {
          engine.startFetch(slot, silently: silently, failure: failure)
        }
        noteFetchStarted()
      case .write(let cause):
        // The one write of an entry: shown, then every watcher sees it with its cause. A
        // fetch that brought back what is on screen is recorded (its time, its record) but
        // shown to nobody: observers are not woken for nothing.
        let unchanged = cause == .fetched && slot.shows(book.shown)
        if !unchanged { slot.show(book.shown) }
        if cause != .optimisticEdit && cause != .rolledBack && cause != .nextPage {
          status.setFetchedAt(book.tally.fetchedAt)
          status.setPlaceholder(book.tally.isPlaceholder)
        }
        if isWatched {
          notify(EntryEvent(state: book.shown, cause: cause, changesNothing: unchanged))
        }
      case .committed:
        if isWatched { notify(EntryEvent(state: book.committed, cause: .committedEdit)) }
      case .setStale(let stale):
        status.setStale(stale)
      case .startStaleTimer(let remaining):
        startStaleTimer(after: remaining)
      case .stopStaleTimer:
        staleTimer?.cancel()
        staleTimer = nil
      case .startTriggers:
        startTriggers()
      case .stopTriggers:
        for trigger in runningTriggers { trigger.stop() }
        runningTriggers = []
      case .scheduleSweep:
        store?.scheduleSweep()
      }
    }
  }

  /// The store, for this entry's events (``LoadEvent/storeID``).
  private var eventStore: ObjectIdentifier? { store.map(ObjectIdentifier.init) }

  /// Reports an ``LoadEventKind/entryTrimmed`` when `state` dropped more pages at either end
  /// of the list than the base had.
  private func reportTrim(to state: State) {
    // Counted at each end: a page fetched again at one end drops one at the other.
    let (after, before) = (engine.droppedPages(in: state), engine.droppedPages(in: book.base))
    let dropped = Swift.max(0, after.start - before.start) + Swift.max(0, after.end - before.end)
    guard dropped > 0 else { return }
    LoadEvents.report(
      .entryTrimmed, .entry(key),
      detail: "dropped \(dropped) page\(dropped == 1 ? "" : "s") to keep within maxPages",
      store: eventStore)
  }

  private func notify(_ event: EntryEvent<State>) {
    for watcher in watchers where event.changesShown || watcher.includesCommits {
      watcher.callback(event)
    }
  }

  private func startStaleTimer(after remaining: Duration) {
    staleTimer?.cancel()
    let clock = self.clock
    staleTimer = Task { @MainActor [weak self] in
      do { try await clock.sleep(for: remaining) } catch { return }
      guard let self else { return }
      self.perform(self.book.staleTimerFired())
    }
  }

  private func startTriggers() {
    guard !triggers.isEmpty else { return }
    let clock = self.clock
    // The store's one network truth; an entry whose store is gone listens to a source that
    // never changes.
    let network = store?.network ?? Connectivity()
    runningTriggers = triggers.map { trigger in
      trigger.start(clock: clock, network: network) { [weak self] in
        guard let self else { return false }
        self.triggered(trigger)
        return true
      }
    }
  }

  private func triggered(_ trigger: RefreshTrigger) {
    if trigger.skipsWhileOffline, store?.network.isOnlineNow == false { return }
    if LoadEvents.isOn {
      LoadEvents.report(
        .entryInvalidated, .entry(key), detail: InvalidationCause.trigger(trigger.name).detail,
        store: eventStore)
    }
    pruneObservers()
    perform(book.triggered(isFetching: slot.isBusy))
  }

  // MARK: - Store operations (through `AnySharedEntry`)

  /// Since when nobody observes the entry, on the store's stopwatch; `nil` while observed.
  var unobservedSince: Duration? { book.tally.unobservedSince }

  /// Marks the value stale; an observed entry, or one whose fetch is running, refreshes at
  /// once — silently when it holds a value — so a fetch that started before never stores
  /// its older result.
  func invalidate(_ cause: InvalidationCause) {
    if LoadEvents.isOn {
      LoadEvents.report(.entryInvalidated, .entry(key), detail: cause.detail, store: eventStore)
    }
    pruneObservers()
    perform(book.invalidate(isFetching: slot.isBusy))
  }

  /// The store dropped the entry: stops its fetch, its timers and its triggers.
  func wasDropped() {
    slot.stop()
    perform([.stopStaleTimer, .stopTriggers])
  }

  var isFetching: Bool { slot.isBusy }

  var valueType: Any.Type { engine.valueType }

  // MARK: - Optimistic edits

  /// Lays `operation` over the entry as part of edit `id`; returns whether it was recorded
  /// (an update of an entry that shows no value is not, unless `overAbsent`: an outbox edit
  /// keeps it for the value fetched later). A fetch running now started before the edit, so
  /// it is cancelled first: its older answer must not land. A paged list's next page is not:
  /// it builds on the committed base, and the edit is laid over its outcome.
  func applyEdit(_ id: UInt64, _ operation: EditOperation<Value>, overAbsent: Bool = false)
    -> Bool
  {
    if !operation.isSet, !book.tally.showsValue, !overAbsent { return false }
    if slot.isBusy, !slot.isLoadingAddedPage { cancel() }
    let before = itemLink == nil ? nil : book.shown._value
    perform(book.applyEdit(id, operation, overAbsent: overAbsent, at: now))
    itemLink?.edited(id, operation, before: before)
    if LoadEvents.isOn {
      LoadEvents.report(
        .editApplied, .entry(key, form: .edit),
        detail:
          "edit \(id)\(overAbsent ? " (outbox)" : "")\(operation.isSet ? ", set" : ", update")",
        store: eventStore)
    }
    return true
  }

  /// Edit `id` succeeded: it stays laid over the base until a fetch carries it. Unless
  /// `saving` is `false` (a committed edit laid again over a value restored without it), the
  /// committed value is saved.
  func commitEdit(_ id: UInt64, saving: Bool) {
    if LoadEvents.isOn, holdsEdit(id) {
      LoadEvents.report(
        .editCommitted, .entry(key, form: .edit), detail: "edit \(id)", store: eventStore)
    }
    let effects = book.commitEdit(id)
    if saving { perform(effects) }
    itemLink?.editEnded(id, committed: true)
  }

  /// Edit `id` failed with `error` (or, with none, was discarded): it goes, and the entry
  /// shows its current base with the remaining edits laid over it.
  func rollBackEdit(_ id: UInt64, error: (any Error)?) {
    if LoadEvents.isOn, holdsEdit(id) {
      LoadEvents.report(
        .editRolledBack, .entry(key, form: .edit), error: error,
        detail: error == nil ? "edit \(id), discarded" : "edit \(id)", store: eventStore)
    }
    perform(book.rollBackEdit(id, at: now))
    itemLink?.editEnded(id, committed: false)
  }

  /// Whether edit `id` is in the book's log (asked only while someone listens to events).
  private func holdsEdit(_ id: UInt64) -> Bool {
    for edit in book.edits where edit.id == id { return true }
    return false
  }
}

extension SharedEntry: AnySharedEntry, ObservedWhileShown {}

extension SharedEntry: LoadControl {
  @usableFromInline var controlState: State { state }
  @usableFromInline var controlRuntime: LoadRuntime { slot }
  @usableFromInline func controlStates() -> StateStream<State> { states }
  @usableFromInline func controlCancel() { cancel() }
  @usableFromInline func controlReset() { reset() }
  @usableFromInline func controlWatch(_ callback: @escaping @MainActor (State) -> Void)
    -> @MainActor () -> Void
  {
    let id = addWatcher { event in
      if !event.changesNothing { callback(event.state) }
    }
    return { [weak self] in self?.removeWatcher(id) }
  }
}

/// One observer of a shared entry: a token or a subscription, alive until it ends, or a
/// key-path follower, alive until it ends or its owner goes.
@MainActor
private struct Observer {
  /// The owner whose life bounds the observer; `nil` for a token, or once the owner is gone.
  weak var owner: AnyObject?
  /// Whether the observer lasts only while ``owner`` lives.
  let isBound: Bool
  /// Ends the following once its owner is found gone.
  let ownerGone: (@MainActor () -> Void)?
}

/// A loader a view should observe while it shows it (`LoadingView` asks).
@MainActor
protocol ObservedWhileShown: AnyObject {
  func observeUntilCancelled() async
}

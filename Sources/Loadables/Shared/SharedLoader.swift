import Observation

/// The shared entry for one key of a ``LoaderStore``: a ``Loader`` that every screen asking
/// for the key gets, so they all show one state and cause one fetch.
///
/// Get one from ``LoaderStore/loader(for:staleTime:policy:refreshing:fetch:)``. It works
/// wherever a loader does (`LoadingView`, `states`, `value()`), and the `@Loadable` wrapper
/// and the key-path form can follow it (`$post.load(from: entry)`, `load(\.post, from:
/// entry)`).
///
/// What differs from a ``BaseLoader``:
///
/// | call | a shared entry |
/// |---|---|
/// | ``load(silently:)`` while a fetch runs | joins it: one fetch for every caller |
/// | ``load(silently:)`` with a fresh value | returns it; fetches nothing |
/// | ``load(silently:)`` with a stale value | keeps it on screen and refetches silently |
/// | cancelling a caller of `load` | ends that caller's wait; the fetch goes on for the others |
/// | ``refetch()`` | starts a new fetch whatever the freshness, superseding a running one |
///
/// An entry is *observed* while an ``observe()`` token, a `states` subscription or a
/// following wrapper or key path is alive. Observed entries refetch when invalidated and
/// run their ``RefreshTrigger``s; an entry nobody observes is dropped from its store after
/// the store's grace time (the object keeps working for whoever holds it, but is no longer
/// shared).
@MainActor
public final class SharedLoader<Value: Sendable>: Loader {
  /// The entry's key.
  public let key: LoadKey

  @usableFromInline let slot: StoredSlot<LoadableState<Value>>
  private let work: @MainActor () async throws -> Value
  private let policy: LoadPolicy<Value>
  private let staleTime: Duration
  private let triggers: [RefreshTrigger]
  private weak var store: LoaderStore?
  private let clock: any Clock<Duration>
  private let status = EntryStatus()

  /// The observers alive now, by id.
  private var observers: [Int: Observer] = [:]
  /// How many of ``observers`` are bound to an owner's life (key-path followers).
  private var boundObservers = 0
  private var nextObserverID = 0
  private var staleTimer: Task<Void, Never>?
  private var triggerTasks: [Task<Void, Never>] = []
  private var freshnessWatch: Int?

  /// When the value was last written, on the store's stopwatch; `nil` before any value.
  private var updatedAt: Duration?
  /// Whether the value was invalidated since it was written.
  private var invalidated = false

  /// Since when nobody observes the entry, on the store's stopwatch; `nil` while observed.
  /// The store drops the entry once this is `graceTime` old.
  var unobservedSince: Duration?

  /// A store's use counter at this entry's last use: the least recently used goes first.
  var lastUse: UInt64 = 0

  // Optimistic edits in flight, oldest first, and the state before the first of them.
  private var pendingEdits: [(id: UInt64, state: LoadableState<Value>)] = []
  private var editBase: LoadableState<Value>?
  private var editMark: UInt32 = 0

  init(
    key: LoadKey,
    store: LoaderStore,
    clock: any Clock<Duration>,
    staleTime: Duration,
    policy: LoadPolicy<Value>,
    triggers: [RefreshTrigger],
    fetch: @escaping @MainActor () async throws -> Value
  ) {
    self.key = key
    self.store = store
    self.clock = clock
    self.staleTime = staleTime
    self.policy = policy
    self.triggers = triggers
    self.work = fetch
    self.slot = StoredSlot(.absent)
    freshnessWatch = slot.addWatcher { [weak self] state in
      self?.didWrite(state as! LoadableState<Value>)
    }
  }

  // MARK: - Loader

  /// The current state. Observable.
  public var state: LoadableState<Value> { slot.state }

  /// Every state, the current one first, then each one written, in order. A subscription
  /// counts as an observer of the entry while it lasts.
  public var states: StateStream<LoadableState<Value>> {
    StateStream(slot: slot, current: slot.storage, holding: observe())
  }

  /// Whether a fetch is in flight, silent ones included. Observable.
  public var isRunning: Bool { slot.isRunning }

  /// The progress the running fetch last reported; `nil` when none. Observable.
  public var progress: LoadingProgress? { slot.progress }

  /// The attempt a retry policy is running or waiting to run; `nil` when none. Observable.
  public var attempt: RetryAttempt? { slot.attempt }

  /// The error of the last fetch that failed while its value stayed on screen (with
  /// ``LoadPolicy/keepValueOnFailure()-type.method`` in the entry's policy). Observable.
  public var refreshError: (any Error)? { slot.refreshError }

  /// Whether the value is older than the entry's stale time, or was invalidated (or there
  /// is no value yet): the next load refetches it, silently when there is a value to keep.
  ///
  /// Observable: while the entry is observed, a timer on the store's clock tells observers
  /// the moment the value turns stale. Read without observers, it is computed on the spot.
  public var isStale: Bool {
    _ = status.isStale  // registers the observer, if any
    return staleNow
  }

  /// Whether the value is stale now, computed from its age.
  private var staleNow: Bool {
    guard !invalidated, let updatedAt, let now = store?.now else { return true }
    return now - updatedAt >= staleTime
  }

  /// Loads unless the value is fresh; joins a fetch that is already running.
  ///
  /// - A fetch runs: waits for it (and anything that supersedes it) to end.
  /// - The value is fresh: returns it; nothing is fetched.
  /// - The value is stale: keeps it on screen and refetches silently.
  /// - Otherwise: writes `.loading` (unless `silently`) and fetches.
  ///
  /// Cancelling the caller ends only its wait; the fetch goes on, and its result is stored
  /// for every observer. Call ``cancel()`` to stop the fetch itself.
  ///
  /// - Parameter silently: When `true`, `.loading` is not written.
  /// - Returns: The state when the call returns.
  @discardableResult
  public func load(silently: Bool) async -> LoadableState<Value> {
    store?.touch(self)
    if !slot.isBusy {
      if slot.storage.isLoaded, !staleNow { return slot.storage }
      startFetch(silently: silently || slot.storage.isLoaded)
    }
    await slot.untilIdle()
    return slot.storage
  }

  /// Fetches now, whatever the freshness: supersedes a running fetch, keeps a loaded value
  /// on screen, and returns when the fetch ends.
  ///
  /// - Returns: The state when the call returns.
  @discardableResult
  public func refetch() async -> LoadableState<Value> {
    store?.touch(self)
    startFetch(silently: slot.storage.isLoaded)
    await slot.untilIdle()
    return slot.storage
  }

  /// Loads (see ``load(silently:)``) and returns the value, or throws the error.
  ///
  /// - Parameter silently: When `true`, `.loading` is not written.
  /// - Returns: The value.
  /// - Throws: The error the entry shows, its refresh error, or `CancellationError` when
  ///   the caller was cancelled or the entry holds no value.
  public func value(silently: Bool) async throws -> Value {
    let state = await load(silently: silently)
    try Task.checkCancellation()
    if let error = slot.currentRefreshError { throw error }
    return try state.outcome()
  }

  /// Cancels the running fetch and brings back the state it replaced.
  public func cancel() { slot.cancel() }

  /// Cancels the running fetch and writes `.absent`.
  public func reset() { slot.reset() }

  /// Runs the entry's fetch closure, without touching the state.
  ///
  /// - Returns: The value.
  /// - Throws: Whatever the closure throws.
  public func fetch() async throws -> Value { try await work() }

  // MARK: - Observation

  /// Marks the entry as observed until the returned token ends (``SharedObservation/end()``,
  /// or when the token is released).
  ///
  /// While observed, the entry refetches when invalidated and runs its refresh triggers.
  /// When observation starts on a stale value, the entry refetches it silently.
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
    if observers.count == 1 { didBecomeObserved() }
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
    if observers.isEmpty { didBecomeUnobserved() }
    for observer in gone { observer.ownerGone?() }
  }

  private func endObservation(_ id: Int) {
    guard let observer = observers.removeValue(forKey: id) else { return }
    if observer.isBound { boundObservers -= 1 }
    if observers.isEmpty { didBecomeUnobserved() }
  }

  private func didBecomeObserved() {
    unobservedSince = nil
    let clock = self.clock
    triggerTasks = triggers.map { trigger in
      Task { @MainActor [weak self] in
        await trigger.run(clock) { self?.triggered() }
      }
    }
    if staleNow, slot.storage.isLoaded, !slot.isBusy {
      startFetch(silently: true)
    } else {
      startStaleTimer()
    }
  }

  private func didBecomeUnobserved() {
    for task in triggerTasks { task.cancel() }
    triggerTasks = []
    staleTimer?.cancel()
    staleTimer = nil
    unobservedSince = store?.now
    store?.scheduleSweep()
  }

  private func triggered() {
    guard isObserved, !slot.isBusy else { return }
    startFetch(silently: slot.storage.isLoaded)
  }

  // MARK: - Freshness

  private func startFetch(silently: Bool) {
    _ = slot.launch((), silently: silently, priority: nil, policy: policy, block: fetchBlock)
  }

  private var fetchBlock: @MainActor () async throws -> Value {
    { [weak self] in
      guard let self else { throw CancellationError() }
      return try await self.work()
    }
  }

  /// Every state written to the entry goes through here: a value makes it fresh again.
  private func didWrite(_ state: LoadableState<Value>) {
    guard state.isLoaded else { return }
    updatedAt = store?.now
    invalidated = false
    status.setStale(staleNow)
    if isObserved { startStaleTimer() }
  }

  /// While observed, tells observers the moment a fresh value turns stale. (Unobserved
  /// entries start no timer: their staleness is computed when read.)
  private func startStaleTimer() {
    staleTimer?.cancel()
    staleTimer = nil
    guard !staleNow, let updatedAt, let now = store?.now else { return }
    let remaining = staleTime - (now - updatedAt)
    let clock = self.clock
    staleTimer = Task { @MainActor [weak self] in
      do { try await clock.sleep(for: remaining) } catch { return }
      self?.status.setStale(true)
    }
  }

  // MARK: - Store operations (through `AnySharedEntry`)

  /// Marks the value stale; an observed entry, or one whose fetch is running, refetches at
  /// once — silently when it holds a value — so a fetch that started before never stores
  /// its older result.
  func invalidate() {
    staleTimer?.cancel()
    staleTimer = nil
    invalidated = true
    status.setStale(true)
    if isObserved || slot.isBusy {
      // A value stays on screen while it refetches; with none, the spinner shows.
      startFetch(silently: slot.storage.isLoaded)
    }
  }

  /// Leaves the store: stops the fetch, the timers and the triggers.
  func shutDown() {
    slot.stop()
    staleTimer?.cancel()
    staleTimer = nil
    for task in triggerTasks { task.cancel() }
    triggerTasks = []
  }

  var isFetching: Bool { slot.isBusy }

  // MARK: - Optimistic edits

  /// Writes `state` as part of edit `id`. A fetch running now started before the edit, so
  /// it is stopped: its older answer must not land over the edit.
  func applyEdit(_ id: UInt64, _ state: LoadableState<Value>) {
    if pendingEdits.isEmpty || slot.writeCount != editMark {
      // Nothing pending, or something newer was written since the last edit: start over
      // from what the entry shows now.
      pendingEdits = []
      editBase = slot.storage
    }
    slot.assign(state)
    pendingEdits.append((id, state))
    editMark = slot.writeCount
  }

  /// Edit `id` succeeded: its value is the base the later edits would roll back to.
  func commitEdit(_ id: UInt64) {
    guard let index = pendingEdits.firstIndex(where: { $0.id == id }) else { return }
    guard slot.writeCount == editMark else { return forgetEdits() }
    editBase = pendingEdits[index].state
    pendingEdits.removeFirst(index + 1)
    if pendingEdits.isEmpty { editBase = nil }
  }

  /// Edit `id` failed: it goes, and the entry shows what it would show without it — unless
  /// something newer than the edits has been written, which then wins.
  func rollBackEdit(_ id: UInt64) {
    guard let index = pendingEdits.firstIndex(where: { $0.id == id }) else { return }
    guard slot.writeCount == editMark, let base = editBase else { return forgetEdits() }
    let wasShown = index == pendingEdits.count - 1
    pendingEdits.remove(at: index)
    if wasShown {
      // `emit`, not `assign`: a fetch running now started after the edit and may land.
      slot.emit(pendingEdits.last?.state ?? base)
      editMark = slot.writeCount
    }
    if pendingEdits.isEmpty { forgetEdits() }
  }

  private func forgetEdits() {
    pendingEdits = []
    editBase = nil
  }
}

extension SharedLoader: AnySharedEntry, ObservedWhileShown {}

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

/// What a store does with an entry whatever its value type.
@MainActor
protocol AnySharedEntry: AnyObject {
  var key: LoadKey { get }
  var lastUse: UInt64 { get set }
  var unobservedSince: Duration? { get set }
  var isObserved: Bool { get }
  var hasBoundObservers: Bool { get }
  var isFetching: Bool { get }
  func pruneObservers()
  func invalidate()
  func shutDown()
  func commitEdit(_ id: UInt64)
  func rollBackEdit(_ id: UInt64)
}

/// Keeps a shared entry observed until ``end()`` is called or the token is released.
@MainActor
public final class SharedObservation: Sendable {
  private let release: @MainActor @Sendable () -> Void
  private var ended = false

  init(_ release: @escaping @MainActor @Sendable () -> Void) {
    self.release = release
  }

  /// Ends the observation. Calling it again does nothing.
  public func end() {
    guard !ended else { return }
    ended = true
    release()
  }

  deinit {
    // The entry ignores an end it already saw, so ending twice is harmless.
    let release = self.release
    Task { @MainActor in release() }
  }
}

/// The observable status of an entry, kept in a non-generic class so that observing it
/// needs no key path built in a generic context.
@MainActor
final class EntryStatus {
  private let registrar = ObservationRegistrar()
  private var stale = false

  nonisolated var staleMarker: Int { 0 }

  var isStale: Bool {
    registrar.access(self, keyPath: \EntryStatus.staleMarker)
    return stale
  }

  /// ``isStale``, read without registering observation.
  var staleNow: Bool { stale }

  func setStale(_ value: Bool) {
    guard stale != value else { return }
    registrar.withMutation(of: self, keyPath: \EntryStatus.staleMarker) { stale = value }
  }
}

extension EntryStatus: Observable {}

/// The book of one shared entry: its freshness, its observer count and its edit log, kept
/// as a value with no tasks, no clock reads and no `Task.isCancelled`.
///
/// Each event is a `mutating` method that takes its inputs explicitly (the time on the
/// store's clock, whether a fetch runs) and returns what to do as ``EntryEffect``s, in
/// order: start a fetch, write a state with its cause, start or stop the stale timer, the
/// triggers, the sweeper. `SharedLoader` only performs them, so tests drive the book step
/// by step and compare effect lists.
///
/// The state on screen is ``shown``: the committed ``base`` (what the last fetch wrote)
/// with the pending edits laid over it, in order. A newer fetched value becomes the new
/// base and the edits are laid over it again, so an edit waiting for its job survives a
/// background refetch. An edit leaves the log when it is rolled back, when the entry is
/// reset, or once it has committed and a fetch that started after the commit has landed
/// (that value carries it).
struct EntryBook<Value> {
  typealias State = LoadableState<Value>
  typealias Effect = EntryEffect<Value>

  /// How long a fetched value stays fresh.
  let staleTime: Duration

  /// The committed state: what the engine last wrote (fetched, started, restored, reset).
  private(set) var base: State = .absent

  /// The edits laid over ``base``, oldest first.
  private(set) var edits: [PendingEdit<Value>] = []

  /// When a value was last shown, on the store's stopwatch; `nil` before any value.
  private(set) var updatedAt: Duration?

  /// Whether the value was invalidated since it was shown.
  private(set) var invalidated = false

  /// How many observers are alive.
  private(set) var observerCount = 0

  /// Since when nobody observes the entry; `nil` while observed.
  private(set) var unobservedSince: Duration?

  /// How many fetches the book has started; a fetch's writes belong to the latest one.
  private(set) var fetchEpoch: UInt64 = 0

  /// The staleness last told to observers (the observable `isStale`).
  private(set) var staleFlag = false

  /// Whether ``shown`` holds a value, kept at every write so that the hot questions (is
  /// there a fresh value to return?) never build the shown state.
  private(set) var showsValue = false

  /// Creates the book of an entry made at `now`, unobserved from then on.
  init(staleTime: Duration, at now: Duration) {
    self.staleTime = staleTime
    self.unobservedSince = now
  }

  // MARK: - Reading

  /// The state on screen: the base with every edit laid over it, in order.
  var shown: State {
    var state = base
    for edit in edits { state = edit.operation.apply(to: state) }
    return state
  }

  /// The committed value: the base with the committed edits that no pending edit precedes
  /// (what a persistence layer keeps).
  var committed: State {
    var state = base
    for edit in edits {
      guard edit.committedAt != nil else { break }
      state = edit.operation.apply(to: state)
    }
    return state
  }

  var isObserved: Bool { observerCount > 0 }

  /// Whether the value is stale at `now`: invalidated, older than the stale time, or absent.
  func isStale(at now: Duration) -> Bool {
    guard !invalidated, let updatedAt else { return true }
    return now - updatedAt >= staleTime
  }

  // MARK: - Loading

  /// Whether a load at `now` fetches: no fetch runs to join, and no fresh value is shown.
  func loadFetches(isFetching: Bool, at now: Duration) -> Bool {
    !isFetching && !(showsValue && !isStale(at: now))
  }

  /// A caller asks for the value: join a running fetch, return a fresh value, or fetch.
  mutating func load(silently: Bool, isFetching: Bool, at now: Duration) -> [Effect] {
    guard loadFetches(isFetching: isFetching, at: now) else { return [] }
    return [startFetch(silently: silently || showsValue)]
  }

  /// A caller asks for a fetch whatever the freshness.
  mutating func refetch() -> [Effect] {
    [startFetch(silently: showsValue)]
  }

  /// A refresh trigger fired: refetch while observed and not already fetching.
  mutating func triggered(isFetching: Bool) -> [Effect] {
    guard isObserved, !isFetching else { return [] }
    return [startFetch(silently: showsValue)]
  }

  /// The value turns stale; observed entries, and any with a fetch running, refetch at once
  /// (a running fetch started before the invalidation and must not store).
  mutating func invalidate(isFetching: Bool) -> [Effect] {
    invalidated = true
    var effects: [Effect] = [.stopStaleTimer]
    effects += setStale(true)
    if isObserved || isFetching { effects.append(startFetch(silently: showsValue)) }
    return effects
  }

  /// The stale timer fired.
  mutating func staleTimerFired() -> [Effect] { setStale(true) }

  private mutating func startFetch(silently: Bool) -> Effect {
    fetchEpoch &+= 1
    return .startFetch(silently: silently)
  }

  // MARK: - Writes

  /// The engine wrote `state` (a fetch's start or outcome, a restore, a reset): it is the
  /// new base, and the edits are laid over it again. A fetched write drops the committed
  /// edits it carries (those committed before its fetch started); a reset drops them all.
  mutating func engineWrote(_ state: State, cause: WriteCause, at now: Duration) -> [Effect] {
    base = state
    switch cause {
    case .fetched:
      edits.removeAll { edit in edit.committedAt.map { $0 < fetchEpoch } ?? false }
    case .reset:
      edits = []
    default:
      break
    }
    return written(cause, at: now)
  }

  /// The state on screen changed: write it, and a value is fresh again.
  private mutating func written(_ cause: WriteCause, at now: Duration) -> [Effect] {
    let shown = self.shown
    showsValue = shown.isLoaded
    var effects: [Effect] = [.write(shown, cause)]
    guard showsValue else { return effects }
    updatedAt = now
    invalidated = false
    effects += setStale(isStale(at: now))
    if isObserved { effects.append(staleTimer(at: now)) }
    return effects
  }

  // MARK: - Edits

  /// Edit `id` lays `operation` over the entry. An update of an entry that shows no value
  /// changes nothing and is not recorded: the result is then empty.
  mutating func edit(_ id: UInt64, _ operation: EditOperation<Value>, at now: Duration)
    -> [Effect]
  {
    if case .update = operation, shown.data == nil { return [] }
    edits.append(PendingEdit(id: id, operation: operation))
    return written(.optimisticEdit, at: now)
  }

  /// Edit `id`'s job succeeded: its change is committed. It stays laid over the base until
  /// a fetch that starts from now on lands, whose value carries it.
  mutating func commit(_ id: UInt64) -> [Effect] {
    guard let index = edits.firstIndex(where: { $0.id == id }) else { return [] }
    edits[index].committedAt = fetchEpoch
    return [.committed(committed)]
  }

  /// Edit `id`'s job failed: it leaves the log, and the entry shows its current base with
  /// the remaining edits laid over it — exact, whatever was written since.
  mutating func rollBack(_ id: UInt64, at now: Duration) -> [Effect] {
    guard let index = edits.firstIndex(where: { $0.id == id }) else { return [] }
    edits.remove(at: index)
    // A later `set` hides this edit's change: what is on screen stays as it is.
    if edits[index...].contains(where: \.operation.isSet) { return [] }
    return written(.rolledBack, at: now)
  }

  /// Every edit leaves the log (a reset discards them).
  mutating func discardEdits(at now: Duration) -> [Effect] {
    guard !edits.isEmpty else { return [] }
    edits = []
    return written(.reset, at: now)
  }

  // MARK: - Observers

  /// An observer arrived. The first one starts the triggers and the stale timer, or a
  /// silent refetch of a stale value.
  mutating func observe(isFetching: Bool, at now: Duration) -> [Effect] {
    observerCount += 1
    guard observerCount == 1 else { return [] }
    unobservedSince = nil
    var effects: [Effect] = [.startTriggers]
    if isStale(at: now), showsValue, !isFetching {
      effects.append(startFetch(silently: true))
    } else {
      effects.append(staleTimer(at: now))
    }
    return effects
  }

  /// An observer left. After the last one the triggers and the stale timer stop, and the
  /// grace time counts from `now`.
  mutating func unobserve(at now: Duration) -> [Effect] {
    guard observerCount > 0 else { return [] }
    observerCount -= 1
    guard observerCount == 0 else { return [] }
    unobservedSince = now
    return [.stopTriggers, .stopStaleTimer, .scheduleSweep]
  }

  // MARK: - Staleness

  /// The timer that tells observers the moment a fresh value turns stale, or none.
  private func staleTimer(at now: Duration) -> Effect {
    guard !isStale(at: now), let updatedAt else { return .stopStaleTimer }
    return .startStaleTimer(after: staleTime - (now - updatedAt))
  }

  private mutating func setStale(_ stale: Bool) -> [Effect] {
    guard staleFlag != stale else { return [] }
    staleFlag = stale
    return [.setStale(stale)]
  }
}

/// What an ``EntryBook`` asks its entry to do.
enum EntryEffect<Value> {
  /// Start a fetch, superseding a running one.
  case startFetch(silently: Bool)
  /// Show `state` (the base with the edits laid over it), written for `cause`.
  case write(LoadableState<Value>, WriteCause)
  /// An edit committed: the committed value is now this (nothing on screen changed).
  case committed(LoadableState<Value>)
  /// Tell observers whether the value is stale.
  case setStale(Bool)
  /// Tell observers the value turned stale after this long, unless stopped first.
  case startStaleTimer(after: Duration)
  case stopStaleTimer
  /// Run the entry's refresh triggers while it is observed.
  case startTriggers
  case stopTriggers
  /// Make sure the store's grace sweeper runs.
  case scheduleSweep
}

extension EntryEffect: Equatable where Value: Equatable {}

/// One edit in an entry's log.
struct PendingEdit<Value> {
  /// The store's id of the edit transaction.
  let id: UInt64
  let operation: EditOperation<Value>
  /// The book's fetch epoch when the edit's job succeeded; `nil` while it runs. A fetch
  /// started after that carries the change.
  var committedAt: UInt64?
}

/// A change an edit lays over a base: re-applied as it is, or re-run, whenever the base
/// changes. (An edit the app may have to send later becomes a `Codable` kind here.)
enum EditOperation<Value> {
  /// Show this value, whatever the base.
  case set(Value)
  /// Change the base's value; a base with no value stays as it is.
  case update((inout Value) -> Void)

  var isSet: Bool {
    if case .set = self { return true }
    return false
  }

  func apply(to state: LoadableState<Value>) -> LoadableState<Value> {
    switch self {
    case .set(let value):
      return .loaded(value)
    case .update(let change):
      guard var value = state.data else { return state }
      change(&value)
      return .loaded(value)
    }
  }
}

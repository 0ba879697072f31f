/// The book of one shared entry: its freshness, its observer count and its edit log, kept
/// as a value with no tasks, no clock reads and no `Task.isCancelled`.
///
/// Each event is a `mutating` method that takes its inputs explicitly (the time on the
/// store's clock, whether a fetch runs) and returns what to do as ``EntryEffects``, in
/// order: start a fetch, write the shown state with its cause, start or stop the stale
/// timer, the triggers, the sweeper. `SharedEntry` only performs them, so tests drive the
/// book step by step and compare effect lists.
///
/// It is generic over the entry's state (a ``LoadableState``, a ``PagedState``): an edit
/// reaches the state's value through ``SharedEntryState``, and the rest of the book never
/// looks inside a state.
///
/// The effects name no state: a write shows ``shown`` and a commit reports ``committed``,
/// both read from the book when the effect is performed. So the effect type is not generic
/// and an event's effects live inline, with no allocation: an entry's events run in the
/// library's unspecialised code, where every generic value costs metadata lookups.
///
/// The state on screen is ``shown``: the committed ``base`` (what the last fetch wrote)
/// with the pending edits laid over it, in order. A newer fetched value becomes the new
/// base and the edits are laid over it again, so an edit waiting for its job survives a
/// background refresh. An edit leaves the log when it is rolled back, when the entry is
/// reset, or once it has committed and a fetch that started after the commit has landed
/// (that value carries it).
struct EntryBook<State: SharedEntryState> {
  typealias Effects = EntryEffects

  /// The book's counts and times (freshness, observers, fetches): no generic value, so the
  /// entry asks it the hot questions (is there a fresh value?) without copying the book.
  private(set) var facts: EntryFacts

  /// The committed state: what the engine last wrote (fetched, started, restored, reset).
  private(set) var base: State

  /// The edits laid over ``base``, oldest first.
  ///
  /// Whether the log is empty is kept in ``EntryFacts/showsBase`` at each change: the hot
  /// paths (a fetch's write, its save) ask the facts, since asking an array of a generic
  /// element looks up the element's and the array's metadata in unspecialised code.
  private(set) var edits: [PendingEdit<State>] = [] {
    didSet { facts.showsBase = edits.isEmpty }
  }

  /// The state on screen: the base with every edit laid over it, in order. With no edit
  /// pending that is the base itself; otherwise it is laid again at each write and kept on
  /// the log's last edit (``PendingEdit/laid``), so reading it builds nothing, and an entry
  /// with no edit pending (nearly every one a store holds) keeps its state once here.
  var shown: State {
    if facts.showsBase { return base }
    return edits[edits.count - 1].laid ?? editsLaidOverBase()
  }

  /// Creates the book of an entry made at `now`, unobserved from then on, showing `empty`
  /// (the state's reset state).
  init(staleTime: Duration, at now: Duration, empty: State) {
    facts = EntryFacts(staleTime: staleTime, unobservedSince: now)
    base = empty
  }

  /// How long a fetched value stays fresh.
  var staleTime: Duration { facts.staleTime }
  /// How many observers are alive.
  var observerCount: Int { facts.observerCount }
  /// Since when nobody observes the entry; `nil` while observed.
  var unobservedSince: Duration? { facts.unobservedSince }
  /// How many fetches the book has started; a fetch's writes belong to the latest one.
  var fetchEpoch: UInt64 { facts.fetchEpoch }
  /// Whether ``shown`` holds a value.
  var showsValue: Bool { facts.showsValue }
  var isObserved: Bool { facts.observerCount > 0 }

  /// Whether the value is stale at `now`: invalidated, older than the stale time, or absent.
  func isStale(at now: Duration) -> Bool { facts.isStale(at: now) }

  /// Whether a load at `now` fetches: no fetch runs to join, and no fresh value is shown.
  func loadFetches(isFetching: Bool, at now: Duration) -> Bool {
    facts.loadFetches(isFetching: isFetching, at: now)
  }

  // MARK: - Reading

  /// The committed value: the base with the committed edits that no pending edit precedes
  /// (what a persistence layer keeps).
  var committed: State {
    if facts.showsBase { return base }
    var state = base
    for edit in edits {
      guard edit.committedAt != nil else { break }
      state = edit.operation.apply(to: state)
    }
    return state
  }

  // MARK: - Loading

  /// A caller asks for the value: join a running fetch, return a fresh value, or fetch.
  mutating func load(silently: Bool, isFetching: Bool, at now: Duration) -> Effects {
    guard loadFetches(isFetching: isFetching, at: now) else { return [] }
    return [startFetch(silently: silently || showsValue)]
  }

  /// A caller asks for a fetch whatever the freshness.
  ///
  /// Inlined: it touches only the facts, which need no metadata of the book's generic type,
  /// and a call would look that metadata up to pass it.
  @inline(__always)
  mutating func refresh() -> Effects {
    [startFetch(silently: facts.showsValue)]
  }

  /// A refresh trigger fired: refresh while observed and not already fetching.
  mutating func triggered(isFetching: Bool) -> Effects {
    guard isObserved, !isFetching else { return [] }
    return [startFetch(silently: showsValue)]
  }

  /// The value turns stale; observed entries, and any with a fetch running, refresh at once
  /// (a running fetch started before the invalidation and must not store).
  mutating func invalidate(isFetching: Bool) -> Effects {
    facts.invalidated = true
    var effects: Effects = [.stopStaleTimer]
    setStale(true, into: &effects)
    if isObserved || isFetching { effects.append(startFetch(silently: showsValue)) }
    return effects
  }

  /// The stale timer fired.
  mutating func staleTimerFired() -> Effects {
    var effects: Effects = []
    setStale(true, into: &effects)
    return effects
  }

  @inline(__always)
  private mutating func startFetch(silently: Bool) -> EntryEffect {
    facts.fetchEpoch &+= 1
    return .startFetch(silently: silently)
  }

  // MARK: - Writes

  /// The engine wrote `state` (a fetch's start or outcome, a restore, a reset): it is the
  /// new base, and the edits are laid over it again. A fetched write drops the committed
  /// edits it carries (those committed before its fetch started); a reset drops them all. A
  /// next page's write drops none (the pages before it were fetched earlier) and leaves the
  /// freshness alone: the list is as fresh as its first page.
  mutating func engineWrote(_ state: State, cause: WriteCause, at now: Duration) -> Effects {
    base = state
    // A placeholder shows until the engine writes anything but a cancelled fetch's
    // restoring write or a next page.
    if cause != .restored && cause != .nextPage { facts.isPlaceholder = false }
    switch cause {
    case .fetched:
      if state._holdsValue { facts.fetchedAt = now }
      if !facts.showsBase {
        let epoch = facts.fetchEpoch
        edits.removeAll { edit in edit.committedAt.map { $0 < epoch } ?? false }
      }
    case .reset:
      edits = []
    default:
      break
    }
    return written(cause, at: now)
  }

  /// A value saved in an earlier launch, fetched at `fetchedAt` on the store's stopwatch
  /// (before the store was made, so usually negative): it is the new base, the edits are
  /// laid over it, and it is as fresh as its age says.
  mutating func restore(_ state: State, fetchedAt: Duration, at now: Duration) -> Effects {
    base = state
    facts.fetchedAt = fetchedAt
    return written(.restoredFromDisk, at: now, shownSince: fetchedAt)
  }

  /// A value the app already has (the row the user tapped) becomes the base, as if fetched
  /// at `fetchedAt` on the store's stopwatch: as fresh as that age says, and kept between
  /// launches once an edit commits over it. Without a `fetchedAt` it is stale at once, so
  /// the next load or observer refreshes it silently.
  mutating func start(with state: State, fetchedAt: Duration?, at now: Duration) -> Effects {
    base = state
    facts.fetchedAt = fetchedAt
    facts.isPlaceholder = false
    return written(.initialValue, at: now, shownSince: fetchedAt, stale: fetchedAt == nil)
  }

  /// A placeholder shows until the first fetch lands: it is stale (a load refreshes it
  /// silently, keeping it on screen), it has no fetch time, and nothing saves it.
  mutating func showPlaceholder(_ state: State, at now: Duration) -> Effects {
    base = state
    facts.fetchedAt = nil
    facts.isPlaceholder = true
    return written(.placeholder, at: now, stale: true)
  }

  /// The state on screen changed: write it, and a value that came from the server (a fetch,
  /// a saved value, a value the app gave as fetched) is fresh again: fresh since
  /// `shownSince`, for a restored value; since `now` otherwise. A write that did not bring
  /// the server's value (see ``WriteCause/refreshesFreshness``) leaves the freshness as it
  /// was: an optimistic edit of a stale entry leaves it stale.
  private mutating func written(
    _ cause: WriteCause, at now: Duration, shownSince: Duration? = nil, stale: Bool = false
  ) -> Effects {
    // With no edit in the log the base is what shows, and no edit runs.
    facts.showsValue = facts.showsBase ? base._holdsValue : layEditsOverBase()
    var effects: Effects = [.write(cause)]
    guard showsValue, cause != .nextPage else { return effects }
    if cause.refreshesFreshness {
      facts.updatedAt = shownSince ?? now
      facts.invalidated = stale
    }
    setStale(isStale(at: now), into: &effects)
    if isObserved { effects.append(staleTimer(at: now)) }
    return effects
  }

  /// The base with every edit laid over it, in order.
  private func editsLaidOverBase() -> State {
    var state = base
    for edit in edits { state = edit.operation.apply(to: state) }
    return state
  }

  /// Lays every edit over the base again and keeps the result on the last edit, as
  /// ``shown``; returns whether it holds a value. (The edit that was last before a new one
  /// let go of its state in ``applyEdit(_:_:overAbsent:at:)``; an edit that leaves the log
  /// takes its own.) Apart from ``written(_:at:shownSince:stale:)``, which would otherwise
  /// look up the edits' metadata at every write, edits or not.
  @inline(never)
  private mutating func layEditsOverBase() -> Bool {
    let state = editsLaidOverBase()
    edits[edits.count - 1].laid = state
    return state._holdsValue
  }

  // MARK: - Edits

  /// Edit `id` lays `operation` over the entry. An update of an entry that shows no value
  /// changes nothing and is not recorded (the result is then empty), unless `overAbsent`:
  /// an outbox edit keeps its update, to run over the value the entry fetches later.
  mutating func applyEdit(
    _ id: UInt64, _ operation: EditOperation<State.Value>, overAbsent: Bool = false,
    at now: Duration
  ) -> Effects {
    if !operation.isSet, !showsValue, !overAbsent { return [] }
    // Only the last edit keeps the state shown.
    if !facts.showsBase { edits[edits.count - 1].laid = nil }
    edits.append(PendingEdit(id: id, operation: operation))
    return written(.optimisticEdit, at: now)
  }

  /// Edit `id`'s job succeeded: its change is committed. It stays laid over the base until
  /// a fetch that starts from now on lands, whose value carries it.
  ///
  /// The committed edits are laid in the order they committed, ahead of the pending ones:
  /// the server applied them in that order, and has none of the pending ones yet. So an edit
  /// that commits behind one still pending moves ahead of it, and the committed value (what
  /// is saved) is the base with every committed edit laid in the server's order. (An outbox
  /// edit queued in another process over the same folder joins this one's log late, behind
  /// edits the server applies after it.)
  mutating func commitEdit(_ id: UInt64, at now: Duration) -> Effects {
    guard let index = index(of: id) else { return [] }
    edits[index].committedAt = facts.fetchEpoch
    var first = 0
    while first < index, edits[first].committedAt != nil { first += 1 }
    guard first < index else { return [.committed] }
    // Only the last edit keeps the state shown; it is laid again below.
    edits[edits.count - 1].laid = nil
    edits.insert(edits.remove(at: index), at: first)
    // On screen the pending edits are laid again over the committed ones, as an optimistic
    // write is (nothing is saved for it); the commit then saves the committed value.
    var effects = written(.optimisticEdit, at: now)
    effects.append(.committed)
    return effects
  }

  /// Edit `id`'s job failed: it leaves the log, and the entry shows its current base with
  /// the remaining edits laid over it — exact, whatever was written since.
  mutating func rollBackEdit(_ id: UInt64, at now: Duration) -> Effects {
    guard let index = index(of: id) else { return [] }
    edits.remove(at: index)
    // A later `set` hides this edit's change: what is on screen stays as it is. (A loop,
    // not `contains(where: \.operation.isSet)`: generic code builds a key path at each use.)
    var later = index
    while later < edits.count {
      if edits[later].operation.isSet { return [] }
      later += 1
    }
    return written(.rolledBack, at: now)
  }

  /// Where edit `id` sits in the log, if it is there.
  private func index(of id: UInt64) -> Int? {
    var index = 0
    while index < edits.count {
      if edits[index].id == id { return index }
      index += 1
    }
    return nil
  }

  /// Every edit leaves the log (a reset discards them).
  mutating func discardEdits(at now: Duration) -> Effects {
    guard !edits.isEmpty else { return [] }
    edits = []
    return written(.reset, at: now)
  }

  // MARK: - Observers

  /// An observer arrived. The first one starts the triggers and the stale timer, or a
  /// silent refresh of a stale value.
  mutating func observe(isFetching: Bool, at now: Duration) -> Effects {
    facts.observerCount += 1
    guard facts.observerCount == 1 else { return [] }
    facts.unobservedSince = nil
    var effects: Effects = [.startTriggers]
    if isStale(at: now), showsValue, !isFetching {
      effects.append(startFetch(silently: true))
    } else {
      effects.append(staleTimer(at: now))
    }
    return effects
  }

  /// An observer left. After the last one the triggers and the stale timer stop, and the
  /// grace time counts from `now`.
  mutating func endObservation(at now: Duration) -> Effects {
    guard facts.observerCount > 0 else { return [] }
    facts.observerCount -= 1
    guard facts.observerCount == 0 else { return [] }
    facts.unobservedSince = now
    return [.stopTriggers, .stopStaleTimer, .scheduleSweep]
  }

  // MARK: - Staleness

  /// The timer that tells observers the moment a fresh value turns stale, or none.
  private func staleTimer(at now: Duration) -> EntryEffect {
    guard !isStale(at: now), let updatedAt = facts.updatedAt else { return .stopStaleTimer }
    return .startStaleTimer(after: staleTime - (now - updatedAt))
  }

  private mutating func setStale(_ stale: Bool, into effects: inout Effects) {
    guard facts.staleFlag != stale else { return }
    facts.staleFlag = stale
    effects.append(.setStale(stale))
  }
}

extension EntryBook where State: EngineState {
  /// Creates the book of an entry made at `now`, unobserved from then on, showing the
  /// state's reset state.
  init(staleTime: Duration, at now: Duration) {
    self.init(staleTime: staleTime, at: now, empty: .resetState)
  }
}

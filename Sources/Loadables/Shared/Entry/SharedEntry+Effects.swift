extension SharedEntry {
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
    let followers = self.followers
    followers.nextWatcherID += 1
    followers.watchers.append((followers.nextWatcherID, includingCommits, callback))
    isWatched = true
    return followers.nextWatcherID
  }

  func removeWatcher(_ id: Int) {
    guard let followers = followersIfMade else { return }
    followers.watchers.removeAll { $0.id == id }
    isWatched = !followers.watchers.isEmpty
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

  /// The engine wrote `state`: the book takes it as the new base. `equalsBase` when the
  /// engine found it equal to the base it read (``EntryStateStorage/read()``).
  func engineWrote(_ state: State, cause: WriteCause, equalsBase: Bool = false) {
    // A paged list's next or previous page may drop pages at the other end (`maxPages`):
    // the entry trimmed.
    if LoadEvents.isOn, cause == .nextPage { reportTrim(to: state) }
    if let itemLink { return itemLink.engineWrote(state, cause: cause) }
    // Equal to the base with no edit laid over it: what shows is the same, known without
    // comparing the states a second time (a comparison in unspecialised code, through the
    // value's `Equatable` conformance found at run time).
    let showsSame = equalsBase && book.facts.showsBase
    perform(book.engineWrote(state, cause: cause, at: now), showsSame: showsSame)
  }

  /// Performs what the book asked for, in order; `showsSame` when a write is known to show
  /// what is on screen already.
  func perform(_ effects: EntryEffects, showsSame: Bool = false) {
    for effect in effects {
      switch effect {
      case .startFetch(let silently):
        itemLink?.fetchStarted()
        // An inspector's injected failure (`FetchInjection.swift`): one flag read
        // while none is armed.
        let failure = FetchInjection.isArmed ? FetchInjection.take(for: self) : nil
        startingFetchAtCurrentPriority {
          engine.startFetch(engineSlot, silently: silently, failure: failure)
        }
        noteFetchStarted()
      case .write(let cause):
        write(cause, showsSame: showsSame)
      case .committed:
        committed()
      case .setStale:
        // The book computes staleness on the spot; its observers are told it changed.
        slot.staleChanged()
      case .startStaleTimer(let remaining):
        startStaleTimer(after: remaining)
      case .stopStaleTimer:
        if let followers = followersIfMade {
          followers.staleTimer?.cancel()
          followers.staleTimer = nil
        }
      case .startTriggers:
        startTriggers()
      case .stopTriggers:
        if let followers = followersIfMade {
          for trigger in followers.runningTriggers { trigger.stop() }
          followers.runningTriggers = []
        }
      case .scheduleSweep:
        store?.scheduleSweep()
      }
    }
  }

  /// The one write of an entry: shown, then every watcher sees it with its cause. A fetch
  /// that brought back what is on screen is recorded (its time, its record) but shown to
  /// nobody: observers are not woken for nothing.
  ///
  /// Apart from ``perform(_:showsSame:)``, and its event built apart from it, so that the
  /// book's and the event's generic metadata are looked up where they are used: not for a
  /// fetch's start, nor for an entry nobody watches.
  @inline(never)
  private func write(_ cause: WriteCause, showsSame: Bool) {
    var unchanged = cause == .fetched && showsSame
    if !unchanged {
      // Read once: while edits are pending it is kept on the edit log's last edit.
      let shown = book.shown
      unchanged = cause == .fetched && slot.shows(shown)
      if !unchanged { slot.show(shown) }
    }
    if cause != .optimisticEdit && cause != .rolledBack && cause != .nextPage {
      slot.setFetchedAt(book.facts.fetchedAt)
      slot.setPlaceholder(book.facts.isPlaceholder)
    }
    // Saved first, as a watcher attached when the entry was made would be.
    if let savedKey { save(savedKey, cause: cause) }
    if isWatched { notifyShown(cause, changesNothing: unchanged) }
  }

  /// An edit committed: the committed state is saved, and the watchers that ask for commits
  /// see it. Apart from ``perform(_:showsSame:)``, as ``write(_:showsSame:)`` is.
  @inline(never)
  private func committed() {
    if let savedKey { save(savedKey, cause: .committedEdit) }
    if isWatched { notify(EntryEvent(state: book.committed, cause: .committedEdit)) }
  }

  /// Tells the watchers the state shown, written with `cause`.
  @inline(never)
  private func notifyShown(_ cause: WriteCause, changesNothing: Bool) {
    notify(EntryEvent(state: book.shown, cause: cause, changesNothing: changesNothing))
  }

  /// The store, for this entry's events (``LoadEvent/storeID``).
  var eventStore: ObjectIdentifier? { store.map(ObjectIdentifier.init) }

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

  /// The committed state (what a persistence layer keeps). With no edit in the log it is
  /// the base, read alone: reading the book whole (to ask it) copies the book first.
  var committedState: State { book.facts.showsBase ? book.base : book.committed }

  /// The committed base: what the engine last wrote. Read alone, for the reason above.
  var base: State { book.base }

  /// Hands a write (or a commit) to the store's persistence, which saves what it should.
  private func save(_ savedKey: PersistentKey, cause: WriteCause) {
    guard let store, let persister = store.persister else { return }
    persister.entryWrote(self, key: savedKey, cause: cause, in: store)
  }

  private func notify(_ event: EntryEvent<State>) {
    guard let followers = followersIfMade else { return }
    for watcher in followers.watchers where event.changesShown || watcher.includesCommits {
      watcher.callback(event)
    }
  }

  private func startStaleTimer(after remaining: Duration) {
    let followers = self.followers
    followers.staleTimer?.cancel()
    let clock = self.clock
    followers.staleTimer = Task { @MainActor [weak self] in
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
    followers.runningTriggers = triggers.map { trigger in
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
}

import Observation

/// Bookkeeping: the statuses ``OutboxBook`` decides, the counts, the issues and the
/// events.
extension Outbox {
  var idle: Bool { counts.pending == 0 }

  /// How many edits the outbox sends on its own (pending), and how many wait for the app
  /// (stuck: no handler for their type, or behind such an edit in their scope), from the
  /// statuses ``OutboxBook`` decided.
  var counts: (pending: Int, stuck: Int) {
    var noHandler: Set<OutboxItem.ID> = []
    for queued in queue where queued.item.status == .waitingForHandler {
      noHandler.insert(queued.item.id)
    }
    var pending = 0
    var stuck = 0
    for queued in queue {
      switch queued.item.status {
      case .failed: continue
      case .waitingForHandler: stuck += 1
      case .waitingBehind(let head) where noHandler.contains(head): stuck += 1
      default: pending += 1
      }
    }
    return (pending, stuck)
  }

  /// Reports, on the main actor's next turn, the edits then waiting for a handler: the code
  /// that made the store (or enqueued an edit of a type not registered yet) registers its
  /// types first.
  func scheduleHandlerCheck() {
    guard !handlerCheckScheduled else { return }
    handlerCheckScheduled = true
    Task { @MainActor [weak self] in
      guard let self else { return }
      handlerCheckScheduled = false
      reportMissingHandlers()
    }
  }

  /// Reports each edit waiting for a handler that is not reported yet.
  func reportMissingHandlers() {
    for queued in queue where queued.item.status == .waitingForHandler {
      reportNoHandler(queued)
    }
  }

  /// Reports once that `queued`'s type has no handler.
  func reportNoHandler(_ queued: Queued) {
    guard !queued.reportedNoHandler else { return }
    queued.reportedNoHandler = true
    let behind = queue.count {
      $0.scopeID == queued.scopeID && $0.item.status == .waitingBehind(queued.item.id)
    }
    report(
      .noHandler, queued.item.id,
      "no handler is registered for \"\(queued.item.name)\" (scope \(scopeWords(queued))); "
        + "it waits, with \(behind) later edit(s) of its scope, until its type is registered")
  }

  func scopeWords(_ queued: Queued) -> String {
    queued.item.scopeKey.map { "\($0)" } ?? queued.item.scopeText
  }

  /// The id of the edit of `scopeID` that goes first: the one its lane sends or waits on, else
  /// the first not failed (``OutboxBook/head(of:)``).
  func head(of scopeID: String) -> OutboxItem.ID? {
    OutboxBook.head(of: queue.lazy.filter { $0.scopeID == scopeID }.map(facts))
  }

  func facts(_ queued: Queued) -> OutboxBook.Edit {
    OutboxBook.Edit(
      id: queued.item.id, failure: queued.failure?.reason,
      hasHandler: queued.hasHandler,
      activity: queued.activity)
  }

  /// Applies `body` to each edit of `scopeID` with the status ``OutboxBook`` decides for it
  /// (written out with lazy sequences: no array is made on a path every edit takes).
  func forEachDecision(
    _ scopeID: String, _ body: (Queued, OutboxItem.Status) -> Void
  ) {
    let inScope = queue.lazy.filter { $0.scopeID == scopeID }
    let head = OutboxBook.head(of: inScope.map(facts))
    let isOnline = store?.network.isOnlineNow ?? true
    for queued in inScope {
      body(queued, OutboxBook.status(of: facts(queued), head: head, isOnline: isOnline))
    }
  }

  /// Writes the statuses ``OutboxBook`` decides for `scopeID`'s edits.
  func decide(_ scopeID: String) {
    forEachDecision(scopeID) { queued, status in
      if queued.item.status != status { queued.item.status = status }
    }
  }

  /// Makes `body`'s change to the items (an edit coming or going, or one of its fields), then
  /// decides the statuses of the edits of `scopes` again, all inside one Observation mutation
  /// of ``items``: observers are told before anything changes, so an observer reading the
  /// items then still sees the ones this replaces. Resumes the idle waiters once idle.
  func change(_ scopes: [String], _ body: () -> Void) {
    registrar.withMutation(of: self, keyPath: \.items) {
      body()
      for scopeID in scopes { decide(scopeID) }
    }
    resumeIdleWaiters()
  }

  /// Decides the statuses of the edits of `scopes` again after a fact that is not part of the
  /// items changed (connectivity, a handler, what a lane does); tells observers only when a
  /// status changed.
  func redecide(_ scopes: [String]) {
    var changes = false
    for scopeID in scopes {
      forEachDecision(scopeID) { queued, status in
        if queued.item.status != status { changes = true }
      }
    }
    guard changes else { return }
    change(scopes) {}
  }

  /// Resumes the idle waiters, in the order they began to wait, once idle.
  func resumeIdleWaiters() {
    guard idle else { return }
    idleWaiters.resumeAll()
  }

  func report(_ kind: OutboxIssue.Kind, _ id: OutboxItem.ID?, _ message: String) {
    registrar.withMutation(of: self, keyPath: \.issues) {
      storedIssues.append(OutboxIssue(kind: kind, itemID: id, message: message))
      if storedIssues.count > Self.issueLimit {
        storedIssues.removeFirst(storedIssues.count - Self.issueLimit)
      }
    }
  }

  /// Reports an event of `queued`: its subject is its scope's (``LoadSubject/entry(_:form:)``
  /// with ``LoadSubject/Form/edit``), or, for an edit restored but not read back, its saved
  /// scope by name; its detail names the edit's type and id.
  func reportEvent(
    _ kind: LoadEventKind, _ queued: Queued, attempt: Int? = nil, error: (any Error)? = nil,
    detail: String? = nil
  ) {
    let subject =
      queued.edit.map { LoadSubject.entry($0.scope, form: .edit) }
      ?? LoadSubject(form: .edit, name: queued.item.scopeText)
    var words = "\(queued.item.name) \(queued.item.id)"
    if let detail { words += ", \(detail)" }
    LoadEvents.report(
      kind, subject, attempt: attempt, error: error, detail: words,
      store: store.map(ObjectIdentifier.init))
  }

  static func scopeID(_ scope: LoadKey) -> String {
    (try? PersistentKey(scope))?.identity ?? "description:\(scope)"
  }

  /// A scope's persistent identity (its lane, saved with each record) and its description
  /// (shown while a restored edit's type is unknown).
  struct ScopeSpelling {
    let id: String
    let text: String
  }

  /// The spellings of `scope`, made once per scope while the outbox sends its edits: spelling
  /// a key (its identity, its description) cost more than the rest of making an edit. At most
  /// `scopeSpellingLimit` scopes are kept: past that, all are forgotten and spelled again.
  func spelling(of scope: LoadKey) -> ScopeSpelling {
    if let known = scopeSpellings[scope] { return known }
    if scopeSpellings.count >= Self.scopeSpellingLimit { scopeSpellings.removeAll() }
    let spelled = ScopeSpelling(id: Self.scopeID(scope), text: scope.description)
    scopeSpellings[scope] = spelled
    return spelled
  }
}

import Foundation
public import Observation

/// The edits a ``LoaderStore`` has queued to send: saved before they are sent, sent in order
/// within their scope, kept until they commit, and shown so a screen can say "3 changes
/// waiting to sync".
///
/// Every store has one (``LoaderStore/outbox``). Register a handler for each edit type, then
/// enqueue edits; the outbox does the rest:
///
/// ```swift
/// store.register(RenamePost.self) { edit, context in
///   try await api.rename(edit.id, to: edit.title, idempotencyKey: context.idempotencyKey)
/// }
/// store.edit(RenamePost(id: post.id, title: "New title"))
/// ```
///
/// A view shows what waits:
///
/// <!-- compile: context OutboxView -->
/// ```swift
/// if store.outbox.pendingCount > 0 {
///   Text("\(store.outbox.pendingCount) changes waiting to sync")
/// }
/// ```
///
/// | event | what the outbox does |
/// |---|---|
/// | ``LoaderStore/edit(_:delivery:)`` | lays the edit's optimistic change over the entries, saves the edit (written and flushed before `enqueue` returns), then sends it when its turn comes |
/// | its turn | one edit at a time per ``OutboxEdit/scope``, oldest first; scopes send in parallel |
/// | offline (``LoaderStore/connectivity`` says so) | waits for the network before sending, spending no attempt |
/// | a transient failure (any error but ``OutboxFailure/permanent(_:)``) | sends again after the handler's backoff on the store's clock, for as long as it takes |
/// | success | commits the change (it stays until a fetch carries it), invalidates ``OutboxEdit/invalidates``, removes the edit and rewrites its saved record as committed: the change is laid over every value saved before the commit, in this launch and the next, until a newer fetch lands |
/// | a permanent failure | rolls the change back; the edit stays, failed (saved as failed), until ``retry(_:)`` or ``discard(_:)`` |
/// | a refresh, invalidation or poll while edits wait | the fetched value shows with the pending changes laid over it |
/// | relaunch (a store on the same ``StorePersistence``) | restores the edits in order; once their type is registered, lays their changes over the entries (and over entries made later) and sends them |
/// | no handler for a restored edit | it stays, ``OutboxItem/Status-swift.enum/waitingForHandler``, holding up its scope; reported in ``issues`` when it does |
/// | each step of an edit's way | its ``OutboxItem/status`` says why it is not done yet: ready, sending, waiting for the network, backing off (which attempt, and when the next is), waiting behind an earlier edit of its scope, waiting to be saved, waiting for a handler, or failed |
/// | the edit cannot be saved (a full disk) | it stays in memory and on screen, is reported, and is saved again (with backoff) before it is sent |
///
/// A permanently failed edit leaves its scope's line: later edits of the scope are sent
/// without it, and ``retry(_:)`` puts it back in line before the edits not sent yet.
///
/// > Important: The handler runs again after a crash between its success and the rewrite of
/// > the saved record as committed: pass ``OutboxContext/idempotencyKey`` to the server so
/// > that it applies each edit once.
///
/// Observable: ``items`` (each edit's ``OutboxItem/status`` among them), ``pendingCount``,
/// ``failedCount`` and ``issues`` tell views when they change.
@MainActor
public final class Outbox {
  private let registrar = ObservationRegistrar()
  private let backend: (any PersistenceBackend)?
  private weak var store: LoaderStore?
  /// Every edit, in the order it was enqueued (by sequence).
  private var queue: [Queued] = []
  private var handlers: [String: OutboxHandler] = [:]
  /// The task sending each scope's edits, by scope id; `nil` while the scope has none to send.
  private var lanes: [String: Task<Void, Never>] = [:]
  private var lastSequence: UInt64 = 0
  private var storedIssues: [OutboxIssue] = []
  /// The sent edits kept to be laid over values saved before their commit.
  private(set) var committed = CommittedEdits()
  private var idleWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
  private var nextWaiterID = 0
  /// The outcome of each edit a caller may await (``EditTicket``), by id, until it ends;
  /// edits restored from an earlier launch have none (no caller awaits them).
  private var outcomes: [OutboxItem.ID: EditOutcomeBox] = [:]
  private var handlerCheckScheduled = false
  /// The lock that makes one store at a time, of every process over the outbox's directory,
  /// its sender (an app and its extension in an App Group); `nil` for a backend that is not a
  /// directory, which no other process shares. Held while a lane of this store has an edit
  /// to send, released when every lane is done.
  private let senderLock: FileLock?
  /// The persistence's `maxAge`: committed records older than that go.
  private let maxAge: Duration?
  /// When (``LoaderStore/now``) this store, holding the lock, last read the records the
  /// other processes wrote.
  private var lastSharedRead: Duration?
  /// The file names of the keys `readShared` last knew: a name is a SHA-256 of its key, and
  /// the committed log alone holds up to 500 keys, so each is hashed once, not at every read.
  private var knownFileNames: [PersistentKey: String] = [:]
  /// The lock file's name in the outbox's directory.
  static let senderLockName = ".loadables-sender.lock"
  /// How often a store that does not hold the sender lock tries to take it while it has
  /// edits to send, and how often the holder reads again what the other processes queued.
  static let senderInterval: Duration = .seconds(1)
  /// The most issues kept; older ones go first.
  private static let issueLimit = 100

  /// Restores the saved edits of `persistence`, in order; they wait for their handlers.
  init(persistence: StorePersistence?) {
    backend = persistence?.outboxBackend
    senderLock = (backend as? DirectoryPersistence)?.lock(named: Self.senderLockName)
    maxAge = persistence?.rules.maxAge
    guard let backend else { return }
    let load = backend.loadAll(OutboxRecord.rules, now: Date())
    // A temporary file is a write that never finished: the record it would have replaced is
    // intact, and an `enqueue` it belonged to never returned. Anything else is reported.
    for event in load.events {
      if case .removedTemporary = event { continue }
      report(.unreadable, nil, "the saved outbox held a file the backend removed: \(event)")
    }
    var restored: [Queued] = []
    let now = Date()
    for saved in load.records {
      do {
        let record = try JSONDecoder().decode(OutboxRecord.self, from: saved.value)
        let mark = try? JSONDecoder().decode(CommittedEdits.Mark.self, from: saved.value)
        if let committedAt = mark?.committedAt, let mark {
          committed.restore(
            record, mark: mark, committedAt: committedAt, key: saved.key,
            maxAge: persistence?.rules.maxAge, now: now, backend: backend)
          continue
        }
        restored.append(Queued(restoring: record, key: saved.key))
      } catch {
        let queued = Queued(unreadable: saved.key, savedAt: saved.savedAt, reason: "\(error)")
        report(.unreadable, queued.item.id, "a saved edit does not read back: \(error)")
        restored.append(queued)
      }
    }
    committed.sort()
    queue = restored.sorted { $0.sequence < $1.sequence }
    lastSequence = queue.last?.sequence ?? 0
    for scopeID in Set(queue.map(\.scopeID)) { decide(scopeID) }
  }

  deinit {
    for lane in lanes.values { lane.cancel() }
    // The sender lock goes with `senderLock` (its file is closed).
    // The store went away before these edits ended: their callers stop waiting. A saved edit
    // is sent after the next launch.
    for box in outcomes.values { box.finish(.unfinished) }
  }

  func attach(to store: LoaderStore) {
    self.store = store
    scheduleHandlerCheck()
  }

  // MARK: - Observing

  /// Every edit in the outbox, oldest first, each with its ``OutboxItem/status``: what it
  /// waits for, whether it is being sent, or why it failed. Observable: observers are told of
  /// each change of an edit's status, as of edits coming and going.
  public var items: [OutboxItem] {
    registrar.access(self, keyPath: \.items)
    return queue.map(\.item)
  }

  /// How many edits the outbox sends on its own: waiting to be sent, or being sent. The "3
  /// changes waiting to sync" of a screen, and what ``untilIdle()`` waits for. Failed edits
  /// (``failedCount``) and stuck ones (``stuckCount``) do not count. Observable.
  public var pendingCount: Int {
    registrar.access(self, keyPath: \.items)
    return counts.pending
  }

  /// How many edits wait for something only the app can do: an edit whose type has no
  /// registered handler (``OutboxItem/Status-swift.enum/waitingForHandler``, reported in
  /// ``issues``), and the edits of its scope waiting behind it. They are kept (never dropped)
  /// until the type is registered, or the app discards them. Observable.
  ///
  /// ```swift
  /// await store.outbox.untilIdle()
  /// if store.outbox.stuckCount > 0 {
  ///   // edits this version of the app cannot send: keep them for the next version,
  ///   // or discard them on purpose
  /// }
  /// ```
  public var stuckCount: Int {
    registrar.access(self, keyPath: \.items)
    return counts.stuck
  }

  /// How many edits failed for good and wait for ``retry(_:)`` or ``discard(_:)``.
  /// Observable.
  public var failedCount: Int {
    registrar.access(self, keyPath: \.items)
    return queue.count { $0.item.status.isFailed }
  }

  /// Whether no edit is pending or sending: ``pendingCount`` is zero. Failed and stuck edits
  /// (``stuckCount``) do not count: nothing happens to them on their own. Observable.
  public var isIdle: Bool {
    registrar.access(self, keyPath: \.items)
    return idle
  }

  /// What the outbox could not do as it should, oldest first (the last 100): edits not saved,
  /// records not removed, unreadable files, edits whose type has no registered handler
  /// (each reported once the code that made the store, or enqueued the edit, has yielded the
  /// main actor without registering the type, and by ``untilIdle()``). Observable.
  public var issues: [OutboxIssue] {
    registrar.access(self, keyPath: \.issues)
    return storedIssues
  }

  /// Returns once no edit is pending or sending (see ``isIdle``): at once when none is, or
  /// when the calling task is cancelled.
  ///
  /// It waits for every edit that can still be sent, and never for a stuck one
  /// (``stuckCount``: an edit whose type has no handler, and those behind it), which would
  /// wait forever; it reports those in ``issues`` and leaves them in the outbox.
  ///
  /// ```swift
  /// store.edit(RenamePost(id: 1, title: "New"))
  /// await store.outbox.untilIdle()
  /// ```
  public func untilIdle() async {
    reportMissingHandlers()
    guard !idle else { return }
    nextWaiterID += 1
    let id = nextWaiterID
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if idle || Task.isCancelled {
          continuation.resume()
        } else {
          idleWaiters[id] = continuation
        }
      }
    } onCancel: {
      Task { @MainActor in self.idleWaiters.removeValue(forKey: id)?.resume() }
    }
  }

  /// Each edit's id, its scope when its value is known, and its scope's saved identity, oldest
  /// first (for ``LoaderStore/remove(_:matching:pendingEdits:)``).
  var scopedItems: [(id: OutboxItem.ID, scope: LoadKey?, scopeID: String)] {
    queue.map { ($0.item.id, $0.edit?.scope, $0.scopeID) }
  }

  // MARK: - Acting on edits

  /// Queues a failed edit again: lays its change over the entries again, saves it with a new
  /// idempotency key (the failed send had no effect) and sends it before the edits of its
  /// scope not sent yet.
  ///
  /// <!-- compile: context OutboxView -->
  /// ```swift
  /// Button("Retry") { store.outbox.retry(item.id) }
  /// ```
  ///
  /// - Parameter id: The edit's ``OutboxItem/id``.
  /// - Returns: Whether the edit was queued again: `false` when it is not failed, not in the
  ///   outbox, or cannot be read back (its type has no handler, or it does not decode).
  @discardableResult
  public func retry(_ id: OutboxItem.ID) -> Bool {
    guard let queued = queue.first(where: { $0.item.id == id }), queued.isFailed,
      queued.edit != nil
    else { return false }
    change([queued.scopeID]) {
      queued.failure = nil
      queued.idempotencyKey = UUID().uuidString
      queued.item.lastError = nil
      queued.activity = .idle
    }
    if LoadEvents.isOn { reportEvent(.editQueued, queued, detail: "retried") }
    apply(queued)
    save(queued)
    kick(queued.scopeID)
    return true
  }

  /// Removes an edit that is not being sent: its change leaves the entries (as a rollback
  /// does) and its saved record is removed.
  ///
  /// <!-- compile: context OutboxView -->
  /// ```swift
  /// Button("Discard") { store.outbox.discard(item.id) }
  /// ```
  ///
  /// - Parameter id: The edit's ``OutboxItem/id``.
  /// - Returns: Whether the edit was removed: `false` when it is not in the outbox, or its
  ///   handler runs now (the server may apply it; wait for the outcome, then discard it if
  ///   it failed).
  @discardableResult
  public func discard(_ id: OutboxItem.ID) -> Bool {
    guard let index = queue.firstIndex(where: { $0.item.id == id }),
      queue[index].activity != .sending
    else { return false }
    let queued = queue[index]
    let wasHead = head(of: queued.scopeID) == queued.item.id
    change([queued.scopeID]) { queue.remove(at: index) }
    rollBack(queued, error: nil)
    removeRecord(queued, "a discarded edit's record could not be removed")
    end(queued, .discarded)
    if wasHead {
      // Its lane waits for it (for the network, or out its backoff): the next edit of the
      // scope need not wait for that, so a new lane starts with it.
      lanes.removeValue(forKey: queued.scopeID)?.cancel()
    }
    kick(queued.scopeID)
    return true
  }

  // MARK: - Registering and enqueueing (through LoaderStore)

  func register<Edit: OutboxEdit>(
    _ type: Edit.Type, backoff: Backoff,
    handler: @escaping @MainActor (Edit, OutboxContext) async throws -> Void
  ) {
    if let existing = handlers[Edit.name] {
      precondition(
        existing.type == ObjectIdentifier(Edit.self),
        "LoaderStore.register(\(Edit.self)): the name \"\(Edit.name)\" is already registered "
          + "for \(existing.typeName); give each OutboxEdit type its own name")
    }
    handlers[Edit.name] = OutboxHandler(type, backoff: backoff, handler: handler)
    // The committed edits first: they are older than any edit still queued.
    readCommitted(type)
    var scopes: [String] = []
    for queued in queue where queued.item.name == Edit.name && !queued.isUnreadable {
      if !scopes.contains(queued.scopeID) { scopes.append(queued.scopeID) }
      let isRestored = queued.edit == nil
      if isRestored, let payload = queued.payload {
        do {
          queued.edit = try JSONDecoder().decode(Edit.self, from: payload)
        } catch {
          // Failed in memory only: the record stays as it was, to be read by a later version.
          queued.failure = "the saved edit does not decode as \(Edit.self): \(error)"
          report(.unreadable, queued.item.id, "a saved edit does not decode: \(error)")
          if LoadEvents.isOn {
            reportEvent(.editFailed, queued, error: error, detail: "the saved edit does not decode")
          }
          continue
        }
      }
      queued.hasHandler = queued.edit != nil
      // A saved edit read back: queued again, in this launch, now that it has a handler.
      if isRestored, queued.hasHandler, LoadEvents.isOn {
        reportEvent(.editQueued, queued, detail: "restored from an earlier launch")
      }
      if !queued.isFailed { apply(queued) }
    }
    redecide(scopes)
    for scope in scopes { kick(scope) }
  }

  /// Reads back the committed edits of `Edit` and lays them over the entries made before
  /// its type was registered (see `CommittedEdits.swift`).
  private func readCommitted<Edit: OutboxEdit>(_: Edit.Type) {
    var read = false
    for saved in committed.edits where saved.name == Edit.name && saved.edit == nil {
      do {
        saved.edit = try JSONDecoder().decode(Edit.self, from: saved.payload)
        read = true
      } catch {
        report(.unreadable, nil, "a committed edit does not decode as \(Edit.self): \(error)")
      }
    }
    guard read, let store else { return }
    for entry in store.entries.values { committed.lay(over: entry, named: Edit.name, in: store) }
  }

  /// Lays the committed edits over `entry`, just made from a saved value.
  func layCommittedEdits(over entry: any AnySharedEntry) {
    guard let store, !committed.edits.isEmpty else { return }
    committed.lay(over: entry, in: store)
  }

  /// Forgets the committed edits (every saved value was removed).
  func removeCommittedEdits() {
    guard let backend else { return }
    committed.removeAll(backend: backend)
  }

  func enqueue<Edit: OutboxEdit>(_ edit: Edit, delivery: EditDelivery) -> EditTicket {
    // Later than every edit this store knows, and than the wall clock in nanoseconds: the
    // edits of two processes over one directory, read into one queue, keep the order in
    // which they were enqueued (each process's own in any case).
    lastSequence = max(lastSequence + 1, UInt64(max(0, FileCalls.now())))
    var payload: Data?
    do {
      payload = try JSONEncoder().encode(edit)
    } catch {
      payload = nil
    }
    let sendsOnce = delivery == .now
    let queued = Queued(
      edit: edit, payload: payload, sequence: lastSequence, sendsOnce: sendsOnce)
    let box = EditOutcomeBox()
    outcomes[queued.item.id] = box
    queued.hasHandler = handlers[Edit.name] != nil
    change([queued.scopeID]) { queue.append(queued) }
    if LoadEvents.isOn { reportEvent(.editQueued, queued) }
    apply(queued)
    if sendsOnce {
      queued.isSaved = true  // never saved: it lives in this launch only
    } else {
      if payload == nil {
        report(
          .notSaved, queued.item.id,
          "\(Edit.self) does not encode, so it is sent but cannot survive a relaunch")
      }
      save(queued)
    }
    if !queued.hasHandler { scheduleHandlerCheck() }
    kick(queued.scopeID)
    return EditTicket(id: queued.item.id, box: box)
  }

  /// Ends the wait of the callers of `queued` (its ``EditTicket``) with `outcome`.
  private func end(_ queued: Queued, _ outcome: EditOutcome) {
    outcomes.removeValue(forKey: queued.item.id)?.finish(outcome)
  }

  /// Takes an edit sent once (``EditDelivery/now``) out after it failed: its change rolls
  /// back, and it ends.
  private func dropSentOnce(_ queued: Queued, error: any Error) {
    if LoadEvents.isOn {
      reportEvent(.editFailed, queued, attempt: queued.item.attempt, error: error)
    }
    rollBack(queued, error: error)
    change([queued.scopeID]) { queue.removeAll { $0 === queued } }
    end(queued, .rolledBack(error))
  }

  // MARK: - Entries

  /// Whether a queued edit's change is laid over entries now.
  var hasAppliedEdits: Bool { queue.contains { $0.isApplied } }

  /// Lays the change of every queued edit that shows one over `entry`, just made, in order.
  func layEdits(over entry: any AnySharedEntry) {
    guard let store else { return }
    for queued in queue where queued.isApplied {
      guard let edit = queued.edit else { continue }
      var shared = SharedEdit(outboxEdit: queued.editID, only: entry)
      edit.applyOptimistically(to: &shared, in: store)
      queued.touched += shared.entries
    }
  }

  private func apply(_ queued: Queued) {
    guard let store, let edit = queued.edit, !queued.isApplied else { return }
    store.nextEditID += 1
    queued.editID = store.nextEditID
    var shared = SharedEdit(outboxEdit: queued.editID)
    edit.applyOptimistically(to: &shared, in: store)
    queued.touched = shared.entries
    queued.isApplied = true
  }

  /// Takes `queued`'s change back from the entries: it failed with `error`, or (with none)
  /// was discarded.
  private func rollBack(_ queued: Queued, error: (any Error)?) {
    guard queued.isApplied else { return }
    for entry in queued.touched { entry.rollBackEdit(queued.editID, error: error) }
    queued.touched = []
    queued.isApplied = false
  }

  private func commit(_ queued: Queued) {
    guard queued.isApplied else { return }
    for entry in queued.touched { entry.commitEdit(queued.editID, saving: true) }
    queued.touched = []
    queued.isApplied = false
  }

  // MARK: - Saving

  /// Writes `queued`'s record; on failure it stays in memory, marked unsaved, and is
  /// reported. An edit that does not encode counts as saved: it never can be.
  @discardableResult
  private func save(_ queued: Queued) -> Bool {
    guard let backend, let payload = queued.payload, !queued.sendsOnce else {
      queued.isSaved = true
      if !queued.sendsOnce { outcomes[queued.item.id]?.markQueued() }
      return true
    }
    let record = record(queued, payload: payload)
    do {
      let bytes = try JSONEncoder().encode(record)
      try backend.write(
        PersistedRecord(
          key: queued.key, value: bytes, savedAt: queued.item.enqueuedAt,
          version: OutboxRecord.rules.version),
        rules: OutboxRecord.rules)
      queued.isSaved = true
      outcomes[queued.item.id]?.markQueued()
      return true
    } catch {
      queued.isSaved = false
      report(.notSaved, queued.item.id, "the edit could not be saved (kept in memory): \(error)")
      return false
    }
  }

  /// The record saved for `queued`.
  private func record(_ queued: Queued, payload: Data) -> OutboxRecord {
    OutboxRecord(
      id: queued.item.id, name: queued.item.name, scopeID: queued.scopeID,
      scope: queued.item.scopeText, idempotencyKey: queued.idempotencyKey,
      sequence: queued.sequence, enqueuedAt: queued.item.enqueuedAt, failure: queued.failure,
      payload: payload)
  }

  /// Removes a sent edit from the outbox, and its record from storage.
  private func removeSent(_ queued: Queued) {
    removeRecord(
      queued,
      "a sent edit's record could not be removed (it is sent again, "
        + "with the same idempotency key, after a relaunch)")
    change([queued.scopeID]) { queue.removeAll { $0 === queued } }
  }

  private func removeRecord(_ queued: Queued, _ message: String) {
    guard let backend, !queued.sendsOnce else { return }
    do {
      try backend.remove(queued.key)
    } catch {
      report(.notRemoved, queued.item.id, "\(message): \(error)")
    }
  }

  // MARK: - Sending

  /// What a scope's lane does next.
  private enum LaneStep {
    case done
    case waitOnline(Connectivity)
    case sleep(Duration, any Clock<Duration>)
    case send(Queued, OutboxHandler, any OutboxEdit, OutboxContext)
  }

  /// Starts sending `scopeID`'s edits, unless its lane runs already.
  private func kick(_ scopeID: String) {
    guard lanes[scopeID] == nil, store != nil else { return }
    // The lane holds the outbox weakly: it must not keep a dropped store's outbox alive while
    // it waits for the network or a backoff. A cancelled lane (its edit discarded while it
    // waited, see `discard`) asks for no next step: a new lane has its scope.
    lanes[scopeID] = Task { @MainActor [weak self] in
      while !Task.isCancelled {
        guard let step = self?.nextStep(scopeID) else { return }
        switch step {
        case .done:
          return
        case .waitOnline(let connectivity):
          await connectivity.untilOnline()
        case .sleep(let delay, let clock):
          try? await clock.sleep(for: delay)
        case .send(let queued, let handler, let edit, let context):
          var failure: (any Error)?
          do {
            try await handler.send(edit, context)
          } catch {
            failure = error
          }
          switch self?.sent(queued, handler: handler, failure: failure) {
          case .sleep(let delay, let clock)? where !Task.isCancelled:
            try? await clock.sleep(for: delay)
          default:
            break
          }
        }
      }
    }
  }

  /// The next edit of `scopeID` to send, or what to wait for first; `.done` ends the lane.
  ///
  /// `justRead`: the records were read again in this step (they are not read twice).
  private func nextStep(_ scopeID: String, justRead: Bool = false) -> LaneStep {
    for queued in queue where queued.scopeID == scopeID { queued.activity = .idle }
    guard let store,
      let queued = queue.first(where: { $0.scopeID == scopeID && !$0.isFailed })
    else {
      // Before the scope counts as empty: what another process queued in it meanwhile.
      if !justRead, store != nil, senderLock?.isHeld == true {
        readShared()
        return nextStep(scopeID, justRead: true)
      }
      endLane(scopeID)
      return .done
    }
    guard let edit = queued.edit, let handler = handlers[queued.item.name] else {
      reportNoHandler(queued)
      endLane(scopeID)
      redecide([scopeID])
      return .done
    }
    if !queued.isSaved, !save(queued) {
      queued.saveFailures += 1
      let delay = handler.backoff.delay(forRetry: queued.saveFailures)
      queued.activity = .savingAgain(
        attempt: queued.saveFailures, nextTry: store.wallDate(at: store.now + delay))
      redecide([scopeID])
      return .sleep(delay, store.clock)
    }
    if !store.network.isOnlineNow {
      if queued.sendsOnce {
        dropSentOnce(queued, error: EditOffline())
        return nextStep(scopeID)
      }
      redecide([scopeID])
      return .waitOnline(store.network)
    }
    switch senderTurn(justRead: justRead) {
    case .send:
      break
    case .readAgain:
      return nextStep(scopeID, justRead: true)
    case .wait:
      redecide([scopeID])
      return .sleep(Self.senderInterval, store.clock)
    }
    change([scopeID]) {
      queued.item.attempt += 1
      queued.activity = .sending
    }
    let context = OutboxContext(
      idempotencyKey: queued.idempotencyKey, attempt: queued.item.attempt, id: queued.item.id)
    if LoadEvents.isOn { reportEvent(.editSent, queued, attempt: queued.item.attempt) }
    return .send(queued, handler, edit, context)
  }

  /// The handler of `queued` returned or threw; returns what the lane does before its next
  /// edit (a backoff), if any.
  private func sent(_ queued: Queued, handler: OutboxHandler, failure: (any Error)?) -> LaneStep? {
    guard let store else { return nil }
    switch failure {
    case nil:
      commit(queued)
      end(queued, .committed)
      for key in queued.edit?.invalidates ?? [] {
        store.invalidate(key, .outboxEdit(queued.item.name))
      }
      // The record is rewritten as committed, in place, rather than removed: values saved
      // before the commit, in memory or not, get the edit laid over them at every later
      // restore (`CommittedEdits.swift`). Killed before the write, the edit is still pending
      // at the next launch and is sent again (its idempotency key makes that harmless).
      if let backend, store.persister != nil, let edit = queued.edit, let payload = queued.payload {
        do {
          try committed.commit(
            record(queued, payload: payload), edit: edit, key: queued.key, at: store.wallNow,
            backend: backend)
        } catch {
          report(
            .notSaved, queued.item.id,
            "a sent edit could not be saved as committed (it is sent again, with the same "
              + "idempotency key, after a relaunch): \(error)")
        }
        change([queued.scopeID]) { queue.removeAll { $0 === queued } }
        return nil
      }
      removeSent(queued)
      return nil
    case let failure? where queued.sendsOnce:
      let cause: any Error
      if case .permanent(let error) = failure as? OutboxFailure {
        cause = error
      } else {
        cause = failure
      }
      dropSentOnce(queued, error: cause)
      return nil
    case let failure as OutboxFailure:
      let reason: String
      let cause: any Error
      switch failure {
      case .permanent(let error):
        reason = "\(error)"
        cause = error
      }
      if LoadEvents.isOn {
        reportEvent(.editFailed, queued, attempt: queued.item.attempt, error: cause)
      }
      rollBack(queued, error: cause)
      change([queued.scopeID]) {
        queued.item.lastError = reason
        queued.failure = reason
        queued.activity = .idle
      }
      save(queued)
      end(queued, .failed(cause))
      return nil
    case let failure?:
      let delay = handler.backoff.delay(forRetry: queued.item.attempt)
      change([queued.scopeID]) {
        queued.item.lastError = "\(failure)"
        queued.activity = .backingOff(
          attempt: queued.item.attempt, nextTry: store.wallDate(at: store.now + delay))
      }
      return .sleep(delay, store.clock)
    }
  }

  // MARK: - Sharing the directory with other processes

  /// Whether a lane may send now.
  private enum SenderTurn {
    /// This store holds the sender lock (or needs none).
    case send
    /// It has just read what the other processes queued: the lane decides again.
    case readAgain
    /// Another store holds the lock: the lane tries again after ``senderInterval``; its
    /// edits stay saved and pending.
    case wait
  }

  /// The one place that decides whether this store sends: it holds the sender lock of the
  /// outbox's directory, or takes it now (then reads what the other processes queued, and
  /// what they sent, before anything is sent), or cannot (another process, or another store
  /// over the same directory, sends). The holder reads again every ``senderInterval``, so
  /// that the edits another process queues meanwhile are sent too.
  private func senderTurn(justRead: Bool) -> SenderTurn {
    guard let senderLock, let store else { return .send }
    if senderLock.isHeld {
      if justRead { return .send }
      if let last = lastSharedRead, store.now - last < Self.senderInterval { return .send }
      readShared()
      return .readAgain
    }
    guard senderLock.tryLock() else { return .wait }
    readShared(includingOwn: true)
    return .readAgain
  }

  /// Ends `scopeID`'s lane; with no lane left, this store has nothing to send: it lets
  /// another process send.
  private func endLane(_ scopeID: String) {
    lanes[scopeID] = nil
    if lanes.isEmpty {
      senderLock?.unlock()
      lastSharedRead = nil
    }
  }

  /// Reads the outbox's records as the stores of other processes over its directory left
  /// them (this store holds the sender lock, so no other sends now): an edit of this queue
  /// whose record is now committed, or gone, was sent by another (it commits here, its
  /// change staying until a fetch carries it, and its ticket ends committed); one whose
  /// record failed for good, failed there; a record this queue does not know, another
  /// process queued: it joins the line by its sequence and is sent from here.
  ///
  /// `includingOwn`: this queue's own records are read only when the lock was just taken.
  /// While this store holds the lock no other sends, so none of its edits can have been sent
  /// or failed elsewhere meanwhile; reading each of them again at every lane's end and every
  /// ``senderInterval`` made a long queue's drain slower with every edit waiting.
  private func readShared(includingOwn: Bool = false) {
    guard let backend, let store else { return }
    lastSharedRead = store.now
    guard let directory = backend as? DirectoryPersistence else { return }
    let (rules, now, decoder) = (OutboxRecord.rules, Date(), JSONDecoder())
    var events: [PersistenceEvent] = []
    // This queue's edits: each record read by its key (a few files, not the directory).
    var onDisk: [PersistentKey: PersistedRecord] = [:]
    var sentElsewhere: [Queued] = []
    var failedElsewhere: [(Queued, String)] = []
    for queued in includingOwn ? queue : []
    where !queued.sendsOnce && queued.isSaved && !queued.isUnreadable && !queued.isFailed
      && queued.activity != .sending
    {
      let load = backend.read(queued.key, rules: rules, now: now)
      events += load.events
      guard let saved = load.records.first else {
        // Removed as unreadable: saved again before it is sent (sent twice at worst, under
        // one idempotency key), never taken as sent elsewhere.
        if load.events.isEmpty { sentElsewhere.append(queued) } else { queued.isSaved = false }
        continue
      }
      onDisk[queued.key] = saved
      if (try? decoder.decode(CommittedEdits.Mark.self, from: saved.value))?.committedAt != nil {
        sentElsewhere.append(queued)
      } else if let failure = (try? decoder.decode(OutboxRecord.self, from: saved.value))?.failure {
        failedElsewhere.append((queued, failure))
      }
    }
    // The records of other processes: only the files this store knows no key for are read.
    var names: [PersistentKey: String] = [:]
    for key in queue.map(\.key) + committed.edits.map(\.key) {
      names[key] = knownFileNames[key] ?? directory.fileName(for: key)
    }
    knownFileNames = names
    let known = Set(names.values)
    let load = directory.readRecords(notNamed: known, rules: rules, now: now)
    events += load.events
    for event in events {
      report(.unreadable, nil, "the saved outbox held a file the backend removed: \(event)")
    }
    var joined: [Queued] = []
    var committedElsewhere = false
    for saved in load.records {
      do {
        let record = try decoder.decode(OutboxRecord.self, from: saved.value)
        let mark = try? decoder.decode(CommittedEdits.Mark.self, from: saved.value)
        if let committedAt = mark?.committedAt, let mark {
          committed.restore(
            record, mark: mark, committedAt: committedAt, key: saved.key,
            maxAge: maxAge, now: now, backend: backend)
          committedElsewhere = true
          continue
        }
        let queued = Queued(restoring: record, key: saved.key)
        if record.failure == nil, let handler = handlers[record.name] {
          queued.edit = try? handler.decode(record.payload)
          queued.hasHandler = queued.edit != nil
        }
        joined.append(queued)
      } catch {
        let queued = Queued(unreadable: saved.key, savedAt: saved.savedAt, reason: "\(error)")
        report(.unreadable, queued.item.id, "a saved edit does not read back: \(error)")
        joined.append(queued)
      }
    }
    if committedElsewhere {
      for saved in committed.edits where saved.edit == nil {
        saved.edit = handlers[saved.name].flatMap { try? $0.decode(saved.payload) }
      }
      committed.sort()
    }
    guard !sentElsewhere.isEmpty || !failedElsewhere.isEmpty || !joined.isEmpty else { return }
    let scopes = Array(
      Set(sentElsewhere.map(\.scopeID) + failedElsewhere.map(\.0.scopeID) + joined.map(\.scopeID)))
    let ended = Set(sentElsewhere.map(ObjectIdentifier.init))
    change(scopes) {
      queue.removeAll { ended.contains(ObjectIdentifier($0)) }
      for (queued, failure) in failedElsewhere {
        queued.failure = failure
        queued.item.lastError = failure
      }
      queue += joined
      queue.sort { ($0.sequence, $0.item.id) < ($1.sequence, $1.item.id) }
    }
    lastSequence = max(lastSequence, queue.last?.sequence ?? 0)
    for queued in sentElsewhere {
      if let edit = queued.edit, let payload = queued.payload,
        let saved = onDisk[queued.key],
        let mark = try? decoder.decode(CommittedEdits.Mark.self, from: saved.value),
        let committedAt = mark.committedAt
      {
        let count = committed.edits.count
        committed.restore(
          record(queued, payload: payload), mark: mark, committedAt: committedAt,
          key: queued.key, maxAge: maxAge, now: now, backend: backend)
        if committed.edits.count > count { committed.edits.last?.edit = edit }
        committed.sort()
      }
      commit(queued)
      end(queued, .committed)
    }
    for (queued, failure) in failedElsewhere {
      let error = OutboxFailedElsewhere(reason: failure)
      rollBack(queued, error: error)
      end(queued, .failed(error))
    }
    for queued in joined where queued.hasHandler && !queued.isFailed { apply(queued) }
    for scopeID in scopes { kick(scopeID) }
  }

  // MARK: - Bookkeeping

  private var idle: Bool { counts.pending == 0 }

  /// How many edits the outbox sends on its own (pending), and how many wait for the app
  /// (stuck: no handler for their type, or behind such an edit in their scope), from the
  /// statuses ``OutboxLine`` decided.
  private var counts: (pending: Int, stuck: Int) {
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
  private func scheduleHandlerCheck() {
    guard !handlerCheckScheduled else { return }
    handlerCheckScheduled = true
    Task { @MainActor [weak self] in
      guard let self else { return }
      handlerCheckScheduled = false
      reportMissingHandlers()
    }
  }

  /// Reports each edit waiting for a handler that is not reported yet.
  private func reportMissingHandlers() {
    for queued in queue where queued.item.status == .waitingForHandler {
      reportNoHandler(queued)
    }
  }

  /// Reports once that `queued`'s type has no handler.
  private func reportNoHandler(_ queued: Queued) {
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

  private func scopeWords(_ queued: Queued) -> String {
    queued.item.scopeKey.map { "\($0)" } ?? queued.item.scopeText
  }

  /// The id of the edit of `scopeID` that goes first: the one its lane sends or waits on, else
  /// the first not failed (``OutboxLine/head(of:)``).
  private func head(of scopeID: String) -> OutboxItem.ID? {
    OutboxLine.head(of: queue.lazy.filter { $0.scopeID == scopeID }.map(facts))
  }

  private func facts(_ queued: Queued) -> OutboxLine.Edit {
    OutboxLine.Edit(
      id: queued.item.id, failure: queued.failure,
      hasHandler: queued.hasHandler,
      activity: queued.activity)
  }

  /// Applies `body` to each edit of `scopeID` with the status ``OutboxLine`` decides for it
  /// (written out with lazy sequences: no array is made on a path every edit takes).
  private func forEachDecision(
    _ scopeID: String, _ body: (Queued, OutboxItem.Status) -> Void
  ) {
    let inScope = queue.lazy.filter { $0.scopeID == scopeID }
    let head = OutboxLine.head(of: inScope.map(facts))
    let isOnline = store?.network.isOnlineNow ?? true
    for queued in inScope {
      body(queued, OutboxLine.status(of: facts(queued), head: head, isOnline: isOnline))
    }
  }

  /// Writes the statuses ``OutboxLine`` decides for `scopeID`'s edits.
  private func decide(_ scopeID: String) {
    forEachDecision(scopeID) { queued, status in
      if queued.item.status != status { queued.item.status = status }
    }
  }

  /// Makes `body`'s change to the items (an edit coming or going, or one of its fields), then
  /// decides the statuses of the edits of `scopes` again, all inside one Observation mutation
  /// of ``items``: observers are told before anything changes, so an observer reading the
  /// items then still sees the ones this replaces. Resumes the idle waiters once idle.
  private func change(_ scopes: [String], _ body: () -> Void) {
    registrar.withMutation(of: self, keyPath: \.items) {
      body()
      for scopeID in scopes { decide(scopeID) }
    }
    resumeIdleWaiters()
  }

  /// Decides the statuses of the edits of `scopes` again after a fact that is not part of the
  /// items changed (connectivity, a handler, what a lane does); tells observers only when a
  /// status changed.
  private func redecide(_ scopes: [String]) {
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
  private func resumeIdleWaiters() {
    guard idle, !idleWaiters.isEmpty else { return }
    let waiters = idleWaiters.sorted { $0.key < $1.key }.map(\.value)
    idleWaiters = [:]
    for waiter in waiters { waiter.resume() }
  }

  private func report(_ kind: OutboxIssue.Kind, _ id: OutboxItem.ID?, _ message: String) {
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
  private func reportEvent(
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
}

extension Outbox: Observable {}

/// An edit failed for good in another process over the same directory (its store sent it).
struct OutboxFailedElsewhere: Error, CustomStringConvertible {
  let reason: String
  var description: String { reason }
}

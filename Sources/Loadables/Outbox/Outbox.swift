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
/// | a permanent failure | rolls the change back; the edit stays, failed (saved as failed, with its error's type name: ``OutboxItem/failure``), until ``retry(_:)`` or ``discard(_:)`` |
/// | a refresh, invalidation or poll while edits wait | the fetched value shows with the pending changes laid over it |
/// | relaunch (a store on the same ``StorePersistence``) | restores the edits in order; once their type is registered, lays their changes over the entries (and over entries made later) and sends them |
/// | no handler for a restored edit | it stays, ``OutboxItem/Status-swift.enum/waitingForHandler``, holding up its scope; reported once in ``issues``, whether or not another edit waits behind it |
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
  /// Made at the first observation or change, not at every launch.
  lazy var registrar = ObservationRegistrar()
  let backend: (any PersistenceBackend)?
  weak var store: LoaderStore?
  /// Every edit, in the order it was enqueued (by sequence).
  var queue: [Queued] = []
  var handlers: [String: OutboxHandler] = [:]
  /// The task sending each scope's edits, by scope id; `nil` while the scope has none to send.
  var lanes: [String: Task<Void, Never>] = [:]
  var lastSequence: UInt64 = 0
  var storedIssues: [OutboxIssue] = []
  /// The sent edits kept to be laid over values saved before their commit.
  var committed = CommittedEdits()
  /// The tasks waiting in ``untilIdle()``; made at the first change of the items or wait,
  /// not at every launch.
  lazy var idleWaiters = WakeList()
  /// The outcome of each edit a caller may await (``EditTicket``), by id, until it ends;
  /// edits restored from an earlier launch have none (no caller awaits them).
  var outcomes: [OutboxItem.ID: EditOutcomeBox] = [:]
  var handlerCheckScheduled = false
  /// The lock that makes one store at a time, of every process over the outbox's directory,
  /// its sender (an app and its extension in an App Group); `nil` for a backend that is not a
  /// directory, which no other process shares. Held while a lane of this store has an edit
  /// to send, released when every lane is done; with it, the signs that another store wrote
  /// (`SenderLock`).
  ///
  /// Made at its first use, not at every launch: a store that never sends pays nothing.
  lazy var senderLock: SenderLock? = (backend as? DirectoryPersistence).map {
    SenderLock($0.lock(named: Self.senderLockName))
  }
  /// The persistence's `maxAge`: committed records older than that go.
  let maxAge: Duration?
  /// When (``LoaderStore/now``) this store, holding the lock, last read the records the
  /// other processes wrote.
  var lastSharedRead: Duration?
  /// The file names of the keys `readShared` last knew: a name is a SHA-256 of its key, and
  /// the committed log alone holds up to 500 keys, so each is hashed once, not at every read.
  var knownFileNames: [PersistentKey: String] = [:]
  /// The spellings of the scopes edits were enqueued in, made once per scope (`spelling(of:)`).
  var scopeSpellings: [LoadKey: ScopeSpelling] = [:]
  /// The most scope spellings kept; all go when there are more.
  static let scopeSpellingLimit = 256
  /// The lock file's name in the outbox's directory.
  static let senderLockName = ".loadables-sender.lock"
  /// How often a store that does not hold the sender lock tries to take it while it has
  /// edits to send.
  static let senderInterval: Duration = .seconds(1)
  /// How long the holder of the sender lock sends without looking for what the other stores
  /// queued: not at all. It looks for their sign (one `access` call) before every send, so an
  /// edit another store queued before one of this store's, in a scope, is read and sent first:
  /// looking once a second let the holder send a later edit ahead of it, and when that
  /// sender died after the server applied its edit, the next sender sent the earlier one
  /// first and committed the two in another order than the server applied them.
  static let lookInterval: Duration = .zero
  /// The most issues kept; older ones go first.
  static let issueLimit = 100

  /// Restores the saved edits of `persistence`, in order; they wait for their handlers.
  init(persistence: StorePersistence?) {
    // Unwrapped once: each optional chain through `persistence` copies it.
    guard let persistence else {
      backend = nil
      maxAge = nil
      return
    }
    let backend = persistence.outboxBackend
    self.backend = backend
    maxAge = persistence.rules.maxAge
    let load = backend.loadAll(OutboxRecord.rules, now: Date())
    // A temporary file is a write that never finished: the record it would have replaced is
    // intact, and an `enqueue` it belonged to never returned. Anything else is reported.
    for event in load.events {
      if case .removedTemporary = event { continue }
      report(.unreadable, nil, "the saved outbox held a file the backend removed: \(event)")
    }
    guard !load.records.isEmpty else { return }
    var restored: [Queued] = []
    let now = Date()
    for saved in load.records {
      do {
        let (record, mark) = try OutboxRecord.read(saved.value)
        if let mark, let committedAt = mark.committedAt {
          committed.restore(
            record, mark: mark, committedAt: committedAt, key: saved.key,
            maxAge: maxAge, now: now, backend: backend)
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
    // Only a restored edit can wait for a handler at launch; with none, there is nothing to
    // report once the launch yields (and no task to start at every store's launch).
    if queue.contains(where: { $0.item.status == .waitingForHandler }) { scheduleHandlerCheck() }
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
    await idleWaiters.wait(until: { idle })
  }

  /// Each edit's id, its scope when its value is known, and its scope's saved identity, oldest
  /// first (for ``LoaderStore/remove(_:matching:pendingEdits:)``).
  var scopedItems: [(id: OutboxItem.ID, scope: LoadKey?, scopeID: String)] {
    queue.map { ($0.item.id, $0.edit?.scope, $0.scopeID) }
  }
}

extension Outbox: Observable {}

import Foundation

/// Acting on the edits: what the app and the store do to them (retry, discard,
/// register a handler, enqueue), and how an edit ends.
extension Outbox {
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
      queued.idempotencyKey = OutboxRecord.newID()
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
    guard let queued = queue.first(where: { $0.item.id == id }), queued.activity != .sending
    else { return false }
    discard(queued)
    return true
  }

  /// Takes `queued` out of the outbox for good, whatever it is doing: its change leaves the
  /// entries (as a rollback does), its saved record is removed, its callers learn it was
  /// discarded, and it is never laid over an entry again. Returns the item as it was.
  ///
  /// An edit whose handler runs (only a removal discards one,
  /// ``LoaderStore/PendingEdits/discard``) is let finish: its lane goes on waiting for the
  /// handler, so the next edit of its scope is still sent after it, and what the send does
  /// then is neither committed, saved nor sent again (``endDiscardedSend(_:)``). The server
  /// may apply it: the item returned says so (``OutboxItem/Status-swift.enum/sending``).
  @discardableResult
  func discard(_ queued: Queued) -> OutboxItem {
    let item = queued.item
    let isSending = queued.activity == .sending
    let wasHead = head(of: queued.scopeID) == queued.item.id
    queued.isDiscarded = true
    change([queued.scopeID]) { queue.removeAll { $0 === queued } }
    rollBack(queued, error: nil)
    removeRecord(queued, "a discarded edit's record could not be removed")
    end(queued, .discarded)
    if wasHead, !isSending {
      // Its lane waits for it (for the network, or out its backoff): the next edit of the
      // scope need not wait for that, so a new lane starts with it.
      lanes.removeValue(forKey: queued.scopeID)?.cancel()
    }
    kick(queued.scopeID)
    return item
  }

  /// The send of an edit discarded while its handler ran has ended: it left the outbox then,
  /// so whatever the handler did, nothing of it is laid, committed, saved, invalidated or
  /// sent again. The lane goes on with the next edit of the scope.
  func endDiscardedSend(_ queued: Queued) -> LaneStep? {
    queued.activity = .idle
    return nil
  }

  /// Whether another store over the outbox's directory discarded `queued` while this one sent
  /// it (a logout there, ``LoaderStore/PendingEdits/discard``): its record is gone. Asked once
  /// per send, and only of a directory other stores share: this store holds the sender lock,
  /// so no other store sent the edit meanwhile, and a record gone now was removed by a
  /// discard. Committed here, its record would be written again, committed, and laid over the
  /// values the other store (or any later launch) loads under its keys: another user's.
  func isDiscardedElsewhere(_ queued: Queued) -> Bool {
    guard senderLock != nil, let directory = backend as? DirectoryPersistence, queued.isSaved,
      queued.payload != nil, !queued.sendsOnce, !queued.isUnreadable
    else { return false }
    // Whether the file is there, not what it holds: a send must not pay for a read and a
    // decode of its record.
    return !directory.holdsFile(for: queued.key)
  }

  /// The send of an edit another store discarded has ended: as for an edit discarded here
  /// while it was sent (``endDiscardedSend(_:)``), nothing of it is committed, saved, laid or
  /// sent again; its change leaves this store's entries, and its callers learn it was
  /// discarded.
  func endDiscardedElsewhere(_ queued: Queued) -> LaneStep? {
    queued.isDiscarded = true
    change([queued.scopeID]) { queue.removeAll { $0 === queued } }
    rollBack(queued, error: nil)
    end(queued, .discarded)
    return nil
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
          queued.failure = EditFailure(
            error, reason: "the saved edit does not decode as \(Edit.self): \(error)")
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
  func readCommitted<Edit: OutboxEdit>(_: Edit.Type) {
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

  /// The encoder of the edits' values, made once (on the main actor, as the outbox is).
  static let editEncoder = JSONEncoder()

  func enqueue<Edit: OutboxEdit>(_ edit: Edit, delivery: EditDelivery) -> EditTicket {
    // Later than every edit this store knows, and than the wall clock in nanoseconds: the
    // edits of two processes over one directory, read into one queue, keep the order in
    // which they were enqueued (each process's own in any case).
    lastSequence = max(lastSequence + 1, UInt64(max(0, FileCalls.now())))
    var payload: Data?
    do {
      payload = try Self.editEncoder.encode(edit)
    } catch {
      payload = nil
    }
    let sendsOnce = delivery == .now
    let scope = edit.scope
    let queued = Queued(
      edit: edit, scope: scope, spelled: spelling(of: scope), payload: payload,
      sequence: lastSequence, sendsOnce: sendsOnce)
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
  func end(_ queued: Queued, _ outcome: EditOutcome) {
    outcomes.removeValue(forKey: queued.item.id)?.finish(outcome)
  }

  /// Takes an edit sent once (``EditDelivery/now``) out after it failed: its change rolls
  /// back, and it ends.
  func dropSentOnce(_ queued: Queued, error: any Error) {
    if LoadEvents.isOn {
      reportEvent(.editFailed, queued, attempt: queued.item.attempt, error: error)
    }
    rollBack(queued, error: error)
    change([queued.scopeID]) { queue.removeAll { $0 === queued } }
    end(queued, .rolledBack(error))
  }
}

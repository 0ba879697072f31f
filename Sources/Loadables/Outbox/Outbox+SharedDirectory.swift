import Foundation

/// Sharing the directory with other processes: one sender at a time, which reads
/// what the others wrote when they may have.
extension Outbox {
  /// Where this store stands with the sender lock of the outbox's directory, for
  /// ``OutboxLaneBook``: it needs none (a backend no other process shares), holds it, or must
  /// take it (another process, or another store over the same directory, may send).
  func sender(at now: @autoclosure () -> Duration) -> OutboxLaneBook.Sender {
    guard let senderLock else { return .needsNoLock }
    return senderLock.isHeld ? .held(lastLook: lastSharedRead, now: now()) : .notHeld
  }

  /// For the holder: reads what the other stores queued, when one saved a record since the
  /// last look (``SenderLock/takeMarker()``); else only notes the look. The folder is not
  /// read when nothing else wrote: listing it at every lane's end cost every edit a read of
  /// the whole folder (the committed log alone holds up to 500 records).
  func readSharedIfWritten() {
    if senderLock?.takeMarker() == true {
      readShared()
    } else {
      lastSharedRead = store?.now
    }
  }

  /// Ends `scopeID`'s lane; with no lane left, this store has nothing to send: it lets
  /// another process send.
  func endLane(_ scopeID: String) {
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
  func readShared(includingOwn: Bool = false) {
    guard let backend, let store else { return }
    lastSharedRead = store.now
    guard let directory = backend as? DirectoryPersistence else { return }
    let (rules, now) = (OutboxRecord.rules, Date())
    var events: [PersistenceEvent] = []
    // This queue's edits: each record read by its key (a few files, not the directory).
    var onDisk: [PersistentKey: CommittedEdits.Mark] = [:]
    var sentElsewhere: [Queued] = []
    var failedElsewhere: [(Queued, EditFailure)] = []
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
      guard let (record, mark) = try? OutboxRecord.read(saved.value) else { continue }
      if let mark {
        onDisk[queued.key] = mark
        sentElsewhere.append(queued)
      } else if let failure = record.failure {
        failedElsewhere.append(
          (queued, EditFailure(typeName: record.failureType ?? "", reason: failure)))
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
    // The edits another store queued and sent, which this one never knew: the server has
    // them, so they are laid over this store's entries, committed, in their order.
    var committedElsewhere: [CommittedEdits.Committed] = []
    for saved in load.records {
      do {
        let (record, mark) = try OutboxRecord.read(saved.value)
        if let mark, let committedAt = mark.committedAt {
          let count = committed.edits.count
          committed.restore(
            record, mark: mark, committedAt: committedAt, key: saved.key,
            maxAge: maxAge, now: now, backend: backend)
          if committed.edits.count > count, let kept = committed.edits.last {
            committedElsewhere.append(kept)
          }
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
    if !committedElsewhere.isEmpty {
      for saved in committed.edits where saved.edit == nil {
        saved.edit = handlers[saved.name].flatMap { try? $0.decode(saved.payload) }
      }
      committed.sort()
    }
    guard
      !sentElsewhere.isEmpty || !failedElsewhere.isEmpty || !joined.isEmpty
        || !committedElsewhere.isEmpty
    else { return }
    let scopes = Array(
      Set(sentElsewhere.map(\.scopeID) + failedElsewhere.map(\.0.scopeID) + joined.map(\.scopeID)))
    let ended = Set(sentElsewhere.map(ObjectIdentifier.init))
    change(scopes) {
      queue.removeAll { ended.contains(ObjectIdentifier($0)) }
      for (queued, failure) in failedElsewhere {
        queued.failure = failure
        queued.item.lastError = failure.reason
      }
      queue += joined
      queue.sort { ($0.sequence, $0.item.id) < ($1.sequence, $1.item.id) }
    }
    lastSequence = max(lastSequence, queue.last?.sequence ?? 0)
    // Every edit another store sent since this one last looked commits here in the order
    // the server applied it (its commit time there): the entries lay committed edits in the
    // order they commit, so this store's queue order (edits of two processes, joined as they
    // were read) must not decide it. An edit whose record is gone goes first: it left the
    // committed log as its oldest.
    var sentInOrder: [(at: Date, queued: Queued?, theirs: CommittedEdits.Committed?)] =
      committedElsewhere.map { ($0.committedAt, nil, $0) }
    for queued in sentElsewhere {
      sentInOrder.append((onDisk[queued.key]?.committedAt ?? .distantPast, queued, nil))
    }
    // Stable: edits committed at the same time keep the queue's order.
    sentInOrder = sentInOrder.enumerated()
      .sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    for sent in sentInOrder {
      guard let queued = sent.queued else {
        if let theirs = sent.theirs {
          for entry in store.entries.values { CommittedEdits.lay(theirs, over: entry, in: store) }
        }
        continue
      }
      if let edit = queued.edit, let payload = queued.payload,
        let mark = onDisk[queued.key], let committedAt = mark.committedAt
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
    // The handler's error is gone with the other process: its type name and reason are not.
    for (queued, failure) in failedElsewhere {
      rollBack(queued, error: failure)
      end(queued, .failed(failure))
    }
    for queued in joined where queued.hasHandler && !queued.isFailed { apply(queued) }
    for scopeID in scopes { kick(scopeID) }
  }
}

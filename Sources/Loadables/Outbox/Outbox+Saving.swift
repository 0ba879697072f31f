import Foundation

/// Saving the edits: each edit's record, written before it is sent and removed
/// once it is done.
extension Outbox {
  /// Writes `queued`'s record; on failure it stays in memory, marked unsaved, and is
  /// reported. An edit that does not encode counts as saved: it never can be.
  @discardableResult
  func save(_ queued: Queued) -> Bool {
    guard let backend, let payload = queued.payload, !queued.sendsOnce else {
      queued.isSaved = true
      if !queued.sendsOnce { outcomes[queued.item.id]?.markQueued() }
      return true
    }
    let bytes = record(queued, payload: payload).encoded()
    do {
      try backend.write(
        PersistedRecord(
          key: queued.key, value: bytes, savedAt: queued.item.enqueuedAt,
          version: OutboxRecord.rules.version),
        rules: OutboxRecord.rules)
      queued.isSaved = true
      // After the record: the holder of the sender lock, in another process or store, reads
      // it when it sees the sign.
      senderLock?.noteWrite()
      outcomes[queued.item.id]?.markQueued()
      return true
    } catch {
      queued.isSaved = false
      report(.notSaved, queued.item.id, "the edit could not be saved (kept in memory): \(error)")
      return false
    }
  }

  /// The record saved for `queued`.
  func record(_ queued: Queued, payload: Data) -> OutboxRecord {
    OutboxRecord(
      id: queued.item.id, name: queued.item.name, scopeID: queued.scopeID,
      scope: queued.item.scopeText, idempotencyKey: queued.idempotencyKey,
      sequence: queued.sequence, enqueuedAt: queued.item.enqueuedAt,
      failure: queued.failure?.reason, failureType: queued.failure?.typeName, payload: payload)
  }

  /// Removes a sent edit from the outbox, and its record from storage.
  func removeSent(_ queued: Queued) {
    removeRecord(
      queued,
      "a sent edit's record could not be removed (it is sent again, "
        + "with the same idempotency key, after a relaunch)")
    change([queued.scopeID]) { queue.removeAll { $0 === queued } }
  }

  func removeRecord(_ queued: Queued, _ message: String) {
    guard let backend, !queued.sendsOnce else { return }
    do {
      try backend.remove(queued.key)
    } catch {
      report(.notRemoved, queued.item.id, "\(message): \(error)")
    }
  }
}

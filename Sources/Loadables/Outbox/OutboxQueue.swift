import Foundation

/// One edit of the outbox as the outbox keeps it: what it shows, what it saves, and the
/// entries its optimistic change is laid over.
@MainActor
final class Queued {
  var item: OutboxItem
  let key: PersistentKey
  /// The lane the edit is sent in: its scope's persistent identity.
  let scopeID: String
  let sequence: UInt64
  var idempotencyKey: String
  /// Why the edit failed for good, saved with the record (or, not saved, why its value does
  /// not decode); `nil` while the edit is in its scope's line. Shown in ``item``
  /// (``OutboxItem/failure``).
  var failure: EditFailure? {
    didSet { item.failure = failure }
  }
  /// The edit as JSON; `nil` when it does not encode (or its record does not read back).
  let payload: Data?
  /// The edit, once its type is known (at enqueue, or when registered after a restore); shown
  /// in ``item`` too (``OutboxItem/scopeKey``, ``OutboxItem/edit(as:)``).
  var edit: (any OutboxEdit)? {
    didSet {
      item.value = edit
      item.scopeKey = edit?.scope
    }
  }
  /// Whether ``edit`` is known and a handler for its type is registered (set at enqueue and
  /// by each registration of its type; a handler is never unregistered).
  var hasHandler = false
  /// The store's edit id of the optimistic change laid over ``touched`` now.
  var editID: UInt64 = 0
  var isApplied = false
  var touched: [any AnySharedEntry] = []
  /// Whether the saved record matches (a failed write leaves it `false` until written again).
  var isSaved = false
  var saveFailures = 0
  var reportedNoHandler = false
  /// What its scope's lane does with it now; with the other facts, decides ``OutboxItem/status``
  /// (``OutboxBook``).
  var activity = OutboxBook.Activity.idle
  /// Whether the saved record does not read back: it stays, failed, until discarded.
  let isUnreadable: Bool
  /// Whether the edit was discarded: it has left the outbox for good. Only an edit discarded
  /// while its handler ran (by a removal, ``LoaderStore/PendingEdits/discard``) is still
  /// held, by its lane, until the send ends; what the send does then changes nothing.
  var isDiscarded = false

  /// Whether the edit is sent once, now, and never saved (``EditDelivery/now``): any failure,
  /// or no network at its turn, rolls it back and ends it.
  let sendsOnce: Bool

  /// A newly enqueued edit, of `scope` (its ``OutboxEdit/scope``, as `spelled` by the
  /// outbox). Its status is decided by the outbox once it is in the queue.
  init(
    edit: some OutboxEdit, scope: LoadKey, spelled: Outbox.ScopeSpelling, payload: Data?,
    sequence: UInt64, sendsOnce: Bool = false
  ) {
    let id = OutboxRecord.newID()
    item = OutboxItem(
      id: id, name: type(of: edit).name, scopeKey: scope, scopeText: spelled.text,
      value: edit, payload: payload, status: .ready, attempt: 0, lastError: nil,
      enqueuedAt: Date())
    self.sendsOnce = sendsOnce
    key = OutboxRecord.key(id)
    scopeID = spelled.id
    self.sequence = sequence
    idempotencyKey = OutboxRecord.newID()
    self.payload = payload
    self.edit = edit
    isUnreadable = false
  }

  /// An edit restored from its record; it waits for its handler (or stays failed).
  init(restoring record: OutboxRecord, key: PersistentKey) {
    item = OutboxItem(
      id: record.id, name: record.name, scopeKey: nil, scopeText: record.scope, value: nil,
      payload: record.payload,
      status: record.failure.map { .failed($0) } ?? .waitingForHandler, attempt: 0,
      lastError: record.failure, enqueuedAt: record.enqueuedAt)
    sendsOnce = false
    self.key = key
    scopeID = record.scopeID
    sequence = record.sequence
    idempotencyKey = record.idempotencyKey
    failure = record.failure.map { EditFailure(typeName: record.failureType ?? "", reason: $0) }
    payload = record.payload
    isSaved = true
    isUnreadable = false
    item.failure = failure
  }

  /// A saved record that does not read back: kept, failed, so that it is never dropped
  /// unseen.
  init(unreadable key: PersistentKey, savedAt: Date, reason: String) {
    let id = String(key.identity.trimmingPrefix("outbox:"))
    let why = "the saved edit does not read back: \(reason)"
    item = OutboxItem(
      id: id, name: "?", scopeKey: nil, scopeText: "?", value: nil, payload: nil,
      status: .failed(why), attempt: 0, lastError: why, enqueuedAt: savedAt)
    sendsOnce = false
    self.key = key
    scopeID = "unreadable:" + id
    sequence = 0
    idempotencyKey = ""
    failure = EditFailure(typeName: "", reason: why)
    payload = nil
    isSaved = true
    isUnreadable = true
    item.failure = failure
  }

  /// Whether the edit failed for good (or does not read back): it has left its scope's line.
  /// The fact the runner decides from; what observers count is ``OutboxItem/status``, which is
  /// written inside the Observation mutation that tells them.
  var isFailed: Bool { failure != nil }

}

/// A registered handler, with its edit type erased so the outbox can keep handlers by name.
struct OutboxHandler {
  let type: ObjectIdentifier
  let typeName: String
  let backoff: Backoff
  let send: @MainActor (any OutboxEdit, OutboxContext) async throws -> Void
  /// Reads a saved edit of this type back from its JSON.
  let decode: (Data) throws -> any OutboxEdit

  init<Edit: OutboxEdit>(
    _: Edit.Type, backoff: Backoff,
    handler: @escaping @MainActor (Edit, OutboxContext) async throws -> Void
  ) {
    type = ObjectIdentifier(Edit.self)
    typeName = String(reflecting: Edit.self)
    self.backoff = backoff
    decode = { try JSONDecoder().decode(Edit.self, from: $0) }
    send = { edit, context in
      guard let edit = edit as? Edit else {
        throw OutboxFailure.permanent(
          OutboxTypeMismatch(
            expected: String(reflecting: Edit.self), got: "\(Swift.type(of: edit))"))
      }
      try await handler(edit, context)
    }
  }
}

/// An edit reached a handler of another type under the same name.
struct OutboxTypeMismatch: Error, CustomStringConvertible {
  let expected: String
  let got: String
  var description: String { "the handler takes \(expected), the edit is \(got)" }
}

import Foundation

/// The edits the outbox sent and committed, kept so that a value saved before the commit
/// never shows a state older than it: an entry made later from such a value (in this launch
/// or the next, after a kill or not) gets the edit laid over it again, committed, until a
/// fetch that started after the commit lands.
///
/// Why it holds at every kill point: a sent edit's record is rewritten in place, atomically,
/// from pending to committed (with the wall-clock time of the commit) instead of being
/// removed. Killed before that write, the edit is still pending at the next launch: it is
/// laid over the restored values and sent again (its idempotency key makes that harmless).
/// Killed after it, the committed record lays the edit over every restored value saved no
/// later than the commit. So no saved value, in memory or not, outlives an acknowledged
/// edit: the entries' own saves may land before or after.
///
/// The log is bounded. With a `maxAge`, an edit committed longer ago than that goes at
/// launch (a value saved before it would be too old to restore). Beyond ``limit`` edits the
/// oldest go, and the latest commit time among them becomes the *floor*, written with the
/// newest committed record before the old ones are removed: a saved value no newer than the
/// floor is dropped as expired rather than shown without an edit it may lack.
@MainActor
struct CommittedEdits {
  /// One committed edit: its record and, once its type is registered, the edit itself.
  final class Committed {
    let key: PersistentKey
    let name: String
    /// Its scope's persistent identity, as saved with its record.
    let scopeID: String
    let payload: Data
    let committedAt: Date
    /// The edit, read back once its type is registered (or kept from the send).
    var edit: (any OutboxEdit)?
    /// The id its change is laid under in this launch, once laid.
    var editID: UInt64?

    init(key: PersistentKey, name: String, scopeID: String, payload: Data, committedAt: Date) {
      self.key = key
      self.name = name
      self.scopeID = scopeID
      self.payload = payload
      self.committedAt = committedAt
    }
  }

  /// The most committed edits kept.
  static let limit = 500

  /// A value fetched up to this long after a commit still gets the edit laid over it: the
  /// two times come from clocks of their own (the value's fetch, the commit), and laying a
  /// committed edit over a value that already carries it changes nothing (see
  /// ``OutboxEdit/applyOptimistically(to:in:)``), while leaving it off would show an older
  /// state.
  static let margin: TimeInterval = 1

  /// Oldest first.
  private(set) var edits: [Committed] = []
  /// A saved value no newer than this is dropped at restore: an edit committed after it was
  /// saved may have left the log.
  private(set) var floor: Date?

  /// What a committed record adds to the outbox's record: when the edit committed, and the
  /// floor at that time (in a JSON record of an earlier version, two more fields beside the
  /// record's).
  struct Mark: Codable {
    var committedAt: Date?
    var floor: Date?
  }

  /// Keeps a committed record read at launch; `false` (and the record is removed) when it is
  /// older than `maxAge` at `now`.
  mutating func restore(
    _ record: OutboxRecord, mark: Mark, committedAt: Date, key: PersistentKey, maxAge: Duration?,
    now: Date, backend: any PersistenceBackend
  ) {
    if let theirs = mark.floor { floor = Swift.max(floor ?? theirs, theirs) }
    if PersistenceRules(version: "", maxAge: maxAge).isExpired(savedAt: committedAt, now: now) {
      try? backend.remove(key)
      return
    }
    edits.append(
      Committed(
        key: key, name: record.name, scopeID: record.scopeID, payload: record.payload,
        committedAt: committedAt))
  }

  /// Orders the edits restored at launch by commit time.
  mutating func sort() {
    edits.sort { $0.committedAt < $1.committedAt }
  }

  /// Rewrites `record` as committed at `committedAt`, in place and atomically, and keeps it;
  /// drops the oldest edits beyond ``limit``. Throws when the write failed: the pending
  /// record is then intact, and the edit is sent again after a relaunch.
  mutating func commit(
    _ record: OutboxRecord, edit: any OutboxEdit, key: PersistentKey, at committedAt: Date,
    backend: any PersistenceBackend
  ) throws {
    let overflow = Swift.max(0, edits.count + 1 - Self.limit)
    var newFloor = floor
    for old in edits.prefix(overflow) {
      newFloor = Swift.max(newFloor ?? old.committedAt, old.committedAt)
    }
    let bytes = record.encoded(mark: Mark(committedAt: committedAt, floor: newFloor))
    try backend.write(
      PersistedRecord(
        key: key, value: bytes, savedAt: committedAt, version: OutboxRecord.rules.version),
      rules: OutboxRecord.rules)
    // The floor is on storage with the newest record: the old records may go.
    floor = newFloor
    for old in edits.prefix(overflow) { try? backend.remove(old.key) }
    edits.removeFirst(overflow)
    let committed = Committed(
      key: key, name: record.name, scopeID: record.scopeID, payload: record.payload,
      committedAt: committedAt)
    committed.edit = edit
    edits.append(committed)
  }

  /// Forgets every committed edit and removes its record: no saved value is left to lay
  /// them over (``LoaderStore/removePersistedEntries()``).
  mutating func removeAll(backend: any PersistenceBackend) {
    for committed in edits { try? backend.remove(committed.key) }
    edits = []
    floor = nil
  }

  /// Forgets the committed edits whose scope `named` picks (by its persistent identity) and
  /// removes their records: a removal took away the values they were laid over
  /// (``LoaderStore/remove(_:matching:pendingEdits:)``), and a value fetched later, another
  /// user's under the same key, must never get them laid over it. The floor stays as it is.
  /// Returns the errors of the records that could not be removed.
  mutating func remove(
    where named: (_ scopeID: String) -> Bool, backend: any PersistenceBackend
  ) -> [any Error] {
    var errors: [any Error] = []
    edits.removeAll { committed in
      guard named(committed.scopeID) else { return false }
      do {
        try backend.remove(committed.key)
      } catch {
        errors.append(error)
      }
      return true
    }
    return errors
  }

  /// Lays each committed edit (read back) over `entry` when its value was fetched no later
  /// than the commit: the value does not carry the edit. Committed at once, and not saved
  /// again for it: the record stays as it was and the edit is laid again at each launch,
  /// until a fetch that started after the commit lands.
  /// Only the edits of type `name`, when given (those just read back).
  func lay(over entry: any AnySharedEntry, named name: String? = nil, in store: LoaderStore) {
    guard entry.fetchedAt != nil else { return }
    for committed in edits where name == nil || committed.name == name {
      Self.lay(committed, over: entry, in: store)
    }
  }

  /// Lays `committed` (read back) over `entry` when its value was fetched no later than the
  /// commit, committed at once and not saved for it. The entry lays its committed edits in
  /// the order they commit, ahead of its pending ones: lay them oldest first.
  static func lay(_ committed: Committed, over entry: any AnySharedEntry, in store: LoaderStore) {
    guard let fetchedAt = entry.fetchedAt, let edit = committed.edit,
      fetchedAt <= committed.committedAt.addingTimeInterval(Self.margin)
    else { return }
    let id: UInt64
    if let known = committed.editID {
      id = known
    } else {
      store.nextEditID += 1
      id = store.nextEditID
      committed.editID = id
    }
    var shared = SharedEdit(outboxEdit: id, only: entry)
    edit.applyOptimistically(to: &shared, in: store)
    for touched in shared.entries { touched.commitEdit(id, saving: false) }
  }
}

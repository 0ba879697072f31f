import Foundation

/// Saves and restores a store's persisted entries. Restoring reads one record on the main
/// actor, as the entry is made (the value must be on screen at once); saving encodes on the
/// main actor and writes on ``PersistenceWriter``'s serial queue.
@MainActor
final class EntryPersister {
  let writer: PersistenceWriter
  private let rules: PersistenceRules
  /// Made at the first save: a launch that only shows saved values encodes nothing.
  private lazy var encoder = JSONEncoder()
  private let decoder = JSONDecoder()

  init(_ persistence: StorePersistence) {
    writer = PersistenceWriter(persistence.backend, rules: persistence.rules)
    rules = persistence.rules
  }

  /// Removes, before any save of this launch, what a killed launch left in the directory's
  /// `tmp`: its owner lock files at once, its temporary files off the main actor (reporting
  /// each).
  func launched(in store: LoaderStore) {
    // Looked for here, removed on the writer's queue: most launches find in `tmp` no
    // temporary, only the lock file of the launch before (killed, as apps are), removed
    // here at once; then no work (nor a thread) is handed to the queue.
    if let directory = writer.backend as? DirectoryPersistence, directory.sweepIfOnlyLockFiles() {
      return
    }
    writer.removeTemporaries(store: store)
  }

  /// Restores `entry`'s saved value, if any, and saves what it writes from now on, when its
  /// value is `Codable`; does nothing otherwise.
  func attach<Value: Sendable, State: SharedEntryState & Sendable>(
    _ entry: SharedEntry<Value, State>, in store: LoaderStore
  ) {
    guard let saving = saving(Value.self, in: State.self) else { return }
    let key: PersistentKey
    do {
      key = try PersistentKey(entry.key)
    } catch {
      store.report([.keyNotPersistable(error)])
      return
    }
    restore(entry, as: saving.codable, whole: saving.whole, key: key, in: store)
    // Kept in the entry, which calls ``entryWrote(_:key:cause:in:)`` at each write and
    // commit: one stored value per entry rather than a watcher closure and its captures.
    entry.savedKey = key
  }

  private func restore<Value: Sendable, State: SharedEntryState & Sendable>(
    _ entry: SharedEntry<Value, State>, as codable: any Codable.Type, whole: Bool,
    key: PersistentKey, in store: LoaderStore
  ) {
    let now = store.wallNow
    let load = writer.backend.read(key, rules: rules, now: now)
    store.report(load.events, for: entry.key)
    guard let record = load.records.first else { return }
    // Saved no later than the floor of the outbox's committed edits: an edit committed
    // after it may have left the log, so the value is dropped rather than shown without it.
    if let floor = store.outbox.committed.floor, record.savedAt <= floor {
      writer.remove(key, store: store)
      store.report([.droppedExpired(key: key, savedAt: record.savedAt)], for: entry.key)
      return
    }
    let state: State
    do {
      guard let decoded = try decode(record.value, as: codable, whole: whole, for: entry) else {
        return
      }
      state = decoded
    } catch {
      writer.remove(key, store: store)
      store.report([.undecodable(key: key, reason: String(describing: error))], for: entry.key)
      return
    }
    // A saved time in the future (the device's clock moved back) counts as just fetched.
    let age = max(0, now.timeIntervalSince(record.savedAt))
    entry.restore(state, fetchedAt: store.now - .seconds(age))
  }

  /// The state saved in `data`: a paged list whole, with its pages and cursors (or its
  /// items alone, as saved before pages were), any other state's value.
  private func decode<Value: Sendable, State: SharedEntryState & Sendable>(
    _ data: Data, as codable: any Codable.Type, whole: Bool,
    for entry: SharedEntry<Value, State>
  ) throws -> State? {
    if whole, let whole = State.self as? any WholeStateRecord.Type,
      let restored = try whole.restored(from: data, decoder, maxPages: entry.engine.maxPages)
    {
      return restored as? State
    }
    return entry.book.base._holding(try decode(data, as: codable, to: Value.self))
  }

  /// The value in `data`, decoded as `Decoded` (the type found `Codable` when the entry was
  /// attached, which is `Value`): moved into `Value` in place, with no cast at run time.
  private func decode<Decoded: Decodable, Value>(
    _ data: Data, as _: Decoded.Type, to _: Value.Type
  ) throws -> Value {
    precondition(Value.self == Decoded.self, "EntryPersister: \(Value.self) is not \(Decoded.self)")
    var decoded = try decoder.decode(Decoded.self, from: data)
    return withUnsafeMutablePointer(to: &decoded) { pointer in
      pointer.withMemoryRebound(to: Value.self, capacity: 1) { $0.pointee }
    }
  }

  /// The last state type asked about and how its entries are saved: entries are mostly of a
  /// few types, made and written one after another. Kept for the process, not per store:
  /// each launch makes a store.
  private static var lastSaving: (type: ObjectIdentifier, saving: EntrySaving?)?
  /// How the entries of each state type asked about are saved; `nil` for a value that is not
  /// `Codable`. The cast to an existential metatype looks up the conformance at run time, so
  /// it runs once per type, not for each entry made or each save.
  private static var savings: [ObjectIdentifier: EntrySaving?] = [:]

  /// How the entries of `State`, whose value is `Value`, are saved; `nil` when `Value` is not
  /// `Codable`.
  private func saving<Value, State>(_: Value.Type, in _: State.Type) -> EntrySaving? {
    let type = ObjectIdentifier(State.self)
    if let last = Self.lastSaving, last.type == type { return last.saving }
    let saving: EntrySaving?
    if let known = Self.savings[type] {
      saving = known
    } else {
      saving = (Value.self as? any Codable.Type).map { codable in
        // A state of another kind is never saved whole.
        EntrySaving(codable: codable, whole: State.self is any WholeStateRecord.Type)
      }
      Self.savings[type] = saving
    }
    Self.lastSaving = (type, saving)
    return saving
  }

  /// The bytes saved for `state`, whose value is of type `codable`: a paged list whole (when
  /// `whole`, the state is a ``WholeStateRecord``), any other state's value; `nil` when it
  /// holds none.
  private func encode<State: SharedEntryState>(
    _ state: State, as codable: any Codable.Type, whole: Bool
  ) throws -> Data? {
    if whole, let whole = state as? any WholeStateRecord {
      if let data = try whole.wholeRecord(encoder) { return data }
    }
    guard let value = state._value else { return nil }
    return try encode(value, as: codable)
  }

  /// The JSON of `value`, whose type is `Encoded` (the type found `Codable` when the entry
  /// was attached): read as that type in place, with no cast at run time (two dynamic casts
  /// at every save cost more than the rest of the record's framing).
  private func encode<Value, Encoded: Encodable>(_ value: Value, as _: Encoded.Type) throws
    -> Data
  {
    precondition(Value.self == Encoded.self, "EntryPersister: \(Value.self) is not \(Encoded.self)")
    return try withUnsafePointer(to: value) { pointer in
      try pointer.withMemoryRebound(to: Encoded.self, capacity: 1) {
        try encoder.encode($0.pointee)
      }
    }
  }

  /// Saves after a fetch that returned a value and after a commit; removes after a reset.
  func entryWrote<Value: Sendable, State: SharedEntryState & Sendable>(
    _ entry: SharedEntry<Value, State>, key: PersistentKey, cause: WriteCause,
    in store: LoaderStore
  ) {
    // Found when the entry was attached, which set its key.
    guard let saving = saving(Value.self, in: State.self) else { return }
    let (codable, whole) = (saving.codable, saving.whole)
    // An entry removed from its store is never saved again, whoever still holds it.
    guard !entry.slot.isDetached else { return }
    switch cause {
    case .fetched, .committedEdit, .nextPage:
      // The committed state: the fetched base with the committed edits, never one still
      // pending. A paged list is saved whole, with its pages and cursors: after its first
      // page, after a commit, and after each next or previous page that arrived (not while
      // one loads: the list is the one saved before it; a page that failed or was
      // cancelled saves the same list again, rarer and cheaper than remembering what was
      // saved).
      let committed = entry.committedState
      if cause == .nextPage {
        guard let whole = committed as? any WholeStateRecord, !whole.isLoadingPage else { return }
      }
      guard committed._holdsValue, let fetchedAt = entry.book.facts.fetchedAt else { return }
      let data: Data
      do {
        guard let encoded = try encode(committed, as: codable, whole: whole) else { return }
        data = encoded
      } catch {
        store.report([
          .writeFailed(
            key: key,
            error: .io(operation: "encode (\(error))", path: key.identity, errno: 0))
        ])
        return
      }
      writer.write(
        PersistedRecord(
          key: key, value: data, savedAt: store.wallDate(at: fetchedAt), version: rules.version),
        store: store)
    case .reset:
      writer.remove(key, store: store)
    case .started, .optimisticEdit, .rolledBack, .restored, .restoredFromDisk, .assigned,
      .initialValue, .placeholder:
      break
    }
  }

}

public import Foundation

/// A ``PersistenceBackend`` that keeps records in memory, under the same rules as the
/// directory backend (version, `maxAge`, byte budget measured as the records' encoded size).
///
/// For tests and previews: records last as long as the instance, so a "relaunch" is a new
/// store on the same instance.
///
/// <!-- compile: context Persistence -->
/// ```swift
/// let backend = InMemoryPersistence()
/// try backend.write(record, rules: rules)
/// backend.loadAll(rules, now: Date()).records  // [record]
/// ```
public final class InMemoryPersistence: PersistenceBackend, @unchecked Sendable {
  // Safe to share: `records` and `index` are read and written only while holding `lock`.
  private let lock = NSLock()
  private var records: [PersistentKey: PersistedRecord] = [:]
  private var index = RecencyBook()

  /// Creates an empty backend.
  public init() {}

  public func loadAll(_ rules: PersistenceRules, now: Date) -> PersistenceLoad {
    locked {
      var load = PersistenceLoad()
      for key in records.keys.sorted(by: { $0.identity < $1.identity }) {
        if let event = dropIfStale(key, rules: rules, now: now) { load.events.append(event) }
      }
      load.events += evict(rules)
      load.records = Array(records.values)
      return load
    }
  }

  public func read(_ key: PersistentKey, rules: PersistenceRules, now: Date) -> PersistenceLoad {
    locked {
      if let event = dropIfStale(key, rules: rules, now: now) {
        return PersistenceLoad(events: [event])
      }
      guard let record = records[key] else { return PersistenceLoad() }
      index.use(key.identity, bytes: RecordFormat.encodedSize(record), key: key)
      return PersistenceLoad(records: [record])
    }
  }

  @discardableResult
  public func write(_ record: PersistedRecord, rules: PersistenceRules) throws(PersistenceError)
    -> [PersistenceEvent]
  {
    locked {
      records[record.key] = record
      index.use(record.key.identity, bytes: RecordFormat.encodedSize(record), key: record.key)
      return evict(rules)
    }
  }

  public func remove(_ key: PersistentKey) throws(PersistenceError) {
    locked {
      records[key] = nil
      index.remove(key.identity)
    }
  }

  public func removeAll() throws(PersistenceError) {
    locked {
      records = [:]
      index.removeAll()
    }
  }

  /// Removes `key`'s record when the rules drop it. Call with the lock held.
  private func dropIfStale(_ key: PersistentKey, rules: PersistenceRules, now: Date)
    -> PersistenceEvent?
  {
    guard let record = records[key] else { return nil }
    let event: PersistenceEvent
    if record.version != rules.version {
      event = .droppedOtherVersion(key: key, version: record.version)
    } else if rules.isExpired(savedAt: record.savedAt, now: now) {
      event = .droppedExpired(key: key, savedAt: record.savedAt)
    } else {
      return nil
    }
    records[key] = nil
    index.remove(key.identity)
    return event
  }

  /// Evicts the least recently used records beyond the budget. Call with the lock held.
  private func evict(_ rules: PersistenceRules) -> [PersistenceEvent] {
    index.victims(budget: rules.byteBudget).map { identity in
      let key = PersistentKey(identity: identity)
      let bytes = index.entries[identity]?.bytes ?? 0
      records[key] = nil
      index.remove(identity)
      return .evicted(key: key, bytes: bytes)
    }
  }

  /// Runs `body` holding the lock, keeping its typed error (`NSLock.withLock` rethrows
  /// `any Error`).
  private func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}

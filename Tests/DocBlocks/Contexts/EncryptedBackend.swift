// PersistenceBackendConformance's example, at the top level, with the backend it checks: Working
// Offline's `EncryptedBackend`, as that page declares it.
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

struct EncryptedBackend: PersistenceBackend {
  let inner: any PersistenceBackend
  let key: UInt8

  init(wrapping inner: any PersistenceBackend, key: UInt8) {
    self.inner = inner
    self.key = key
  }

  private static let tag = Data("SEALED1".utf8)

  private func seal(_ record: PersistedRecord) -> PersistedRecord {
    var sealed = record
    sealed.value = Self.tag + Data(record.value.map { $0 ^ key })
    return sealed
  }

  /// The record opened, or `nil` when it cannot be (another key, damaged bytes).
  private func open(_ record: PersistedRecord) -> PersistedRecord? {
    guard record.value.starts(with: Self.tag) else { return nil }
    var opened = record
    opened.value = Data(record.value.dropFirst(Self.tag.count).map { $0 ^ key })
    return opened
  }

  /// Opens what `inner` returned; a record that does not open is removed and reported.
  private func opened(_ load: PersistenceLoad) -> PersistenceLoad {
    var result = PersistenceLoad(events: load.events)
    for record in load.records {
      if let record = open(record) {
        result.records.append(record)
      } else {
        try? inner.remove(record.key)
        result.events.append(
          .removedUnreadable(file: record.key.identity, reason: .malformed))
      }
    }
    return result
  }

  func loadAll(_ rules: PersistenceRules, now: Date) -> PersistenceLoad {
    opened(inner.loadAll(rules, now: now))
  }

  func read(_ key: PersistentKey, rules: PersistenceRules, now: Date) -> PersistenceLoad {
    opened(inner.read(key, rules: rules, now: now))
  }

  func write(_ record: PersistedRecord, rules: PersistenceRules) throws(PersistenceError)
    -> [PersistenceEvent]
  {
    try inner.write(seal(record), rules: rules)
  }

  func removeTemporaries() -> [PersistenceEvent] { inner.removeTemporaries() }
  func remove(_ key: PersistentKey) throws(PersistenceError) { try inner.remove(key) }
  func removeAll() throws(PersistenceError) { try inner.removeAll() }
}

// <block>

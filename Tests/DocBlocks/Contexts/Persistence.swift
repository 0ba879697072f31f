// The context of the persistence doc comments' fragments (Sources/Loadables/Persistence): the
// body of a method of a main-actor model, with the backend, record and rules the fragments
// write, an app's own encrypting backend, and the other names they use as parameters.
import DocSupport
import Foundation
import Loadables
import Observation

/// An app's own backend that encrypts what it hands to another (here it only forwards).
nonisolated final class EncryptedBackend: PersistenceBackend {
  let base: any PersistenceBackend
  let key: Data

  init(wrapping base: any PersistenceBackend, key: Data) {
    self.base = base
    self.key = key
  }

  func loadAll(_ rules: PersistenceRules, now: Date) -> PersistenceLoad {
    base.loadAll(rules, now: now)
  }

  func read(_ key: PersistentKey, rules: PersistenceRules, now: Date) -> PersistenceLoad {
    base.read(key, rules: rules, now: now)
  }

  func write(_ record: PersistedRecord, rules: PersistenceRules) throws(PersistenceError)
    -> [PersistenceEvent]
  {
    try base.write(record, rules: rules)
  }

  func remove(_ key: PersistentKey) throws(PersistenceError) { try base.remove(key) }

  func removeAll() throws(PersistenceError) { try base.removeAll() }
}

#if !canImport(Darwin)
  /// Apple's Foundation has these; this machine's (swift-corelibs-foundation) lacks them.
  extension URL {
    static var applicationSupportDirectory: URL { URL(filePath: "/tmp/Application Support") }
    static var cachesDirectory: URL { URL(filePath: "/tmp/Caches") }
  }

  extension FileManager {
    func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
      nil
    }
  }
#endif

/// Stands in for `os.Logger`, which Linux lacks.
struct DocLogger {
  func notice(_ message: String) {}
}

@MainActor
final class DocModel {
  func block(
    store: LoaderStore, backend: DirectoryPersistence, record: PersistedRecord,
    rules: PersistenceRules, cachesURL: URL, fetchedAt: Date, post: Post, userID: Int,
    secret: Data, logger: DocLogger
  ) async throws {
    // <block>
  }
}

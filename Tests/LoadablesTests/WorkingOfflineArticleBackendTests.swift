import Foundation
import Loadables
import LoadablesTesting
import XCTest

// The "Plug in your own backend" section of the Working Offline article, as written. The
// cipher is a stand-in (an app seals with CryptoKit's `AES.GCM`); what matters is the shape:
// a wrapper that keeps every rule, and reports a record it cannot open.

/// Entries sealed before they reach another backend.
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

@MainActor
final class WorkingOfflineArticleBackendTests: XCTestCase {
  struct Post: Codable, Equatable, Sendable {
    var id: Int
    var title: String
  }

  func testTheEncryptedBackendKeepsEveryRule() {
    let failures = PersistenceBackendConformance.check(
      { EncryptedBackend(wrapping: InMemoryPersistence(), key: 0x5A) },
      corrupt: { backend, key in
        // Another key's seal: the record no longer opens.
        let inner = try XCTUnwrap(backend as? EncryptedBackend).inner
        let rules = PersistenceRules(version: "1")
        var record = try XCTUnwrap(inner.read(key, rules: rules, now: .distantPast).records.first)
        record.value = Data("garbage".utf8)
        try inner.write(record, rules: rules)
      })
    XCTAssertEqual(failures, [], "\(failures)")
  }

  func testAStoreOnTheEncryptedBackendRestoresAfterARelaunchAndNothingIsPlainOnDisk() async throws {
    let folder = temporaryDirectory("encrypted")
    let persistence = StorePersistence(
      backend: EncryptedBackend(wrapping: .directory(folder), key: 0x5A),
      outbox: .directory(folder.appending(path: "Outbox")), version: "42")

    let before = LoaderStore(persistence: persistence)
    await before.loader(for: ["posts", 42]) { Post(id: 42, title: "A secret title") }.load()
    await before.flushPersistence()

    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".loadable") }
    XCTAssertEqual(files.count, 1, "one record file: \(files)")
    let bytes = try Data(contentsOf: folder.appending(path: files[0]))
    XCTAssertNil(bytes.range(of: Data("secret".utf8)), "the title is not stored in plain text")

    let after = LoaderStore(persistence: persistence)  // "relaunched"
    let post = after.loader(for: ["posts", 42]) { Post(id: 42, title: "Fetched again") }
    XCTAssertEqual(post.state, .loaded(Post(id: 42, title: "A secret title")))
  }
}

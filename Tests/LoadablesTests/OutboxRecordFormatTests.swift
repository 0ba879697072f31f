import Foundation
import LoadablesTesting
import XCTest

@testable import Loadables

/// The outbox's saved records: the layout written now (the edit's JSON behind a few fixed
/// fields, encoded once), and the JSON records earlier versions wrote, which an updated app
/// still reads and sends.
@MainActor
final class OutboxRecordFormatTests: XCTestCase {
  /// A queued record as the JSON layout spelled it (every version before the binary one): a
  /// rename of post 1 to "mine", its edit as base64 JSON, its date in seconds since 2001.
  static let queuedJSON = """
    {"id":"0C4E0C8B-3E0A-4F43-9D8E-2B7F1A6D5C10","name":"RenamePost","scopeID":"s5:postsi1:1",\
    "scope":"[posts, 1]","idempotencyKey":"KEY-1","sequence":7,"enqueuedAt":786000000,\
    "payload":"eyJpZCI6MSwidGl0bGUiOiJtaW5lIn0="}
    """

  /// The same record once committed, as the JSON layout spelled it: the mark's fields beside
  /// the record's.
  static let committedJSON = """
    {"id":"0C4E0C8B-3E0A-4F43-9D8E-2B7F1A6D5C10","name":"RenamePost","scopeID":"s5:postsi1:1",\
    "scope":"[posts, 1]","idempotencyKey":"KEY-1","sequence":7,"enqueuedAt":786000000,\
    "payload":"eyJpZCI6MSwidGl0bGUiOiJtaW5lIn0=","committedAt":786000010,"floor":785000000}
    """

  static let id = "0C4E0C8B-3E0A-4F43-9D8E-2B7F1A6D5C10"

  func write(_ json: String, to disk: InMemoryPersistence) throws {
    try disk.write(
      PersistedRecord(
        key: OutboxRecord.key(Self.id), value: Data(json.utf8),
        savedAt: Date(timeIntervalSinceReferenceDate: 786_000_000),
        version: OutboxRecord.rules.version),
      rules: OutboxRecord.rules)
  }

  func savedValue(in disk: InMemoryPersistence) throws -> Data {
    let load = disk.read(OutboxRecord.key(Self.id), rules: OutboxRecord.rules, now: Date())
    return try XCTUnwrap(load.records.first?.value, "the edit's record is gone: \(load.events)")
  }

  func testAQueuedJSONRecordOfAnEarlierVersionIsSentAndRewrittenCommitted() async throws {
    let disk = InMemoryPersistence()
    try write(Self.queuedJSON, to: disk)
    let saved = StorePersistence(
      backend: InMemoryPersistence(), outboxBackend: disk, rules: PersistenceRules(version: "1"))
    let server = PostServer()
    let store = LoaderStore(persistence: saved)
    XCTAssertEqual(store.outbox.items.map(\.id), [Self.id])
    XCTAssertEqual(store.outbox.items.first?.edit(as: RenamePost.self)?.title, "mine")
    store.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    await store.outbox.untilIdle()

    XCTAssertEqual(server.calls.map(\.title), ["mine"], "the restored edit was not sent once")
    XCTAssertEqual(server.calls.map(\.idempotencyKey), ["KEY-1"], "its saved key was not kept")
    XCTAssertEqual(store.outbox.items, [])
    XCTAssertEqual(store.outbox.issues, [])
    // Rewritten in the current layout, committed, with the edit's JSON as it was saved.
    let value = try savedValue(in: disk)
    XCTAssertEqual(value.prefix(4), Data("LDOX".utf8), "not rewritten in the current layout")
    let (record, mark) = try OutboxRecord.read(value)
    XCTAssertNotNil(mark?.committedAt, "the sent edit's record is not committed")
    XCTAssertEqual(record.payload, Data(#"{"id":1,"title":"mine"}"#.utf8))
    XCTAssertEqual(record.idempotencyKey, "KEY-1")
    XCTAssertEqual(record.sequence, 7)
    XCTAssertEqual(record.enqueuedAt, Date(timeIntervalSinceReferenceDate: 786_000_000))

    let relaunched = LoaderStore(persistence: saved)
    relaunched.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    await relaunched.outbox.untilIdle()
    XCTAssertEqual(relaunched.outbox.items, [], "the committed record read back as pending")
    XCTAssertEqual(server.calls.count, 1, "the committed edit was sent again")
  }

  func testACommittedJSONRecordOfAnEarlierVersionReadsAsCommitted() async throws {
    let disk = InMemoryPersistence()
    try write(Self.committedJSON, to: disk)
    let saved = StorePersistence(
      backend: InMemoryPersistence(), outboxBackend: disk, rules: PersistenceRules(version: "1"))
    let server = PostServer()
    let store = LoaderStore(persistence: saved)
    store.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    await store.outbox.untilIdle()

    XCTAssertEqual(store.outbox.items, [], "a committed record was queued again")
    XCTAssertEqual(server.calls.count, 0, "a committed record was sent again")
    XCTAssertEqual(store.outbox.committed.edits.map(\.name), ["RenamePost"])
    XCTAssertEqual(
      store.outbox.committed.edits.first?.committedAt,
      Date(timeIntervalSinceReferenceDate: 786_000_010))
    XCTAssertEqual(store.outbox.committed.floor, Date(timeIntervalSinceReferenceDate: 785_000_000))
  }

  func testARecordReadsBackAsWrittenQueuedFailedOrCommitted() async throws {
    var record = OutboxRecord(
      id: "id-é", name: "RenamePost", scopeID: "s5:postsi1:1", scope: "[posts, 1]",
      idempotencyKey: "KEY-2", sequence: 1_790_000_000_000_000_123,
      enqueuedAt: Date(timeIntervalSinceReferenceDate: 786_000_000.123_456_7), failure: nil,
      payload: Data(#"{"id":1,"title":"ü"}"#.utf8))
    var read = try OutboxRecord.read(record.encoded())
    XCTAssertEqual(read.record, record)
    XCTAssertNil(read.mark)

    record.failure = ""
    read = try OutboxRecord.read(record.encoded())
    XCTAssertEqual(read.record, record, "an empty failure read back as none")

    record.failure = nil
    let mark = CommittedEdits.Mark(
      committedAt: Date(timeIntervalSinceReferenceDate: 786_000_001.5),
      floor: Date(timeIntervalSinceReferenceDate: 785_000_000.25))
    read = try OutboxRecord.read(record.encoded(mark: mark))
    XCTAssertEqual(read.record, record)
    XCTAssertEqual(read.mark?.committedAt, mark.committedAt)
    XCTAssertEqual(read.mark?.floor, mark.floor)

    read = try OutboxRecord.read(
      record.encoded(mark: CommittedEdits.Mark(committedAt: mark.committedAt, floor: nil)))
    XCTAssertNil(read.mark?.floor)
  }

  func testAFailedRecordKeepsItsErrorsTypeNameAndAnEarlierOneReadsWithout() async throws {
    var record = OutboxRecord(
      id: "id", name: "RenamePost", scopeID: "s5:postsi1:1", scope: "[posts, 1]",
      idempotencyKey: "KEY-3", sequence: 9, enqueuedAt: Date(timeIntervalSinceReferenceDate: 1),
      failure: "refused: 422", failureType: "MyApp.APIError", payload: Data("{}".utf8))
    var bytes = record.encoded()
    XCTAssertEqual(try OutboxRecord.read(bytes).record, record)
    // A library that does not read the type name (its two bytes were reserved, 0) shows it
    // in the reason.
    bytes[6] = 0
    bytes[7] = 0
    XCTAssertEqual(try OutboxRecord.read(bytes).record.failure, "MyApp.APIError: refused: 422")
    XCTAssertNil(try OutboxRecord.read(bytes).record.failureType)

    // A record written before the type name was kept reads with none.
    record.failureType = nil
    XCTAssertEqual(try OutboxRecord.read(record.encoded()).record, record)
    XCTAssertEqual(record.encoded()[6..<8], Data([0, 0]), "a record with no type name changed")
  }

  func testARecordWhoseFieldsDoNotAddUpStaysFailedAndIsReported() async throws {
    let record = OutboxRecord(
      id: Self.id, name: "RenamePost", scopeID: "s5:postsi1:1", scope: "[posts, 1]",
      idempotencyKey: "KEY-3", sequence: 1, enqueuedAt: Date(), failure: nil,
      payload: Data("{}".utf8))
    let bytes = record.encoded()
    XCTAssertThrowsError(try OutboxRecord.read(bytes.prefix(40)))
    XCTAssertThrowsError(try OutboxRecord.read(bytes.prefix(64 + 10)), "a cut field read")
    var layout = bytes
    layout[4] = 9
    XCTAssertThrowsError(try OutboxRecord.read(layout), "an unknown layout read")

    // In the outbox: kept, failed, reported; never dropped unseen.
    let disk = InMemoryPersistence()
    try disk.write(
      PersistedRecord(
        key: OutboxRecord.key(Self.id), value: bytes.prefix(64 + 10), savedAt: Date(),
        version: OutboxRecord.rules.version),
      rules: OutboxRecord.rules)
    let store = LoaderStore(
      persistence: StorePersistence(
        backend: InMemoryPersistence(), outboxBackend: disk, rules: PersistenceRules(version: "1")))
    XCTAssertEqual(store.outbox.items.map(\.id), [Self.id])
    XCTAssertEqual(store.outbox.failedCount, 1)
    XCTAssertEqual(store.outbox.issues.map(\.kind), [.unreadable])
  }

  func testNewIDsAreVersion4UUIDsSpelledAsFoundationSpellsThem() async {
    var seen: Set<String> = []
    for _ in 0..<1000 {
      let id = OutboxRecord.newID()
      let uuid = UUID(uuidString: id)
      XCTAssertEqual(uuid?.uuidString, id, "\(id) is not spelled as UUID spells it")
      let bytes = uuid.map { withUnsafeBytes(of: $0.uuid) { Array($0) } } ?? []
      XCTAssertEqual(bytes.count, 16)
      XCTAssertEqual(bytes[6] >> 4, 4, "\(id): not version 4")
      XCTAssertEqual(bytes[8] >> 6, 2, "\(id): not the RFC variant")
      seen.insert(id)
    }
    XCTAssertEqual(seen.count, 1000)
  }
}

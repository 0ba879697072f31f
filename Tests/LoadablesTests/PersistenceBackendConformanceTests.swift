import Foundation
import LoadablesTesting
import XCTest

@testable import Loadables

/// The conformance kit of `LoadablesTesting`: the shipped backends keep every rule, and
/// backends that break one are caught, with the rule named.
final class PersistenceBackendConformanceTests: XCTestCase {
  func testTheInMemoryBackendKeepsEveryRule() {
    let failures = PersistenceBackendConformance.check { InMemoryPersistence() }
    XCTAssertEqual(failures, [], "\(failures)")
  }

  func testTheDirectoryBackendKeepsEveryRuleIncludingBadFilesReported() {
    var corrupted = 0
    let failures = PersistenceBackendConformance.check(
      { DirectoryPersistence(self.temporaryDirectory("conformance")) },
      corrupt: { backend, key in
        let directory = try XCTUnwrap(backend as? DirectoryPersistence)
        let file = directory.url.appending(path: directory.fileName(for: key))
        try Data("not a record".utf8).write(to: file)
        corrupted += 1
      })
    XCTAssertEqual(failures, [], "\(failures)")
    XCTAssertEqual(corrupted, 1, "the bad-record rule ran once")
  }

  func testTheProtocolsDocExampleRuns() {
    // The example of `PersistenceBackend`'s doc comment, as written.
    let folder = FileManager.default.temporaryDirectory.appending(path: "Loadables")
    let backend: any PersistenceBackend = .directory(folder)
    let rules = PersistenceRules(version: "42", maxAge: .seconds(86_400), byteBudget: 5 << 20)
    let restored = backend.loadAll(rules, now: Date())
    for event in restored.events { print(event) }
  }

  func testABackendThatKeepsEverythingFailsTheVersionAgeAndBudgetRulesByName() {
    let failures = PersistenceBackendConformance.check { KeepsEverything() }
    XCTAssertEqual(Set(failures.map(\.rule)), [.version, .maxAge, .budget], "\(failures)")
    let version = failures.first { $0.rule == .version }
    XCTAssertEqual(
      version?.description.hasPrefix(
        "version: read(posts) under version \"2\" returned s5:posts (5 bytes, version \"1\")"),
      true, "\(String(describing: version))")
  }

  func testABackendThatTruncatesValuesFailsWholeRecords() {
    let failures = PersistenceBackendConformance.check { KeepsEverything(truncateTo: 256) }
    XCTAssertTrue(
      failures.contains {
        $0.rule == .wholeRecords && $0.message.contains("expected the record written")
      }, "\(failures)")
  }

  func testABackendThatHidesBadRecordsWithoutReportingFailsThatRule() {
    let failures = PersistenceBackendConformance.check(
      { KeepsEverything() },
      corrupt: { backend, key in (backend as? KeepsEverything)?.corrupt(key) })
    XCTAssertTrue(failures.contains { $0.rule == .badRecordsReported }, "\(failures)")
  }

  func testABackendThatThrowsReportsTheErrorUnderEachRule() {
    let failures = PersistenceBackendConformance.check { KeepsEverything(failWrites: true) }
    XCTAssertEqual(
      Set(failures.map(\.rule)),
      Set(PersistenceBackendConformance.Rule.allCases).subtracting([.badRecordsReported]))
    XCTAssertTrue(failures.allSatisfy { $0.message.contains("threw") }, "\(failures)")
  }
}

/// A backend that breaks rules on purpose: it keeps every record whatever the version, age or
/// budget, may cut values short, fail every write, or skip a damaged record without a word.
private final class KeepsEverything: PersistenceBackend, @unchecked Sendable {
  // Safe to share: `records` and `damaged` are read and written only while holding `lock`.
  private let lock = NSLock()
  private var records: [PersistentKey: PersistedRecord] = [:]
  private var damaged: Set<PersistentKey> = []
  private let truncateTo: Int?
  private let failWrites: Bool

  init(truncateTo: Int? = nil, failWrites: Bool = false) {
    self.truncateTo = truncateTo
    self.failWrites = failWrites
  }

  func corrupt(_ key: PersistentKey) { lock.withLock { _ = damaged.insert(key) } }

  func loadAll(_ rules: PersistenceRules, now: Date) -> PersistenceLoad {
    lock.withLock {
      PersistenceLoad(records: records.values.filter { !damaged.contains($0.key) })
    }
  }

  func read(_ key: PersistentKey, rules: PersistenceRules, now: Date) -> PersistenceLoad {
    lock.withLock {
      guard let record = records[key], !damaged.contains(key) else { return PersistenceLoad() }
      return PersistenceLoad(records: [record])
    }
  }

  func write(_ record: PersistedRecord, rules: PersistenceRules) throws(PersistenceError)
    -> [PersistenceEvent]
  {
    if failWrites { throw .io(operation: "write", path: "nowhere", errno: EIO) }
    var kept = record
    if let truncateTo { kept.value = kept.value.prefix(truncateTo) }
    lock.withLock { records[record.key] = kept }
    return []
  }

  func remove(_ key: PersistentKey) throws(PersistenceError) {
    lock.withLock { records[key] = nil }
  }

  func removeAll() throws(PersistenceError) {
    lock.withLock { records = [:] }
  }
}

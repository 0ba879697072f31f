import Foundation
public import Loadables

/// Runs the rules every ``PersistenceBackend`` must keep against a backend of yours, and
/// returns what it broke.
///
/// Each rule gets a fresh, empty backend from `makeBackend` and checks one promise of the
/// protocol (see "The rules every backend keeps" on ``PersistenceBackend``). A failure names
/// the rule and says what the backend did instead, so a test shows it as is, from XCTest or
/// Swift Testing:
///
/// <!-- compile: context EncryptedBackend -->
/// ```swift
/// @Test func encryptedBackendKeepsTheRules() {
///   let failures = PersistenceBackendConformance.check {
///     EncryptedBackend(wrapping: InMemoryPersistence(), key: 0x5A)
///   }
///   #expect(failures.isEmpty, "\(failures)")
/// }
/// ```
///
/// ```text
/// version: read(posts) under version "2" returned s5:posts (5 bytes, version "1") and [];
/// expected none and droppedOtherVersion(key: s5:posts, version: "1")
/// ```
///
/// Whether a bad record is reported can only be checked by damaging a stored record, which
/// only you know how to do: pass `corrupt` to check it too (``Rule/badRecordsReported`` is
/// skipped without it).
public enum PersistenceBackendConformance {
  /// A promise of ``PersistenceBackend``.
  public enum Rule: String, CaseIterable, Sendable {
    /// A record read back is the record written: key, value bytes, `savedAt` and version.
    case wholeRecords
    /// A write replaces the key's previous record; other keys keep theirs.
    case writeReplaces
    /// A record of another version is never returned; it is removed and reported.
    case version
    /// A record older than `maxAge` is never returned; it is removed and reported.
    case maxAge
    /// Beyond the byte budget the least recently used records are evicted and reported.
    case budget
    /// A record that cannot be read is removed and reported; the others load.
    case badRecordsReported
    /// `remove(_:)` removes one key's record, `removeAll()` every record.
    case removal
  }

  /// A rule a backend broke, and what it did instead.
  public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The rule broken.
    public let rule: Rule
    /// What the backend was asked, what it did and what was expected.
    public let message: String

    /// The rule's name, then the message.
    public var description: String { "\(rule.rawValue): \(message)" }
  }

  /// Checks every rule against fresh backends from `makeBackend`.
  ///
  /// - Parameters:
  ///   - makeBackend: Makes an empty backend; called once per rule.
  ///   - corrupt: Damages the stored record of a key in a backend (overwrites its file with
  ///     garbage, say), to check that bad records are reported; `nil` skips that rule.
  /// - Returns: The rules broken, empty when the backend keeps them all.
  public static func check(
    _ makeBackend: () throws -> any PersistenceBackend,
    corrupt: ((any PersistenceBackend, PersistentKey) throws -> Void)? = nil
  ) -> [Failure] {
    var failures: [Failure] = []
    for rule in Rule.allCases {
      if rule == .badRecordsReported, corrupt == nil { continue }
      var check = Check(rule: rule)
      do {
        let backend = try makeBackend()
        try check.run(on: backend, corrupt: corrupt)
      } catch {
        check.fail("threw \(error)")
      }
      failures += check.failures
    }
    return failures
  }
}

/// One rule's run: its steps and what they found.
private struct Check {
  let rule: PersistenceBackendConformance.Rule
  var failures: [PersistenceBackendConformance.Failure] = []

  init(rule: PersistenceBackendConformance.Rule) { self.rule = rule }

  static let now = Date(timeIntervalSince1970: 1_700_000_000.25)
  static let rules = PersistenceRules(version: "1")

  mutating func fail(_ message: String) {
    failures.append(.init(rule: rule, message: message))
  }

  mutating func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fail(message()) }
  }

  static func key(_ name: String) throws -> PersistentKey {
    try PersistentKey(LoadKey([name]))
  }

  static func record(
    _ name: String, value: Data = Data("value".utf8), savedAt: Date = now, version: String = "1"
  ) throws -> PersistedRecord {
    PersistedRecord(key: try key(name), value: value, savedAt: savedAt, version: version)
  }

  static func describe(_ records: [PersistedRecord]) -> String {
    records.isEmpty
      ? "no record"
      : records.map { "\($0.key) (\($0.value.count) bytes, version \"\($0.version)\")" }
        .sorted().joined(separator: ", ")
  }

  mutating func run(
    on backend: any PersistenceBackend,
    corrupt: ((any PersistenceBackend, PersistentKey) throws -> Void)?
  ) throws {
    switch rule {
    case .wholeRecords: try wholeRecords(backend)
    case .writeReplaces: try writeReplaces(backend)
    case .version: try version(backend)
    case .maxAge: try maxAge(backend)
    case .budget: try budget(backend)
    case .badRecordsReported: if let corrupt { try badRecords(backend, corrupt: corrupt) }
    case .removal: try removal(backend)
    }
  }

  private mutating func wholeRecords(_ backend: any PersistenceBackend) throws {
    let bytes = Data((0..<512).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    let written = try Self.record("whole ✓/..\u{0}", value: bytes)
    let unknown = try Self.read(backend, "never written", Self.rules)
    expect(
      unknown == PersistenceLoad(),
      "read(never written) on an empty backend returned \(Self.describe(unknown.records)) and "
        + "\(unknown.events); expected nothing")
    try backend.write(written, rules: Self.rules)
    let read = backend.read(written.key, rules: Self.rules, now: Self.now)
    expect(
      read.records == [written],
      "read(\(written.key)) after write returned \(Self.describe(read.records)); expected the "
        + "record written, byte for byte, savedAt \(written.savedAt.timeIntervalSince1970)"
        + (read.records.first.map { " (saw savedAt \($0.savedAt.timeIntervalSince1970))" } ?? ""))
    let all = backend.loadAll(Self.rules, now: Self.now)
    expect(
      all.records == [written],
      "loadAll after one write returned \(Self.describe(all.records)); expected the record written")
    expect(all.events.isEmpty, "loadAll of valid records reported \(all.events); expected nothing")
  }

  private mutating func writeReplaces(_ backend: any PersistenceBackend) throws {
    try backend.write(try Self.record("a", value: Data("old".utf8)), rules: Self.rules)
    let other = try Self.record("b", value: Data("other".utf8))
    try backend.write(other, rules: Self.rules)
    let newer = try Self.record("a", value: Data("new".utf8))
    try backend.write(newer, rules: Self.rules)
    let read = backend.read(newer.key, rules: Self.rules, now: Self.now)
    expect(
      read.records == [newer],
      "read(a) after writing \"old\" then \"new\" returned "
        + "\(read.records.map { String(decoding: $0.value, as: UTF8.self) }); expected [\"new\"]")
    let all = backend.loadAll(Self.rules, now: Self.now)
    expect(
      all.records.count == 2 && all.records.contains(newer)
        && all.records.contains(other),
      "loadAll after writes of a, b, a returned \(Self.describe(all.records)); expected the "
        + "newer a and b")
  }

  private mutating func version(_ backend: any PersistenceBackend) throws {
    let old = try Self.record("posts", version: "1")
    let kept = try Self.record("kept", version: "2")
    let rules2 = PersistenceRules(version: "2")
    try backend.write(old, rules: Self.rules)
    let read = backend.read(old.key, rules: rules2, now: Self.now)
    let dropped = PersistenceEvent.droppedOtherVersion(key: old.key, version: "1")
    expect(
      read.records.isEmpty && read.events == [dropped],
      "read(posts) under version \"2\" returned \(Self.describe(read.records)) and "
        + "\(read.events); expected none and \(dropped)")
    let again = backend.read(old.key, rules: Self.rules, now: Self.now)
    expect(
      again.records.isEmpty,
      "read(posts) under version \"1\" after it was dropped returned "
        + "\(Self.describe(again.records)); expected it removed")
    try backend.write(try Self.record("posts", version: "1"), rules: Self.rules)
    try backend.write(kept, rules: rules2)
    let all = backend.loadAll(rules2, now: Self.now)
    expect(
      all.records == [kept] && all.events == [dropped],
      "loadAll under version \"2\" returned \(Self.describe(all.records)) and \(all.events); "
        + "expected only kept and \(dropped)")
  }

  private mutating func maxAge(_ backend: any PersistenceBackend) throws {
    let rules = PersistenceRules(version: "1", maxAge: .seconds(60))
    let old = try Self.record("old", savedAt: Self.now.addingTimeInterval(-61))
    let fresh = try Self.record("fresh", savedAt: Self.now.addingTimeInterval(-59))
    try backend.write(old, rules: rules)
    try backend.write(fresh, rules: rules)
    let dropped = PersistenceEvent.droppedExpired(key: old.key, savedAt: old.savedAt)
    let read = backend.read(old.key, rules: rules, now: Self.now)
    expect(
      read.records.isEmpty && read.events == [dropped],
      "read(old) of a record 61 s old under maxAge 60 s returned \(Self.describe(read.records)) "
        + "and \(read.events); expected none and \(dropped)")
    try backend.write(old, rules: rules)
    let all = backend.loadAll(rules, now: Self.now)
    expect(
      all.records == [fresh] && all.events == [dropped],
      "loadAll under maxAge 60 s returned \(Self.describe(all.records)) and \(all.events); "
        + "expected only fresh (59 s old) and \(dropped)")
  }

  private mutating func budget(_ backend: any PersistenceBackend) throws {
    // Three records of 1000 value bytes do not fit in 2500 bytes, two do, however a backend
    // counts its overhead (up to 250 bytes a record).
    let rules = PersistenceRules(version: "1", byteBudget: 2_500)
    let value = Data(repeating: 0x41, count: 1_000)
    let (a, b, c) = (
      try Self.record("a", value: value), try Self.record("b", value: value),
      try Self.record("c", value: value)
    )
    var events = try backend.write(a, rules: rules)
    events += try backend.write(b, rules: rules)
    expect(events.isEmpty, "two records within the budget evicted: \(events); expected nothing")
    _ = backend.read(a.key, rules: rules, now: Self.now)
    events = try backend.write(c, rules: rules)
    let evicted = events.compactMap { event -> PersistentKey?? in
      if case .evicted(let key, _) = event { return key }
      return nil
    }
    expect(
      evicted == [b.key],
      "writing a, b, reading a, then writing c over a budget of two reported \(events); "
        + "expected one evicted(key: b) (b is the least recently used)")
    let all = backend.loadAll(rules, now: Self.now)
    expect(
      Set(all.records.map(\.key)) == [a.key, c.key],
      "loadAll after the eviction returned \(Self.describe(all.records)); expected a and c")
    let unlimited = PersistenceRules(version: "1")
    for name in ["d", "e", "f", "g"] {
      let extra = try backend.write(try Self.record(name, value: value), rules: unlimited)
      expect(extra.isEmpty, "a write with no budget evicted: \(extra); expected nothing")
    }
    let count = backend.loadAll(unlimited, now: Self.now).records.count
    expect(count == 6, "loadAll with no budget returned \(count) records; expected all 6")
  }

  private mutating func badRecords(
    _ backend: any PersistenceBackend,
    corrupt: (any PersistenceBackend, PersistentKey) throws -> Void
  ) throws {
    let bad = try Self.record("bad")
    let good = try Self.record("good")
    try backend.write(bad, rules: Self.rules)
    try backend.write(good, rules: Self.rules)
    try corrupt(backend, bad.key)
    let all = backend.loadAll(Self.rules, now: Self.now)
    let reported = all.events.contains { event in
      if case .removedUnreadable = event { return true }
      return false
    }
    expect(
      all.records == [good] && reported,
      "loadAll after corrupting bad returned \(Self.describe(all.records)) and \(all.events); "
        + "expected only good and a removedUnreadable event")
    let read = backend.read(bad.key, rules: Self.rules, now: Self.now)
    expect(
      read.records.isEmpty,
      "read(bad) after it was reported returned \(Self.describe(read.records)); expected none")
  }

  private mutating func removal(_ backend: any PersistenceBackend) throws {
    let (a, b, c) = (try Self.record("a"), try Self.record("b"), try Self.record("c"))
    for record in [a, b, c] { try backend.write(record, rules: Self.rules) }
    try backend.remove(a.key)
    try backend.remove(try Self.key("never written"))
    let afterRemove = backend.loadAll(Self.rules, now: Self.now)
    expect(
      Set(afterRemove.records.map(\.key)) == [b.key, c.key],
      "loadAll after remove(a) returned \(Self.describe(afterRemove.records)); expected b and c")
    try backend.removeAll()
    let afterAll = backend.loadAll(Self.rules, now: Self.now)
    expect(
      afterAll.records.isEmpty,
      "loadAll after removeAll() returned \(Self.describe(afterAll.records)); expected none")
    let read = backend.read(b.key, rules: Self.rules, now: Self.now)
    expect(
      read.records.isEmpty,
      "read(b) after removeAll() returned \(Self.describe(read.records)); expected none")
  }

  private static func read(
    _ backend: any PersistenceBackend, _ name: String, _ rules: PersistenceRules
  ) throws -> PersistenceLoad {
    backend.read(try key(name), rules: rules, now: now)
  }
}

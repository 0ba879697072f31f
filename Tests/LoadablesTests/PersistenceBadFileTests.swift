import Foundation
import XCTest

@testable import Loadables

/// Files the directory backend cannot trust (torn, truncated, edited, foreign, colliding) and
/// directories it cannot write: each is a reported event or a typed error, never a crash and
/// never another key's value.
final class PersistenceBadFileTests: XCTestCase {
  private let now = Date(timeIntervalSince1970: 1_700_000_000)
  private let rules = PersistenceRules(version: "1")

  private func record(_ key: LoadKey, _ text: String) throws -> PersistedRecord {
    PersistedRecord(key: try PersistentKey(key), value: Data(text.utf8), savedAt: now, version: "1")
  }

  /// Writes a good record for ["victim"] and one for ["bystander"], lets `damage` change the
  /// victim's bytes, then checks that both a read and a launch load remove the file, report
  /// `reason`, and keep the bystander.
  private func assertDamaged(
    _ label: String, reason: UnreadableReason, _ damage: ([UInt8]) -> [UInt8],
    line: UInt = #line
  ) throws {
    for path in ["read", "loadAll"] {
      let directory = temporaryDirectory()
      let backend = DirectoryPersistence(directory)
      let victim = try record(["victim"], "the victim's value")
      let bystander = try record(["bystander"], "fine")
      try backend.write(victim, rules: rules)
      try backend.write(bystander, rules: rules)
      let name = backend.fileName(for: victim.key)
      let file = directory.appendingPathComponent(name)
      try Data(damage(Array(try Data(contentsOf: file)))).write(to: file)

      let relaunched = DirectoryPersistence(directory)
      let expected = PersistenceEvent.removedUnreadable(file: name, reason: reason)
      if path == "read" {
        XCTAssertEqual(
          relaunched.read(victim.key, rules: rules, now: now), PersistenceLoad(events: [expected]),
          "\(label) (read)", line: line)
      } else {
        XCTAssertEqual(
          relaunched.loadAll(rules, now: now),
          PersistenceLoad(records: [bystander], events: [expected]),
          "\(label) (loadAll)", line: line)
      }
      XCTAssertFalse(
        FileManager.default.fileExists(atPath: file.path), "\(label): file stays", line: line)
      XCTAssertEqual(
        relaunched.read(victim.key, rules: rules, now: now), PersistenceLoad(), line: line)
      XCTAssertEqual(
        relaunched.read(bystander.key, rules: rules, now: now).records, [bystander], line: line)
    }
  }

  func testTruncatedFilesAreRemovedAndReported() throws {
    try assertDamaged("zero length", reason: .empty) { _ in [] }
    for keep in [1, 3, 4, 20, 35, 60] {
      try assertDamaged("first \(keep) bytes", reason: .wrongLength) { Array($0.prefix(keep)) }
    }
    try assertDamaged("last byte missing", reason: .wrongLength) { Array($0.dropLast()) }
    try assertDamaged("a byte appended", reason: .wrongLength) { $0 + [0] }
  }

  func testAFlippedByteAnywhereIsDetected() throws {
    let size = RecordFormat.encodedSize(try record(["victim"], "the victim's value"))
    // Past the magic and the format version: in savedAt, the lengths, the version, the key,
    // the value and the checksum. A flip in a length reads as a wrong length.
    for offset in [8, 15, 32, 33, 40, size - 10, size - 5, size - 1] {
      try assertDamaged("byte \(offset) flipped", reason: .checksumMismatch) { bytes in
        var bytes = bytes
        bytes[offset] ^= 0x20
        return bytes
      }
    }
    for offset in [16, 20, 24] {
      try assertDamaged("length at \(offset) flipped", reason: .wrongLength) { bytes in
        var bytes = bytes
        bytes[offset] ^= 0x01
        return bytes
      }
    }
  }

  func testGarbageWrongMagicAndOtherFormatsAreRemovedAndReported() throws {
    try assertDamaged("garbage", reason: .wrongMagic) { _ in Array("{\"posts\": [1, 2, 3]}".utf8) }
    try assertDamaged("wrong magic", reason: .wrongMagic) { bytes in
      var bytes = bytes
      bytes[0] = UInt8(ascii: "X")
      return bytes
    }
    try assertDamaged("format 2", reason: .unsupportedFormat(2)) { bytes in
      var bytes = bytes
      bytes[4] = 2
      return bytes
    }
  }

  func testAnotherKeysFileUnderThisKeysNameIsRemovedNeverReadAsThisKeysValue() throws {
    let bystander = try record(["bystander"], "fine")
    let stranger = try PersistentKey(["stranger"])
    try assertDamaged("another key's file", reason: .misplaced(storedKey: stranger)) { _ in
      RecordFormat.encode(
        PersistedRecord(key: stranger, value: Data("stranger".utf8), savedAt: now, version: "1"))
    }
    _ = bystander
  }

  func testAnEventNamesItsKeyWhereItKnowsIt() throws {
    let directory = temporaryDirectory()
    let backend = DirectoryPersistence(directory)
    let old = try record(["old"], "saved by another version")
    try backend.write(old, rules: rules)
    let dropped = DirectoryPersistence(directory).loadAll(
      PersistenceRules(version: "2"), now: now
    ).events
    XCTAssertEqual(dropped.map(\.key), [old.key])
    let stranger = try PersistentKey(["stranger"])
    XCTAssertEqual(
      PersistenceEvent.removedUnreadable(file: "x", reason: .misplaced(storedKey: stranger)).key,
      stranger)
    XCTAssertEqual(PersistenceEvent.evicted(key: stranger, bytes: 1).key, stranger)
    // A file whose bytes do not say: the case names the file only.
    XCTAssertNil(PersistenceEvent.removedUnreadable(file: "x", reason: .checksumMismatch).key)
    XCTAssertNil(PersistenceEvent.removedTemporary(file: "tmp/x").key)
  }

  func testCollidingKeysNeverReadEachOthersValue() throws {
    let directory = temporaryDirectory()
    let backend = DirectoryPersistence(directory, hash: { _ in "collision" })
    let first = try record(["first"], "first value")
    let second = try record(["second"], "second value")
    XCTAssertEqual(try backend.write(first, rules: rules), [])
    XCTAssertEqual(try backend.write(second, rules: rules), [.displaced(key: first.key)])

    XCTAssertEqual(backend.read(first.key, rules: rules, now: now), PersistenceLoad())
    try backend.remove(first.key)  // must not remove the second key's record
    XCTAssertEqual(backend.read(second.key, rules: rules, now: now).records, [second])
    XCTAssertEqual(
      DirectoryPersistence(directory, hash: { _ in "collision" }).loadAll(rules, now: now),
      PersistenceLoad(records: [second]))
    try backend.remove(second.key)
    XCTAssertEqual(backend.loadAll(rules, now: now), PersistenceLoad())
  }

  func testTemporaryFilesLeftByACrashAreRemovedAtLaunch() throws {
    let directory = temporaryDirectory()
    let backend = DirectoryPersistence(directory)
    let kept = try record(["kept"], "kept")
    try backend.write(kept, rules: rules)
    let temporary =
      DirectoryPersistence.temporaryPrefix + backend.fileName(for: kept.key) + "-1-abc"
    try Data(RecordFormat.encode(kept).prefix(10)).write(
      to: directory.appendingPathComponent(temporary))
    XCTAssertEqual(
      DirectoryPersistence(directory).loadAll(rules, now: now),
      PersistenceLoad(records: [kept], events: [.removedTemporary(file: temporary)]))
    XCTAssertEqual(
      Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)),
      [backend.fileName(for: kept.key), DirectoryPersistence.temporaryFolder])
  }

  func testADirectoryThatCannotBeCreatedIsATypedErrorAndTheBackendKeepsWorking() throws {
    // Root ignores permissions, so the directory is made impossible another way: its parent
    // is a file. (The permission case runs below when the tests do not run as root.)
    let parent = temporaryDirectory()
    try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
    let blocker = parent.appendingPathComponent("file")
    try Data("not a directory".utf8).write(to: blocker)
    let directory = blocker.appendingPathComponent("records")
    let backend = DirectoryPersistence(directory)
    let saved = try record(["a"], "a")

    XCTAssertThrowsError(try backend.write(saved, rules: rules)) { error in
      XCTAssertEqual(
        error as? PersistenceError, .unwritableDirectory(path: directory.path, errno: ENOTDIR))
      XCTAssertTrue("\(error)".contains("cannot write to directory"), "\(error)")
    }
    XCTAssertEqual(
      backend.loadAll(rules, now: now),
      PersistenceLoad(events: [.directoryUnreadable(path: directory.path, errno: ENOTDIR)]))
    XCTAssertEqual(backend.read(saved.key, rules: rules, now: now), PersistenceLoad())
    XCTAssertThrowsError(try backend.removeAll())
    // Once the blocker is gone the same instance writes again.
    try FileManager.default.removeItem(at: blocker)
    try backend.write(saved, rules: rules)
    XCTAssertEqual(backend.read(saved.key, rules: rules, now: now).records, [saved])
  }

  func testAReadOnlyDirectoryIsATypedErrorAndKeepsTheOldRecord() throws {
    // Root ignores permissions: there the test above covers an unwritable directory. (Not an
    // XCTSkip: CI's summary line must read the same in every run.)
    guard getuid() != 0 else { return print("read-only directory: not checkable as root") }
    let directory = temporaryDirectory()
    let backend = DirectoryPersistence(directory)
    let old = try record(["a"], "old")
    try backend.write(old, rules: rules)
    try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: directory.path)
    addTeardownBlock {
      try? FileManager.default.setAttributes(
        [.posixPermissions: 0o700], ofItemAtPath: directory.path)
    }
    XCTAssertThrowsError(try backend.write(record(["a"], "new"), rules: rules)) { error in
      XCTAssertEqual(
        error as? PersistenceError, .unwritableDirectory(path: directory.path, errno: EACCES))
    }
    XCTAssertEqual(backend.read(old.key, rules: rules, now: now).records, [old])
  }

  func testAWriteThatFailsAfterItsTemporaryFileLeavesNothingBehind() throws {
    // The rename fails (a directory stands where the record file goes): the error is typed,
    // the temporary file is removed, and the other records are untouched.
    let directory = temporaryDirectory()
    let backend = DirectoryPersistence(directory)
    let other = try record(["other"], "other")
    try backend.write(other, rules: rules)
    let blocked = try record(["blocked"], "blocked")
    let name = backend.fileName(for: blocked.key)
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent(name).appendingPathComponent("inside"),
      withIntermediateDirectories: true)

    XCTAssertThrowsError(try backend.write(blocked, rules: rules)) { error in
      guard case .io(let operation, _, let code) = error as? PersistenceError else {
        return XCTFail("expected an I/O error, got \(error)")
      }
      XCTAssertEqual(operation, "rename")
      XCTAssertTrue([EISDIR, ENOTEMPTY, EEXIST].contains(code), "errno \(code)")
    }
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    XCTAssertEqual(
      Set(names), [name, backend.fileName(for: other.key), DirectoryPersistence.temporaryFolder])
    let temporaries = try FileManager.default.contentsOfDirectory(
      atPath: directory.appendingPathComponent(DirectoryPersistence.temporaryFolder).path)
    XCTAssertEqual(
      temporaries.filter { !$0.hasSuffix(".lock") }, [], "a temporary file stays")
    XCTAssertEqual(backend.read(other.key, rules: rules, now: now).records, [other])
  }

  func testPersistenceErrorsNameTheFailure() {
    XCTAssertTrue(PersistenceError.io(operation: "write", path: "/x", errno: ENOSPC).isDiskFull)
    XCTAssertFalse(PersistenceError.io(operation: "write", path: "/x", errno: EIO).isDiskFull)
    XCTAssertEqual(
      "\(PersistenceError.io(operation: "write", path: "/x", errno: ENOSPC))",
      "write failed for /x: No space left on device (errno \(ENOSPC))")
  }
}

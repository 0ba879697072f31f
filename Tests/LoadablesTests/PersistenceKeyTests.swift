import Foundation
import XCTest

@testable import Loadables

final class PersistenceKeyTests: XCTestCase {
  struct Tag: Codable, Hashable, Sendable {
    var name: String
    var level: Int
  }

  private struct Opaque: Hashable, Sendable { var id: Int }

  func testEqualKeysShareAnIdentityAndDifferentKeysDoNot() throws {
    XCTAssertEqual(try PersistentKey(["posts", 42]).identity, "s5:postsi2:42")
    // LoadKey's own equality: 42, 42 as UInt8 and 42.0 are one part; "é" in either form is one.
    let forms: [LoadKey] = [["posts", 42], ["posts", UInt8(42)], ["posts", 42.0]]
    for key in forms {
      XCTAssertEqual(key, forms[0])
      XCTAssertEqual(try PersistentKey(key), try PersistentKey(forms[0]), "\(key)")
    }
    XCTAssertEqual(try PersistentKey(["caf\u{e9}"]), try PersistentKey(["cafe\u{301}"]))
    let distinct: [LoadKey] = [
      [1], ["1"], [true], [1.5], [Float(1.5) + 0.1], ["a", "b"], ["ab"], ["a/b"], ["a", "", "b"],
      [Tag(name: "a", level: 1)], [Tag(name: "a", level: 2)], ["s1:a"], ["s1:as1:b"],
    ]
    let identities = try distinct.map { try PersistentKey($0).identity }
    XCTAssertEqual(Set(identities).count, distinct.count, "\(identities)")
  }

  func testCodablePartsAreEncodedStablyWithTheirTypeName() throws {
    let key = try PersistentKey(["tags", Tag(name: "x", level: 3)])
    XCTAssertTrue(
      key.identity.hasSuffix("PersistenceKeyTests.Tag={\"level\":3,\"name\":\"x\"}"), key.identity)
    XCTAssertEqual(try PersistentKey(["tags", Tag(name: "x", level: 3)]), key)
  }

  func testAPartThatCannotBeEncodedIsATypedErrorNotATrap() throws {
    XCTAssertThrowsError(try PersistentKey(["posts", Opaque(id: 1)])) { error in
      guard case .unencodableKey(let key, let reason) = error as? PersistenceError else {
        return XCTFail("expected unencodableKey, got \(error)")
      }
      XCTAssertEqual(key, "[\"posts\", Opaque(id: 1)]")
      XCTAssertTrue(reason.hasPrefix("part 1 (Opaque(id: 1)): Opaque is not Encodable"), reason)
    }
    struct Local: Codable, Hashable, Sendable { var id: Int }
    XCTAssertThrowsError(try PersistentKey([Local(id: 1)])) { error in
      XCTAssertTrue("\(error)".contains("private or local"), "\(error)")
    }
  }

  func testSHA256MatchesTheStandardVectors() {
    XCTAssertEqual(
      SHA256.hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    XCTAssertEqual(
      SHA256.hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    XCTAssertEqual(
      SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    XCTAssertEqual(
      SHA256.hex(String(repeating: "a", count: 1000)),
      "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
  }

  func testCRC32MatchesTheStandardCheckValue() {
    XCTAssertEqual(CRC32.checksum(Array("123456789".utf8)), 0xcbf4_3926)
    XCTAssertEqual(CRC32.checksum(Array("0123456789".utf8).dropFirst()), 0xcbf4_3926)
    XCTAssertEqual(CRC32.checksum("123456789".utf8), 0xcbf4_3926)  // not contiguous
  }

  func testRecordFormatRoundTripsEdgeValues() {
    let records = [
      PersistedRecord(
        key: PersistentKey(identity: "s1:a"), value: Data(),
        savedAt: Date(timeIntervalSince1970: 0),
        version: ""),
      PersistedRecord(
        key: PersistentKey(identity: "s4:🙂"), value: Data([0, 255, 0]),
        savedAt: Date(timeIntervalSince1970: -1.5), version: "2.0 (build 7) é"),
    ]
    for record in records {
      let bytes = RecordFormat.encode(record)
      XCTAssertEqual(bytes.count, RecordFormat.encodedSize(record))
      XCTAssertEqual(try RecordFormat.decode(bytes).get(), record)
    }
  }

  func testARecordWhoseVersionOrKeyIsNotUTF8IsMalformed() {
    let record = PersistedRecord(
      key: PersistentKey(identity: "s3:abc"), value: Data("1".utf8),
      savedAt: Date(timeIntervalSince1970: 1), version: "xyz")
    let keyStart = RecordFormat.headerSize + 3
    // A byte that is never UTF-8, an encoded surrogate, and a lead byte with no continuation:
    // each decoded with repairs, which the check compares with the bytes read.
    for (offset, invalid) in [
      (keyStart, [0xff]), (keyStart + 3, [0xed, 0xa0, 0x80]), (32, [0xc3]),
    ] {
      var bytes = RecordFormat.encode(record)
      bytes.replaceSubrange(offset..<(offset + invalid.count), with: invalid.map(UInt8.init))
      // A valid checksum over the bad bytes: the check that fails is UTF-8's.
      let body = bytes.count - RecordFormat.trailerSize
      withUnsafeBytes(of: CRC32.checksum(bytes[0..<body]).littleEndian) {
        bytes.replaceSubrange(body..<bytes.count, with: $0)
      }
      XCTAssertEqual(RecordFormat.decode(bytes), .failure(.malformed), "\(invalid) at \(offset)")
    }
  }

  func testADirectorysPathIsStandardizedAsFoundationStandardizesIt() {
    let paths = [
      "/tmp/a", "/tmp/a/", "/tmp/a/../b", "/tmp/./a", "/tmp//a", "/tmp/a/.", "/tmp/a/..", "/",
      "/tmp/.hidden", "/tmp/a.b/c..d", "/tmp/é ü",
    ]
    for path in paths {
      for hint in [URL.DirectoryHint.isDirectory, .notDirectory, .inferFromPath] {
        let url = URL(filePath: path, directoryHint: hint)
        XCTAssertEqual(
          DirectoryPersistence.standardizedPath(url), url.standardizedFileURL.path, path)
      }
    }
    let relative = URL(filePath: "some/../folder", relativeTo: URL(filePath: "/tmp/"))
    XCTAssertEqual(
      DirectoryPersistence.standardizedPath(relative), relative.standardizedFileURL.path)
  }

  func testADirectorysPathTakenWithoutDecodingIsStillFoundationsStandardPath() {
    // The path is read percent-encoded when it holds no escape: a name with characters a URL
    // escapes, or with a `%` of its own, still gives the decoded, standard path.
    let paths = ["/tmp/a%b", "/tmp/a;b", "/tmp/a?b#c", "/tmp/a b/", "/tmp/100%/x", "//tmp/a"]
    for path in paths {
      for hint in [URL.DirectoryHint.isDirectory, .notDirectory] {
        let url = URL(filePath: path, directoryHint: hint)
        XCTAssertEqual(
          DirectoryPersistence.standardizedPath(url), url.standardizedFileURL.path, path)
      }
    }
  }

  func testTheOutboxFolderIsTheDirectorysOutboxSubfolder() throws {
    for path in ["/tmp/a", "/tmp/a/", "/tmp/a/../b", "/", "/tmp/é ü"] {
      let url = URL(filePath: path, directoryHint: .isDirectory)
      let outbox = try XCTUnwrap(
        StorePersistence.directory(url, version: "1").outboxBackend as? DirectoryPersistence)
      let expected = url.appending(path: "Outbox", directoryHint: .isDirectory)
      XCTAssertEqual(outbox.url, expected, path)
      XCTAssertEqual(outbox.path, DirectoryPersistence.standardizedPath(expected), path)
    }
  }

  func testAnyKeyMapsToASafeDistinctFileInsideTheDirectory() throws {
    let directory = temporaryDirectory()
    let backend = DirectoryPersistence(directory)
    let rules = PersistenceRules(version: "1")
    let keys: [LoadKey] = [
      ["a/b"], ["a", "b"], [".."], ["../../etc/passwd"], ["/"], ["nul\u{0}byte"], ["\u{0}"],
      ["👩‍👩‍👧‍👦", "🏳️‍🌈"], [String(repeating: "long", count: 2_000)],
      [String(repeating: "long", count: 2_000) + "!"], [1], ["1"], [Int64(1) << 40], [-1], ["-1"],
      [""], [" "], ["."], ["CON"], ["a\\b"],
    ]
    var names: Set<String> = []
    for (index, key) in keys.enumerated() {
      let persistent = try PersistentKey(key)
      let name = backend.fileName(for: persistent)
      XCTAssertTrue(
        name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") }, name)
      XCTAssertEqual(name.count, 64 + ".loadable".count)
      names.insert(name)
      try backend.write(record(persistent, "value \(index)"), rules: rules)
    }
    XCTAssertEqual(names.count, keys.count, "two keys share a file name")
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0 != DirectoryPersistence.temporaryFolder }
    XCTAssertEqual(Set(files), names, "every file is directly inside the directory")
    for (index, key) in keys.enumerated() {
      let load = DirectoryPersistence(directory).read(
        try PersistentKey(key), rules: rules, now: Date())
      XCTAssertEqual(
        load.records.map { String(decoding: $0.value, as: UTF8.self) }, ["value \(index)"])
      XCTAssertEqual(load.events, [])
    }
  }

  private func record(_ key: PersistentKey, _ text: String) -> PersistedRecord {
    PersistedRecord(
      key: key, value: Data(text.utf8), savedAt: Date(timeIntervalSince1970: 1_000), version: "1")
  }
}

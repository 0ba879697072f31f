import Foundation

/// The saved form of a queued edit: the edit's encoded value with what the outbox needs to
/// order, resend and show it without decoding the edit.
///
/// Written as a few fixed fields and length-prefixed strings ahead of the edit's own JSON
/// (``encoded(mark:)``), so that the edit is encoded once, when it is enqueued: the record
/// written when it commits carries the same bytes with the commit's time set. The backend's
/// record file around it holds the checksum. Records written as JSON (every version before
/// this layout) still read back (``read(_:)``): an app updated with edits queued sends them.
struct OutboxRecord: Codable, Equatable {
  var id: String
  var name: String
  var scopeID: String
  var scope: String
  var idempotencyKey: String
  var sequence: UInt64
  var enqueuedAt: Date
  /// The reason of a permanent failure; `nil` while the edit is to be sent.
  var failure: String?
  /// The type of the permanent failure's error (``EditFailure/typeName``); `nil` when unknown
  /// (a record written before it was kept) or not failed.
  var failureType: String? = nil
  /// The edit, as JSON.
  var payload: Data

  /// The rules of the outbox's backend: its own version (an app update keeps queued edits),
  /// no age limit and no byte budget (nothing evicts a queued edit). The same for both
  /// layouts of the value: a version change would make an older library remove the records
  /// it cannot read instead of keeping them, failed.
  static let rules = PersistenceRules(version: "loadables-outbox-1")

  static func key(_ id: String) -> PersistentKey { PersistentKey(identity: "outbox:" + id) }
}

/// The record's bytes.
///
/// Layout (integers little-endian, dates as a `Double`'s bit pattern of seconds since the
/// reference date, as `Date` keeps them, so they read back exactly):
///
/// | bytes | field |
/// |---|---|
/// | 4 | magic `LDOX` (a JSON record starts with `{`) |
/// | 1 | layout, 1 |
/// | 1 | flags: 1 committed, 2 a floor, 4 failed |
/// | 2 | the UTF-8 length of the failure's type name (0: none); written since the type was kept, in the bytes every earlier record left 0 |
/// | 8 | sequence |
/// | 8 | enqueued at |
/// | 8 | committed at (0 unless committed) |
/// | 8 | the committed log's floor then (0 unless flagged) |
/// | 6 × 4 | the UTF-8 lengths of id, name, scope id, scope, idempotency key, failure |
/// | … | those six strings; with a type name, the failure's is the type name, `": "` and the reason, so a library that does not read the type name shows both as the reason |
/// | rest | the edit, as JSON |
extension OutboxRecord {
  static let magic: [UInt8] = Array("LDOX".utf8)
  /// Between a failure's type name and its reason, in the failure's field.
  static let typeSeparator = ": "
  static let layout: UInt8 = 1
  static let headerSize = 64

  private enum Flag {
    static let committed: UInt8 = 1
    static let floor: UInt8 = 2
    static let failed: UInt8 = 4
  }

  /// The record's bytes; committed at `mark.committedAt` when given.
  func encoded(mark: CommittedEdits.Mark? = nil) -> Data {
    // The type name's length must fit its two bytes: a longer one is not kept.
    let typeName = failure == nil ? "" : failureType ?? ""
    let typed = !typeName.isEmpty && typeName.utf8.count <= Int(UInt16.max)
    let failureText = typed ? typeName + Self.typeSeparator + (failure ?? "") : failure ?? ""
    var flags: UInt8 = 0
    if mark?.committedAt != nil { flags |= Flag.committed }
    if mark?.floor != nil { flags |= Flag.floor }
    if failure != nil { flags |= Flag.failed }
    let lengths = (
      id.utf8.count, name.utf8.count, scopeID.utf8.count, scope.utf8.count,
      idempotencyKey.utf8.count, failureText.utf8.count
    )
    let size =
      Self.headerSize + lengths.0 + lengths.1 + lengths.2 + lengths.3 + lengths.4 + lengths.5
      + payload.count
    let enqueued = enqueuedAt.timeIntervalSinceReferenceDate.bitPattern
    let committed = mark?.committedAt?.timeIntervalSinceReferenceDate.bitPattern ?? 0
    let floor = mark?.floor?.timeIntervalSinceReferenceDate.bitPattern ?? 0
    // Written in place through one pointer, into memory the returned `Data` takes over:
    // appending field by field cost more than the rest of the record's making, an array copied
    // into a `Data` allocates and copies the record twice, and writing inside a `Data`'s
    // closure copies the record's fields into it.
    let base = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
    for (index, byte) in Self.magic.enumerated() {
      base.storeBytes(of: byte, toByteOffset: index, as: UInt8.self)
    }
    base.storeBytes(of: Self.layout, toByteOffset: 4, as: UInt8.self)
    base.storeBytes(of: flags, toByteOffset: 5, as: UInt8.self)
    base.storeBytes(
      of: UInt16(typed ? typeName.utf8.count : 0).littleEndian, toByteOffset: 6, as: UInt16.self)
    base.storeBytes(of: sequence.littleEndian, toByteOffset: 8, as: UInt64.self)
    base.storeBytes(of: enqueued.littleEndian, toByteOffset: 16, as: UInt64.self)
    base.storeBytes(of: committed.littleEndian, toByteOffset: 24, as: UInt64.self)
    base.storeBytes(of: floor.littleEndian, toByteOffset: 32, as: UInt64.self)
    base.storeBytes(of: UInt32(lengths.0).littleEndian, toByteOffset: 40, as: UInt32.self)
    base.storeBytes(of: UInt32(lengths.1).littleEndian, toByteOffset: 44, as: UInt32.self)
    base.storeBytes(of: UInt32(lengths.2).littleEndian, toByteOffset: 48, as: UInt32.self)
    base.storeBytes(of: UInt32(lengths.3).littleEndian, toByteOffset: 52, as: UInt32.self)
    base.storeBytes(of: UInt32(lengths.4).littleEndian, toByteOffset: 56, as: UInt32.self)
    base.storeBytes(of: UInt32(lengths.5).littleEndian, toByteOffset: 60, as: UInt32.self)
    var offset = Self.headerSize
    offset = Self.copy(id, to: base, at: offset)
    offset = Self.copy(name, to: base, at: offset)
    offset = Self.copy(scopeID, to: base, at: offset)
    offset = Self.copy(scope, to: base, at: offset)
    offset = Self.copy(idempotencyKey, to: base, at: offset)
    offset = Self.copy(failureText, to: base, at: offset)
    payload.withUnsafeBytes { raw in
      if let source = raw.baseAddress {
        (base + offset).copyMemory(from: source, byteCount: raw.count)
      }
    }
    return Data(
      bytesNoCopy: base, count: size, deallocator: .custom { bytes, _ in bytes.deallocate() })
  }

  /// Copies `string`'s UTF-8 to `base + offset`; returns the offset after it.
  private static func copy(_ string: String, to base: UnsafeMutableRawPointer, at offset: Int)
    -> Int
  {
    var string = string
    return string.withUTF8 { utf8 in
      if let source = utf8.baseAddress {
        (base + offset).copyMemory(from: source, byteCount: utf8.count)
      }
      return offset + utf8.count
    }
  }

  /// The record saved in `value`, and its commit mark when it is committed (`nil` while
  /// queued), in either layout: the one above, or the JSON of earlier versions.
  ///
  /// - Throws: ``OutboxRecordUnreadable`` (or the JSON decoder's error) when it does not read.
  static func read(_ value: Data) throws -> (record: OutboxRecord, mark: CommittedEdits.Mark?) {
    guard value.count >= magic.count, value.prefix(magic.count).elementsEqual(magic) else {
      let decoder = JSONDecoder()
      let record = try decoder.decode(OutboxRecord.self, from: value)
      let mark = try? decoder.decode(CommittedEdits.Mark.self, from: value)
      return (record, mark?.committedAt == nil ? nil : mark)
    }
    return try value.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
      guard buffer.count >= headerSize else { throw OutboxRecordUnreadable(reason: "too short") }
      func integer<T: FixedWidthInteger>(at offset: Int) -> T {
        T(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: T.self))
      }
      func date(at offset: Int) throws -> Date {
        let seconds = Double(bitPattern: integer(at: offset))
        guard seconds.isFinite else { throw OutboxRecordUnreadable(reason: "a date is not finite") }
        return Date(timeIntervalSinceReferenceDate: seconds)
      }
      let layout: UInt8 = integer(at: 4)
      guard layout == Self.layout else {
        throw OutboxRecordUnreadable(reason: "layout \(layout) is unknown")
      }
      let flags: UInt8 = integer(at: 5)
      let typeLength = Int(integer(at: 6) as UInt16)
      let sequence: UInt64 = integer(at: 8)
      let enqueuedAt = try date(at: 16)
      let committedAt = flags & Flag.committed != 0 ? try date(at: 24) : nil
      let floor = flags & Flag.floor != 0 ? try date(at: 32) : nil
      var strings: [String] = []
      strings.reserveCapacity(6)
      var offset = headerSize
      for index in 0..<6 {
        let length = Int(integer(at: 40 + 4 * index) as UInt32)
        guard length <= buffer.count - offset else {
          throw OutboxRecordUnreadable(reason: "a field runs past the end")
        }
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + length)])
        let string = String(decoding: bytes, as: UTF8.self)
        guard string.utf8.elementsEqual(bytes) else {
          throw OutboxRecordUnreadable(reason: "a field is not UTF-8")
        }
        strings.append(string)
        offset += length
      }
      var failure = flags & Flag.failed != 0 ? strings[5] : nil
      var failureType: String?
      if let text = failure, typeLength > 0 {
        let utf8 = Array(text.utf8)
        let separator = Array(Self.typeSeparator.utf8)
        guard typeLength + separator.count <= utf8.count,
          utf8[typeLength..<(typeLength + separator.count)].elementsEqual(separator)
        else { throw OutboxRecordUnreadable(reason: "the failure's type name runs past it") }
        failureType = String(decoding: utf8[..<typeLength], as: UTF8.self)
        failure = String(decoding: utf8[(typeLength + separator.count)...], as: UTF8.self)
      }
      let record = OutboxRecord(
        id: strings[0], name: strings[1], scopeID: strings[2], scope: strings[3],
        idempotencyKey: strings[4], sequence: sequence, enqueuedAt: enqueuedAt,
        failure: failure, failureType: failureType,
        payload: Data(UnsafeRawBufferPointer(rebasing: buffer[offset...])))
      let mark = committedAt.map { CommittedEdits.Mark(committedAt: $0, floor: floor) }
      return (record, mark)
    }
  }
}

/// A saved outbox record whose bytes do not read back as the record they claim to be.
struct OutboxRecordUnreadable: Error, CustomStringConvertible {
  let reason: String
  var description: String { "the outbox record does not read: \(reason)" }
}

extension OutboxRecord {
  /// A new random id (an edit's id, an idempotency key), spelled as `UUID().uuidString`
  /// spells a version 4 UUID: 122 random bits, uppercase hexadecimal, grouped 8-4-4-4-12.
  /// Printed here from two random words: `UUID`'s own formatting cost more than the rest of
  /// making an edit.
  static func newID() -> String {
    var generator = SystemRandomNumberGenerator()
    // The version (4) and the variant (binary 10) bits, as RFC 9562 sets them.
    let high = (generator.next() as UInt64) & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_4000
    let low = (generator.next() as UInt64) & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
    return String(unsafeUninitializedCapacity: 36) { buffer in
      let digits: StaticString = "0123456789ABCDEF"
      var offset = 0
      func put(_ word: UInt64, nibbles: ClosedRange<Int>) {
        for nibble in nibbles.reversed() {
          if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
            buffer[offset] = UInt8(ascii: "-")
            offset += 1
          }
          buffer[offset] = digits.utf8Start[Int(word >> UInt64(4 * nibble) & 0xF)]
          offset += 1
        }
      }
      put(high, nibbles: 0...15)
      put(low, nibbles: 0...15)
      return offset
    }
  }
}

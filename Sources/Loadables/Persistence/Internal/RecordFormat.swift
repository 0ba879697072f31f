import Foundation

/// The bytes of a record file, and their checks.
///
/// Layout (integers little-endian):
///
/// | bytes | field |
/// |---|---|
/// | 4 | magic `LDBL` |
/// | 2 | format version (1) |
/// | 2 | reserved, 0 |
/// | 8 | `savedAt`, seconds since 1970 as a `Double`'s bit pattern |
/// | 4 | app version length *v* |
/// | 4 | key identity length *k* |
/// | 8 | value length *n* |
/// | *v* | app version, UTF-8 |
/// | *k* | key identity, UTF-8 |
/// | *n* | value |
/// | 4 | CRC-32 of every byte before it |
///
/// The lengths must add up to the file's size exactly and the checksum must match, so a torn
/// write, a truncation, a flipped byte or an edit by hand is detected before anything is used.
enum RecordFormat {
  static let magic: [UInt8] = Array("LDBL".utf8)
  static let formatVersion: UInt16 = 1
  static let headerSize = 32
  static let trailerSize = 4

  /// The size of `record` once encoded.
  static func encodedSize(_ record: PersistedRecord) -> Int {
    headerSize + record.version.utf8.count + record.key.identity.utf8.count + record.value.count
      + trailerSize
  }

  /// The file's bytes for `record`.
  static func encode(_ record: PersistedRecord) -> [UInt8] {
    // Written in place into an array of the file's size: appending field by field grew and
    // checked the array at every step, on every write. The cursor is a local passed `inout`,
    // not an offset captured by nested functions: a captured variable is checked for
    // exclusive access at run time at each use.
    let size = encodedSize(record)
    return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      let start = buffer.baseAddress!
      var cursor = start
      put(magic, at: &cursor)
      put(formatVersion, at: &cursor)
      put(UInt16(0), at: &cursor)
      put(record.savedAt.timeIntervalSince1970.bitPattern, at: &cursor)
      put(UInt32(record.version.utf8.count), at: &cursor)
      put(UInt32(record.key.identity.utf8.count), at: &cursor)
      put(UInt64(record.value.count), at: &cursor)
      put(record.version.utf8, at: &cursor)
      put(record.key.identity.utf8, at: &cursor)
      put(record.value, at: &cursor)
      put(CRC32.checksum(UnsafeBufferPointer(start: start, count: cursor - start)), at: &cursor)
      count = cursor - start
    }
  }

  /// Writes `value` little-endian at `cursor` and moves it past.
  private static func put<T: FixedWidthInteger>(
    _ value: T, at cursor: inout UnsafeMutablePointer<UInt8>
  ) {
    withUnsafeBytes(of: value.littleEndian) { raw in
      UnsafeMutableRawPointer(cursor).copyMemory(from: raw.baseAddress!, byteCount: raw.count)
    }
    cursor += MemoryLayout<T>.size
  }

  /// Writes `bytes` at `cursor` and moves it past.
  private static func put(
    _ bytes: some Collection<UInt8>, at cursor: inout UnsafeMutablePointer<UInt8>
  ) {
    let count = bytes.count
    _ = UnsafeMutableBufferPointer(start: cursor, count: count).initialize(fromContentsOf: bytes)
    cursor += count
  }

  /// The record in `bytes`, or why there is none.
  static func decode(_ bytes: [UInt8]) -> Result<PersistedRecord, UnreadableReason> {
    if bytes.isEmpty { return .failure(.empty) }
    guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic else {
      return .failure(bytes.count < magic.count ? .wrongLength : .wrongMagic)
    }
    guard bytes.count >= headerSize + trailerSize else { return .failure(.wrongLength) }
    let format: UInt16 = read(bytes, at: 4)
    guard format == formatVersion else { return .failure(.unsupportedFormat(format)) }
    let versionLength = Int(read(bytes, at: 16) as UInt32)
    let keyLength = Int(read(bytes, at: 20) as UInt32)
    let valueLength: UInt64 = read(bytes, at: 24)
    guard valueLength <= UInt64(bytes.count),
      headerSize + versionLength + keyLength + Int(valueLength) + trailerSize == bytes.count
    else { return .failure(.wrongLength) }
    let stored: UInt32 = read(bytes, at: bytes.count - trailerSize)
    guard CRC32.checksum(bytes[0..<(bytes.count - trailerSize)]) == stored else {
      return .failure(.checksumMismatch)
    }
    let seconds = Double(bitPattern: read(bytes, at: 8))
    let keyStart = headerSize + versionLength
    let valueStart = keyStart + keyLength
    guard seconds.isFinite,
      let version = utf8String(bytes[headerSize..<keyStart]),
      let key = utf8String(bytes[keyStart..<valueStart]), !key.isEmpty
    else { return .failure(.malformed) }
    return .success(
      PersistedRecord(
        key: PersistentKey(identity: key),
        value: Data(bytes[valueStart..<(valueStart + Int(valueLength))]),
        savedAt: Date(timeIntervalSince1970: seconds), version: version))
  }

  /// The string whose UTF-8 is `bytes`; `nil` when they are not valid UTF-8. Decoded by the
  /// standard library, which repairs what is invalid, then checked unchanged: Foundation's
  /// `String(bytes:encoding:)` cost a sixth of a record's read.
  private static func utf8String(_ bytes: ArraySlice<UInt8>) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    return text.utf8.elementsEqual(bytes) ? text : nil
  }

  private static func read<T: FixedWidthInteger>(_ bytes: [UInt8], at offset: Int) -> T {
    var value: T = 0
    for index in 0..<MemoryLayout<T>.size {
      value |= T(bytes[offset + index]) << (8 * index)
    }
    return value
  }
}

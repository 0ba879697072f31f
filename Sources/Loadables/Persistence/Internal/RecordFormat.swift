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
    var bytes: [UInt8] = []
    bytes.reserveCapacity(encodedSize(record))
    bytes += magic
    append(formatVersion, to: &bytes)
    append(UInt16(0), to: &bytes)
    append(record.savedAt.timeIntervalSince1970.bitPattern, to: &bytes)
    append(UInt32(record.version.utf8.count), to: &bytes)
    append(UInt32(record.key.identity.utf8.count), to: &bytes)
    append(UInt64(record.value.count), to: &bytes)
    bytes += record.version.utf8
    bytes += record.key.identity.utf8
    bytes += record.value
    append(CRC32.checksum(bytes), to: &bytes)
    return bytes
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
      let version = String(bytes: bytes[headerSize..<keyStart], encoding: .utf8),
      let key = String(bytes: bytes[keyStart..<valueStart], encoding: .utf8), !key.isEmpty
    else { return .failure(.malformed) }
    return .success(
      PersistedRecord(
        key: PersistentKey(identity: key),
        value: Data(bytes[valueStart..<(valueStart + Int(valueLength))]),
        savedAt: Date(timeIntervalSince1970: seconds), version: version))
  }

  private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
  }

  private static func read<T: FixedWidthInteger>(_ bytes: [UInt8], at offset: Int) -> T {
    var value: T = 0
    for index in 0..<MemoryLayout<T>.size {
      value |= T(bytes[offset + index]) << (8 * index)
    }
    return value
  }
}

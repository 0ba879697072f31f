import Foundation

/// One saved entry: its key, the encoded value, when it was fetched and under which version.
///
/// A backend stores bytes only: the store encodes the value (JSON or a property list) before
/// writing and decodes it after reading.
///
/// ```swift
/// let record = PersistedRecord(
///   key: try PersistentKey(["posts", 42]), value: try JSONEncoder().encode(post),
///   savedAt: fetchedAt, version: "42")
/// ```
struct PersistedRecord: Equatable, Sendable {
  /// The key's stable identity.
  var key: PersistentKey
  /// The encoded value.
  var value: Data
  /// The wall-clock time the value was fetched (not the time it was written).
  var savedAt: Date
  /// The app's version (build or schema) that wrote the record.
  var version: String
}

/// What a backend keeps and drops: the store passes its own with every call.
///
/// ```swift
/// let rules = PersistenceRules(version: "42", maxAge: .seconds(7 * 86_400), byteBudget: 10 << 20)
/// ```
struct PersistenceRules: Equatable, Sendable {
  /// The current version. A record saved under another is dropped.
  var version: String
  /// The oldest a record may be (from its `savedAt`) to be returned; `nil` keeps any age.
  var maxAge: Duration?
  /// The most bytes the backend may hold (as records are encoded on disk); the least recently
  /// used records are evicted beyond it. `nil` sets no limit.
  var byteBudget: Int?

  /// Creates rules.
  ///
  /// - Parameters:
  ///   - version: The app's build or schema version.
  ///   - maxAge: The oldest a record may be to be returned; `nil` for any age.
  ///   - byteBudget: The most bytes to keep; `nil` for no limit.
  init(version: String, maxAge: Duration? = nil, byteBudget: Int? = nil) {
    self.version = version
    self.maxAge = maxAge
    self.byteBudget = byteBudget
  }

  /// Whether a record saved at `savedAt` is older than ``maxAge`` at `now`.
  func isExpired(savedAt: Date, now: Date) -> Bool {
    guard let maxAge else { return false }
    let (seconds, attoseconds) = maxAge.components
    let limit = Double(seconds) + Double(attoseconds) * 1e-18
    return now.timeIntervalSince(savedAt) > limit
  }
}

/// Something a backend did on its own while reading or writing, for the store to report.
///
/// None of these is an error the app must handle: each says why an entry will load as if it
/// was never saved.
enum PersistenceEvent: Equatable, Sendable {
  /// A file that could not be read or decoded was removed.
  case removedUnreadable(file: String, reason: UnreadableReason)
  /// A temporary file left by an interrupted write was removed.
  case removedTemporary(file: String)
  /// A record saved under another version was removed.
  case droppedOtherVersion(key: PersistentKey, version: String)
  /// A record older than the rules' `maxAge` was removed.
  case droppedExpired(key: PersistentKey, savedAt: Date)
  /// A record was evicted to keep within the byte budget (least recently used first); its key
  /// is `nil` when the file evicted could not be decoded.
  case evicted(key: PersistentKey?, bytes: Int)
  /// A write replaced the record of another key whose file name is the same (a hash
  /// collision): that key's value is no longer saved.
  case displaced(key: PersistentKey)
  /// A file could not be removed (it stays, and is skipped).
  case removalFailed(file: String, errno: Int32)
  /// The directory could not be listed; nothing was loaded.
  case directoryUnreadable(path: String, errno: Int32)
}

/// Why a record file could not be used.
enum UnreadableReason: Error, Equatable, Sendable {
  /// The file has no bytes.
  case empty
  /// The file is shorter (or longer) than its header says: a torn or truncated write.
  case wrongLength
  /// The file does not start with the record format's magic bytes.
  case wrongMagic
  /// The file is from a format version this build does not read.
  case unsupportedFormat(UInt16)
  /// The bytes do not match their checksum (a flipped byte, an edit by hand).
  case checksumMismatch
  /// A field does not decode (text that is not UTF-8, a time that is not a number).
  case malformed
  /// The file holds the record of a key whose file has another name (copied or renamed).
  case misplaced(storedKey: PersistentKey)
  /// The file could not be read.
  case readFailed(errno: Int32)
}

/// What a load returned: the records still valid, and what was dropped or removed on the way.
struct PersistenceLoad: Equatable, Sendable {
  /// The valid records, in no particular order.
  var records: [PersistedRecord] = []
  /// What the backend dropped or removed, in the order it did so.
  var events: [PersistenceEvent] = []
}

public import Foundation

/// Something the store's persistence did on its own, or could not do: a file removed, a
/// record dropped or evicted, a write that failed.
///
/// None of these is an error the app must handle, and none stops the app: each says why an
/// entry will load as if it was never saved, or why a value stays in memory only. The store
/// hands each to ``LoaderStore/onPersistenceEvent`` and keeps the latest in
/// ``LoaderStore/recentPersistenceEvents``:
///
/// <!-- compile: context Persistence -->
/// ```swift
/// store.onPersistenceEvent = { event in logger.notice("\(String(describing: event))") }
/// ```
public enum PersistenceEvent: Equatable, Sendable {
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
  /// A value could not be saved (a read-only directory, a full disk): it stays in memory,
  /// and the record saved before, if any, stays as it was.
  case writeFailed(key: PersistentKey, error: PersistenceError)
  /// A saved record could not be removed (after `reset()`, or a value that no longer
  /// decodes).
  case removeFailed(key: PersistentKey, error: PersistenceError)
  /// ``LoaderStore/removePersistedEntries()`` could not remove every record; the error
  /// names the first that stays.
  case removeAllFailed(PersistenceError)
  /// An entry's key has a part that cannot be saved stably (see ``PersistentKey``): the
  /// entry works in memory only.
  case keyNotPersistable(PersistenceError)
  /// A saved record was read but its value does not decode as the entry's type (a changed
  /// schema under an unchanged version): it was removed, and the entry loads as if it was
  /// never saved.
  case undecodable(key: PersistentKey, reason: String)
}

extension PersistenceEvent {
  /// The key of the record the event is about, where the event knows it: the key of a
  /// record dropped, evicted (when its file decoded), displaced, not written, not removed or
  /// not decodable, and the key stored in a file found under another key's name
  /// (``UnreadableReason/misplaced(storedKey:)``). `nil` for a file whose bytes do not say
  /// (an unreadable file, a temporary file, a file that could not be removed: the case
  /// names the file) and for events about no one record.
  ///
  /// ```swift
  /// store.onPersistenceEvent = { event in
  ///   if let key = event.key { print("\(key): \(event)") }
  /// }
  /// ```
  public var key: PersistentKey? {
    switch self {
    case .droppedOtherVersion(let key, _), .droppedExpired(let key, _), .displaced(let key),
      .writeFailed(let key, _), .removeFailed(let key, _), .undecodable(let key, _):
      key
    case .evicted(let key, _):
      key
    case .removedUnreadable(_, .misplaced(let storedKey)):
      storedKey
    case .removedUnreadable, .removedTemporary, .removalFailed, .directoryUnreadable,
      .removeAllFailed, .keyNotPersistable:
      nil
    }
  }
}

/// Why a record file could not be used.
public enum UnreadableReason: Error, Equatable, Sendable {
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
public struct PersistenceLoad: Equatable, Sendable {
  /// The valid records, in no particular order.
  public var records: [PersistedRecord] = []
  /// What the backend dropped or removed, in the order it did so.
  public var events: [PersistenceEvent] = []

  /// Creates a load result.
  ///
  /// - Parameters:
  ///   - records: The valid records.
  ///   - events: What was dropped or removed on the way, in order.
  public init(records: [PersistedRecord] = [], events: [PersistenceEvent] = []) {
    self.records = records
    self.events = events
  }
}

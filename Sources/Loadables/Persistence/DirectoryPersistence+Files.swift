import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// Reading, checking and removing `DirectoryPersistence`'s record files, and what a failed call
// means. Call with the instance's lock held.
extension DirectoryPersistence {
  /// The record in file `name` and the file's size when it is kept; `nil` when there is no
  /// such file, or when it was removed: unreadable, misplaced, or dropped by `rules` (each
  /// reported into `events`).
  func readKeeping(
    _ name: String, rules: PersistenceRules, now: Date, into events: inout [PersistenceEvent]
  ) -> (PersistedRecord, Int)? {
    switch readFile(name) {
    case nil:
      return nil
    case .failure(let reason)?:
      removeFile(name, reporting: .removedUnreadable(file: name, reason: reason), into: &events)
      return nil
    case .success(let (record, bytes))?:
      if removeIfMisplaced(name, record, into: &events) { return nil }
      if let drop = Self.drop(record, rules: rules, now: now) {
        removeFile(name, reporting: drop, into: &events)
        return nil
      }
      return (record, bytes)
    }
  }

  /// The record in file `name` and the file's size; `nil` when there is no such file.
  func readFile(_ name: String) -> Result<(PersistedRecord, Int), UnreadableReason>? {
    let bytes: [UInt8]
    do {
      guard let contents = try FileCalls.contents(filePath(name)) else { return nil }
      bytes = contents
    } catch {
      return .failure(.readFailed(errno: error.code))
    }
    return RecordFormat.decode(bytes).map { ($0, bytes.count) }
  }

  /// Removes file `name` and reports it when the record it holds belongs under another
  /// name (copied or renamed here by hand); returns whether it did. A record whose key's name
  /// collides with this one is where it belongs, and stays.
  @discardableResult
  func removeIfMisplaced(
    _ name: String, _ record: PersistedRecord, into events: inout [PersistenceEvent]
  ) -> Bool {
    guard fileName(for: record.key) != name else { return false }
    removeFile(
      name, reporting: .removedUnreadable(file: name, reason: .misplaced(storedKey: record.key)),
      into: &events)
    return true
  }

  /// Removes file `name` and reports `event`, or that it could not be removed.
  func removeFile(
    _ name: String, reporting event: PersistenceEvent, into events: inout [PersistenceEvent]
  ) {
    do {
      try FileCalls.remove(filePath(name))
      events.append(event)
    } catch {
      events.append(event)
      events.append(.removalFailed(file: name, errno: error.code))
    }
    index?.remove(name)
  }

  /// The event that drops `record` under `rules`, if they drop it.
  static func drop(_ record: PersistedRecord, rules: PersistenceRules, now: Date)
    -> PersistenceEvent?
  {
    if record.version != rules.version {
      return .droppedOtherVersion(key: record.key, version: record.version)
    }
    if rules.isExpired(savedAt: record.savedAt, now: now) {
      return .droppedExpired(key: record.key, savedAt: record.savedAt)
    }
    return nil
  }

  /// Applies ``protection`` to the file at `path` (Apple platforms only).
  func protect(_ path: String) throws(FileCalls.Failure) {
    #if canImport(Darwin)
      guard let protection else { return }
      let type: FileProtectionType =
        switch protection {
        case .complete: .complete
        case .completeUnlessOpen: .completeUnlessOpen
        case .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication
        case .none: .none
        }
      do {
        try FileManager.default.setAttributes([.protectionKey: type], ofItemAtPath: path)
      } catch {
        throw FileCalls.Failure(operation: "set file protection", code: EPERM)
      }
    #endif
  }

  /// A failed call as a ``PersistenceError``: the directory's fault or an I/O error.
  static func error(_ failure: FileCalls.Failure, at path: String) -> PersistenceError {
    switch failure.code {
    case EACCES, EPERM, EROFS, ENOENT, ENOTDIR:
      .unwritableDirectory(path: (path as NSString).deletingLastPathComponent, errno: failure.code)
    default:
      .io(operation: failure.operation, path: path, errno: failure.code)
    }
  }
}

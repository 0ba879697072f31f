public import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A ``PersistenceBackend`` that keeps one file per key in a directory, written atomically.
///
/// **File names.** A record's file is named after the SHA-256 of its key's
/// ``PersistentKey/identity`` (`<64 hex digits>.loadable`), so any key — with `/`, `..`, NUL,
/// emoji or a thousand characters in it — maps to a short, safe name, and `1` and `"1"` to
/// different files. Each file also holds its full key, checked on every read: a file under
/// another key's name (copied or renamed by hand) is removed and reported, and two keys whose
/// names collide never read each other's value (the later write displaces the earlier record
/// and reports it).
///
/// **Atomic writes.** A record is written to a unique temporary file in the same directory,
/// synced (`fsync`), renamed over the old file, and the directory is synced, so a crash or a
/// power loss leaves the old record or the new one, never a torn file. A temporary file left
/// by a crash is removed at the next ``loadAll(_:now:)`` or ``removeTemporaries()`` (a
/// store's launch).
///
/// **Bad files.** Every file carries its lengths and a CRC-32 (see the record format in
/// `Internal/RecordFormat.swift`); one that is truncated, torn, edited, empty, of another
/// format or unreadable is removed and reported as ``PersistenceEvent/removedUnreadable(file:reason:)``,
/// and its key loads as if it was never saved.
///
/// **Byte budget.** The least recently used records (by write or read) are evicted first. A
/// read touches the file's modification time, so the order survives a relaunch: at
/// ``loadAll(_:now:)``, or at the first write after a launch, it is seeded from the files'
/// modification times.
///
/// **Sharing.** One instance per directory per process serializes its calls. Two processes
/// (an app and its extension in an App Group) may share a directory: each write is still
/// atomic, but each process's byte budget counts only what it has seen, and a launch load
/// removes temporary files, so a write another process is making at that moment fails (and
/// reports it) rather than completing.
///
/// <!-- compile: context Persistence -->
/// ```swift
/// let backend = DirectoryPersistence(cachesURL.appending(path: "Loadables"))
/// try backend.write(record, rules: rules)
/// ```
public final class DirectoryPersistence: PersistenceBackend, @unchecked Sendable {
  // Safe to share: `index` is read and written only while holding `lock`, and every file
  // operation runs while holding it too, so one instance never races with itself.
  private let lock = NSLock()
  private var index: RecencyIndex?
  /// The last modification time given to a file, so that each use gets a later one than the
  /// last even within the file system's (often coarse) clock tick.
  private var lastStamp: Int64 = 0

  /// The directory.
  public let url: URL
  /// The data protection class given to each file on Apple platforms.
  public let protection: PersistenceFileProtection?
  private let path: String
  private let hash: @Sendable (PersistentKey) -> String

  /// The extension of record files.
  static let fileExtension = "loadable"
  /// The prefix of temporary files (written, not yet renamed).
  static let temporaryPrefix = ".loadables-tmp-"

  /// Creates a backend for the directory at `url`, created on the first write.
  ///
  /// - Parameters:
  ///   - url: A file URL of the directory.
  ///   - protection: On Apple platforms, the data protection class of each file.
  public convenience init(_ url: URL, protection: PersistenceFileProtection? = nil) {
    self.init(url, protection: protection, hash: { SHA256.hex($0.identity) })
  }

  /// Creates a backend whose file names come from `hash` (tests force collisions with it).
  ///
  /// - Parameters:
  ///   - url: A file URL of the directory.
  ///   - protection: On Apple platforms, the data protection class of each file.
  ///   - hash: The file name (without extension) of a key; only `[0-9a-z]` characters.
  init(
    _ url: URL, protection: PersistenceFileProtection? = nil,
    hash: @escaping @Sendable (PersistentKey) -> String
  ) {
    self.url = url
    self.protection = protection
    self.path = url.standardizedFileURL.path
    self.hash = hash
  }

  /// The name of `key`'s file.
  ///
  /// - Parameter key: A key.
  /// - Returns: A file name inside the directory.
  func fileName(for key: PersistentKey) -> String { hash(key) + "." + Self.fileExtension }

  public func loadAll(_ rules: PersistenceRules, now: Date) -> PersistenceLoad {
    locked {
      var load = PersistenceLoad()
      let names: [String]
      do throws(FileCalls.Failure) {
        names = try FileCalls.names(in: path)
      } catch {
        index = RecencyIndex()
        load.events.append(.directoryUnreadable(path: path, errno: error.code))
        return load
      }
      var kept: [(name: String, modified: Int64, bytes: Int, record: PersistedRecord)] = []
      for name in names.sorted() {
        if name.hasPrefix(Self.temporaryPrefix) {
          removeFile(name, reporting: .removedTemporary(file: name), into: &load.events)
          continue
        }
        guard name.hasSuffix("." + Self.fileExtension) else { continue }
        switch readFile(name) {
        case nil:
          continue
        case .failure(let reason)?:
          removeFile(
            name, reporting: .removedUnreadable(file: name, reason: reason), into: &load.events)
        case .success(let (record, bytes))?:
          if removeIfMisplaced(name, record, into: &load.events) {
            continue
          } else if let drop = Self.drop(record, rules: rules, now: now) {
            removeFile(name, reporting: drop, into: &load.events)
          } else {
            kept.append((name, FileCalls.status(filePath(name))?.modified ?? 0, bytes, record))
          }
        }
      }
      var index = RecencyIndex()
      lastStamp = max(lastStamp, kept.map(\.modified).max() ?? 0)
      for file in kept.sorted(by: { ($0.modified, $0.name) < ($1.modified, $1.name) }) {
        index.use(file.name, bytes: file.bytes, key: file.record.key)
      }
      self.index = index
      load.events += evict(rules)
      let remaining = self.index?.entries ?? [:]
      load.records = kept.filter { remaining[$0.name] != nil }.map(\.record)
      return load
    }
  }

  public func read(_ key: PersistentKey, rules: PersistenceRules, now: Date) -> PersistenceLoad {
    locked {
      var load = PersistenceLoad()
      let name = fileName(for: key)
      switch readFile(name) {
      case nil:
        index?.remove(name)
      case .failure(let reason)?:
        removeFile(
          name, reporting: .removedUnreadable(file: name, reason: reason), into: &load.events)
      case .success(let (record, bytes))?:
        if record.key != key {
          // Another key's record: one whose name collides with this key's stays; one copied
          // or renamed here by hand goes.
          removeIfMisplaced(name, record, into: &load.events)
        } else if let drop = Self.drop(record, rules: rules, now: now) {
          removeFile(name, reporting: drop, into: &load.events)
        } else {
          // No scan of the directory here: a read is an entry being made on the main actor,
          // waiting to show its value. The modification time records the use; the scan (at
          // the launch's first write, on the store's writer) seeds from it.
          stamp(name)
          index?.use(name, bytes: bytes, key: key)
          load.records = [record]
        }
      }
      return load
    }
  }

  @discardableResult
  public func write(_ record: PersistedRecord, rules: PersistenceRules) throws(PersistenceError)
    -> [PersistenceEvent]
  {
    try locked { () throws(PersistenceError) -> [PersistenceEvent] in
      do throws(FileCalls.Failure) {
        try FileCalls.createDirectories(path)
      } catch {
        throw .unwritableDirectory(path: path, errno: error.code)
      }
      scanIfNeeded()
      let name = fileName(for: record.key)
      let bytes = RecordFormat.encode(record)
      let temporary = filePath(
        Self.temporaryPrefix + name + "-\(getpid())-"
          + String(UInt64.random(in: 0...UInt64.max), radix: 16))
      do throws(FileCalls.Failure) {
        try FileCalls.createSynced(temporary, bytes: bytes)
        try protect(temporary)
        try FileCalls.move(temporary, over: filePath(name))
      } catch {
        try? FileCalls.remove(temporary)
        throw Self.error(error, at: temporary)
      }
      // The new record is in place; a failed sync of the directory only weakens its
      // survival of a power loss, which is no reason to report that nothing was saved.
      try? FileCalls.syncDirectory(path)
      stamp(name)
      var events: [PersistenceEvent] = []
      if let displaced = index?.use(name, bytes: bytes.count, key: record.key) {
        events.append(.displaced(key: displaced))
      }
      return events + evict(rules)
    }
  }

  public func remove(_ key: PersistentKey) throws(PersistenceError) {
    try locked { () throws(PersistenceError) in
      let name = fileName(for: key)
      if case .success(let (record, _))? = readFile(name), record.key != key,
        fileName(for: record.key) == name
      {
        return  // A colliding key's record, not this key's.
      }
      do throws(FileCalls.Failure) {
        try FileCalls.remove(filePath(name))
      } catch {
        throw Self.error(error, at: filePath(name))
      }
      index?.remove(name)
    }
  }

  public func removeTemporaries() -> [PersistenceEvent] {
    locked {
      var events: [PersistenceEvent] = []
      // A directory not made yet holds none; one that cannot be listed is reported by the
      // reads and writes that follow.
      let names = (try? FileCalls.names(in: path, startingWith: Self.temporaryPrefix)) ?? []
      for name in names.sorted() {
        removeFile(name, reporting: .removedTemporary(file: name), into: &events)
      }
      // No scan for the byte budget here: a launch must cost about the same with ten records
      // saved or ten thousand (the listing above makes a `String` of temporary names only).
      // The first write of the launch builds the index (`scanIfNeeded`).
      return events
    }
  }

  public func removeAll() throws(PersistenceError) {
    try locked { () throws(PersistenceError) in
      let names: [String]
      do throws(FileCalls.Failure) {
        names = try FileCalls.names(in: path)
      } catch {
        throw .io(operation: error.operation, path: path, errno: error.code)
      }
      var firstError: PersistenceError?
      for name in names
      where name.hasPrefix(Self.temporaryPrefix) || name.hasSuffix("." + Self.fileExtension) {
        do throws(FileCalls.Failure) {
          try FileCalls.remove(filePath(name))
          index?.remove(name)
        } catch {
          firstError = firstError ?? Self.error(error, at: filePath(name))
        }
      }
      if let firstError { throw firstError }
    }
  }

  // MARK: - Helpers (call with the lock held)

  private func filePath(_ name: String) -> String { path + "/" + name }

  /// The record in file `name` and the file's size; `nil` when there is no such file.
  private func readFile(_ name: String) -> Result<(PersistedRecord, Int), UnreadableReason>? {
    let bytes: [UInt8]
    do {
      guard let contents = try FileCalls.contents(filePath(name)) else { return nil }
      bytes = contents
    } catch {
      return .failure(.readFailed(errno: error.code))
    }
    return RecordFormat.decode(bytes).map { ($0, bytes.count) }
  }

  /// Removes file `name` and reports `event`, or that it could not be removed.
  /// Removes file `name` and reports it when the record it holds belongs under another
  /// name (copied or renamed here by hand); returns whether it did. A record whose key's name
  /// collides with this one is where it belongs, and stays.
  @discardableResult
  private func removeIfMisplaced(
    _ name: String, _ record: PersistedRecord, into events: inout [PersistenceEvent]
  ) -> Bool {
    guard fileName(for: record.key) != name else { return false }
    removeFile(
      name, reporting: .removedUnreadable(file: name, reason: .misplaced(storedKey: record.key)),
      into: &events)
    return true
  }

  private func removeFile(
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
  private static func drop(_ record: PersistedRecord, rules: PersistenceRules, now: Date)
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

  /// Builds the byte budget's index from the files' sizes and modification times, when no
  /// ``loadAll(_:now:)`` has: at the first write of a launch, not at the launch itself, so
  /// that a launch costs the same with ten records saved or ten thousand. The reads before it
  /// stamped their files' modification times, so the order of uses is the same.
  private func scanIfNeeded() {
    guard index == nil else { return }
    var index = RecencyIndex()
    let names = (try? FileCalls.names(in: path)) ?? []
    let files = names.filter { $0.hasSuffix("." + Self.fileExtension) }.compactMap { name in
      FileCalls.status(filePath(name)).map { (name: name, status: $0) }
    }
    lastStamp = max(lastStamp, files.map(\.status.modified).max() ?? 0)
    for file in files.sorted(by: { ($0.status.modified, $0.name) < ($1.status.modified, $1.name) })
    {
      index.use(file.name, bytes: file.status.bytes, key: nil)
    }
    self.index = index
  }

  /// Marks file `name` as used now: its modification time becomes later than any given
  /// before, so the order of uses survives a relaunch exactly.
  private func stamp(_ name: String) {
    lastStamp = max(FileCalls.now(), lastStamp + 1)
    FileCalls.setModified(filePath(name), nanoseconds: lastStamp)
  }

  /// Evicts the least recently used records beyond the budget.
  private func evict(_ rules: PersistenceRules) -> [PersistenceEvent] {
    guard let victims = index?.victims(budget: rules.byteBudget) else { return [] }
    var events: [PersistenceEvent] = []
    for name in victims {
      let entry = index?.entries[name]
      var key = entry?.key
      if key == nil, case .success(let (record, _))? = readFile(name) { key = record.key }
      removeFile(
        name, reporting: .evicted(key: key, bytes: entry?.bytes ?? 0), into: &events)
    }
    return events
  }

  /// Applies ``protection`` to the file at `path` (Apple platforms only).
  private func protect(_ path: String) throws(FileCalls.Failure) {
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
  private static func error(_ failure: FileCalls.Failure, at path: String) -> PersistenceError {
    switch failure.code {
    case EACCES, EPERM, EROFS, ENOENT, ENOTDIR:
      .unwritableDirectory(path: (path as NSString).deletingLastPathComponent, errno: failure.code)
    default:
      .io(operation: failure.operation, path: path, errno: failure.code)
    }
  }

  /// Runs `body` holding the lock, keeping its typed error (`NSLock.withLock` rethrows
  /// `any Error`).
  private func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}

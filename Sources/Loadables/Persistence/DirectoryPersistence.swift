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
/// **Atomic writes.** A record is written to a unique temporary file in the directory's `tmp`
/// folder, synced (`fsync`), renamed over the old file, and the directory is synced, so a
/// crash or a power loss leaves the old record or the new one, never a torn file, and a
/// process reading the directory reads each record whole. A temporary file left by a crash is
/// removed at the next ``loadAll(_:now:)`` or ``removeTemporaries()`` (a store's launch), of
/// this process or another: each instance holds an OS file lock (`flock`) on a file of its
/// own in `tmp` for its lifetime, names its temporaries after it, and a cleanup removes only
/// the temporaries whose owner's lock it can take (the kernel releases a lock when its
/// process dies), never one a live process is about to rename.
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
/// (an app and its extension in an App Group) may share a directory: each write is atomic,
/// each read sees a whole record (the old one or the new), and a launch never removes a
/// temporary file of the other process's write in flight; each process's byte budget counts
/// only what it has seen.
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
  /// The prefix of temporary files of the layout before the `tmp` folder (removed at launch).
  static let temporaryPrefix = ".loadables-tmp-"
  /// The folder of temporary files (written, not yet renamed), inside the directory.
  static let temporaryFolder = "tmp"
  /// This instance's name for its temporaries and their lock file: unique per instance, so
  /// that a cleanup tells whose temporaries it sees.
  private let token = "\(getpid())-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
  /// The lock this instance holds on `tmp/<token>.lock` while it lives (taken at its first
  /// write): a cleanup removes a temporary only when it can take its owner's lock.
  private var ownerLock: FileLock?

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

  /// A lock on the file `name` in the directory, shared with the other processes (and
  /// instances) over it; not taken yet. The outbox takes one to be the only sender.
  func lock(named name: String) -> FileLock { FileLock(path: filePath(name)) }

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
      removeDeadTemporaries(names, into: &load.events)
      for name in names.sorted() {
        guard name.hasSuffix("." + Self.fileExtension),
          let (record, bytes) = readKeeping(name, rules: rules, now: now, into: &load.events)
        else { continue }
        kept.append((name, FileCalls.status(filePath(name))?.modified ?? 0, bytes, record))
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

  /// Reads the record files whose names are not in `known` (the outbox reads what other
  /// processes queued without reading the records it knows). Bad files are removed and
  /// reported, and records the rules drop are removed, as ``loadAll(_:now:)`` does; the byte
  /// budget's index is left alone.
  ///
  /// - Parameters:
  ///   - known: File names (``fileName(for:)``) not to read.
  ///   - rules: The rules the records are held to.
  ///   - now: The time `maxAge` is measured at.
  /// - Returns: The records read, and what was removed.
  func readRecords(notNamed known: Set<String>, rules: PersistenceRules, now: Date)
    -> PersistenceLoad
  {
    locked {
      var load = PersistenceLoad()
      let names = (try? FileCalls.names(in: path)) ?? []
      for name in names.sorted()
      where name.hasSuffix("." + Self.fileExtension) && !known.contains(name) {
        if let (record, _) = readKeeping(name, rules: rules, now: now, into: &load.events) {
          load.records.append(record)
        }
      }
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
        try FileCalls.createDirectories(filePath(Self.temporaryFolder))
      } catch {
        throw .unwritableDirectory(path: path, errno: error.code)
      }
      var events = scanIfNeeded()
      let name = fileName(for: record.key)
      let bytes = RecordFormat.encode(record)
      let temporary = temporaryPath(for: name)
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
      // Temporaries live in `tmp/`: a launch lists that folder only, so it costs the same with
      // ten records saved or ten thousand. The folder itself is listed only while it has no
      // `tmp/` yet (its first launch since 0.3, whose temporaries lay beside the records). No
      // scan for the byte budget here either: the first write of the launch builds the index
      // (`scanIfNeeded`).
      let oldLayout =
        FileCalls.status(filePath(Self.temporaryFolder)) == nil
        ? (try? FileCalls.names(in: path, startingWith: Self.temporaryPrefix)) : nil
      removeDeadTemporaries(oldLayout, into: &events)
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
      var temporaries: [PersistenceEvent] = []
      removeDeadTemporaries(names, into: &temporaries)
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

  /// A new temporary file's path for the record file `name`, in `tmp`, named after this
  /// instance (`<token>~<name>~<random>`); takes this instance's owner lock first.
  private func temporaryPath(for name: String) -> String {
    if ownerLock == nil {
      let lock = FileLock(path: filePath(Self.temporaryFolder + "/" + token + ".lock"))
      // Not taken (the lock file cannot be made): the write goes on; its temporary is
      // unprotected, so a cleanup in another process may remove it and fail this write.
      if lock.tryLock() { ownerLock = lock }
    }
    return filePath(
      Self.temporaryFolder + "/" + token + "~" + name + "~"
        + String(UInt64.random(in: 0...UInt64.max), radix: 16))
  }

  /// Removes the temporary files no live writer may still rename, reporting each: those of
  /// the layout before the `tmp` folder (`names` lists the directory), and those in `tmp`
  /// whose owner's lock can be taken (its process died, or its instance went away) or that
  /// have no lock file. A live owner's temporaries stay.
  /// Removes the temporaries no live writer owns: those of the old layout among `names` (the
  /// folder's listing, when the caller made one), and those in `tmp/` whose owner's lock can
  /// be taken.
  private func removeDeadTemporaries(_ names: [String]?, into events: inout [PersistenceEvent]) {
    for name in (names ?? []).filter({ $0.hasPrefix(Self.temporaryPrefix) }).sorted() {
      removeFile(name, reporting: .removedTemporary(file: name), into: &events)
    }
    let folder = Self.temporaryFolder + "/"
    var temporaries: [String: [String]] = [:]
    var lockFiles: Set<String> = []
    for name in (try? FileCalls.names(in: filePath(Self.temporaryFolder))) ?? [] {
      if name.hasSuffix(".lock") {
        lockFiles.insert(String(name.dropLast(".lock".count)))
      } else {
        let owner = name.split(separator: "~", maxSplits: 1).first.map(String.init) ?? name
        temporaries[owner, default: []].append(name)
      }
    }
    for owner in lockFiles.union(temporaries.keys).sorted() where owner != token {
      let lock = FileLock(path: filePath(folder + owner + ".lock"))
      if lockFiles.contains(owner) {
        guard lock.tryLock() else { continue }  // its owner lives
      }
      for name in (temporaries[owner] ?? []).sorted() {
        removeFile(folder + name, reporting: .removedTemporary(file: folder + name), into: &events)
      }
      // Removed while held: an owner that opens it again finds it gone and makes a new one.
      if lockFiles.contains(owner) { try? FileCalls.remove(lock.path) }
      lock.unlock()
    }
  }

  /// The record in file `name` and the file's size when it is kept; `nil` when there is no
  /// such file, or when it was removed: unreadable, misplaced, or dropped by `rules` (each
  /// reported into `events`).
  private func readKeeping(
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
  private func scanIfNeeded() -> [PersistenceEvent] {
    guard index == nil else { return [] }
    var index = RecencyIndex()
    let names = (try? FileCalls.names(in: path)) ?? []
    var events: [PersistenceEvent] = []
    for name in names.filter({ $0.hasPrefix(Self.temporaryPrefix) }).sorted() {
      removeFile(name, reporting: .removedTemporary(file: name), into: &events)
    }
    let files = names.filter { $0.hasSuffix("." + Self.fileExtension) }.compactMap { name in
      FileCalls.status(filePath(name)).map { (name: name, status: $0) }
    }
    lastStamp = max(lastStamp, files.map(\.status.modified).max() ?? 0)
    for file in files.sorted(by: { ($0.status.modified, $0.name) < ($1.status.modified, $1.name) })
    {
      index.use(file.name, bytes: file.status.bytes, key: nil)
    }
    self.index = index
    return events
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

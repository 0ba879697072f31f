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
  // Safe to share: `index`, `lastStamp`, `ownerLock`, `temporaryCount` and the lazily made
  // `token`, `temporaryFolderPath` and `temporaryStem` are read and written only while
  // holding `lock`, and every file operation runs while holding it too, so one instance
  // never races with itself. (Internal rather than private for the extensions in
  // `DirectoryPersistence+*.swift`, which run with the lock held.)
  private let lock = NSLock()
  var index: RecencyBook?
  /// The last modification time given to a file, so that each use gets a later one than the
  /// last even within the file system's (often coarse) clock tick.
  var lastStamp: Int64 = 0

  /// The directory.
  public var url: URL {
    guard let childName else { return givenURL }
    return givenURL.appending(path: childName, directoryHint: .isDirectory)
  }
  /// The URL this backend was made with: the directory's, or for a folder inside another
  /// backend's directory (``init(folder:inside:)``), that backend's.
  private let givenURL: URL
  /// The folder's name inside `givenURL`'s directory, for a backend made by
  /// ``init(folder:inside:)``: its `url` is spelled when asked for, not at every launch.
  private let childName: String?
  /// The data protection class given to each file on Apple platforms.
  public let protection: PersistenceFileProtection?
  let path: String
  /// The file name (without extension) of a key.
  let hash: @Sendable (PersistentKey) -> String

  /// The extension of record files.
  static let fileExtension = "loadable"
  /// The prefix of temporary files of the layout before the `tmp` folder (removed at launch).
  static let temporaryPrefix = ".loadables-tmp-"
  /// The folder of temporary files (written, not yet renamed), inside the directory.
  static let temporaryFolder = "tmp"
  /// The end of an owner's lock file's name in `tmp` (`<token>.lock`).
  static let lockSuffix = ".lock"
  /// `/tmp`: a path and this make the folder's path in one copy (each `+` copies the path).
  private static let temporaryFolderComponent = "/" + temporaryFolder
  /// This instance's name for its temporaries and their lock file: unique per instance, so
  /// that a cleanup tells whose temporaries it sees. Spelled when first needed (with the lock
  /// held, as every use is), not at every launch: a launch that only reads writes nothing.
  lazy var token = "\(getpid())-" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
  /// The path of the `tmp` folder.
  lazy var temporaryFolderPath = path + Self.temporaryFolderComponent
  /// The start of every temporary's path, `<directory>/tmp/<token>~`, spelled once.
  lazy var temporaryStem = temporaryFolderPath + "/" + token + "~"
  /// How many temporaries this instance has named: the last part of their names, unique with
  /// the token.
  var temporaryCount: UInt64 = 0
  /// The lock this instance holds on `tmp/<token>.lock` while it lives (taken at its first
  /// write): a cleanup removes a temporary only when it can take its owner's lock.
  var ownerLock: FileLock?
  /// Whether the `tmp` folder was made (or found) by this instance: a write makes it only
  /// then, and again when creating a temporary finds it gone.
  var temporaryFolderMade = false
  /// The file names and paths of the keys written lately, by key identity: a name is the
  /// digest of its key, and an entry refreshed again and again is written under the same one.
  /// Emptied when it holds `recentPathLimit`, so its size stays bounded.
  var recentPaths: [String: (name: String, path: String)] = [:]
  static let recentPathLimit = 64

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
    givenURL = url
    childName = nil
    self.protection = protection
    path = Self.standardizedPath(url)
    self.hash = hash
  }

  /// Creates a backend for the folder `name` inside `parent`'s directory, with its
  /// protection and file names (a store's outbox beside its entries).
  ///
  /// Its path is the parent's with the name added; its ``url`` is spelled only when asked
  /// for (a `URL` made by appending costs more than a launch's read of a record).
  ///
  /// - Parameters:
  ///   - name: One path component with no `/`, not `.` or `..`.
  ///   - parent: The backend whose directory holds the folder.
  init(folder name: String, inside parent: DirectoryPersistence) {
    givenURL = parent.url
    childName = name
    protection = parent.protection
    // One copy of the parent's path: `"/" + name` is short enough to be made in place.
    path = parent.path == "/" ? "/" + name : parent.path + ("/" + name)
    hash = parent.hash
  }

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
        index = RecencyBook()
        load.events.append(.directoryUnreadable(path: path, errno: error.code))
        return load
      }
      // A folder not made yet (or empty) holds no record, and no `tmp` to clean: a store's
      // outbox folder at most launches, before its first edit.
      guard !names.isEmpty else {
        index = RecencyBook()
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
      var index = RecencyBook()
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
      try makeTemporaryFolderIfNeeded()
      var events = scanIfNeeded()
      let (name, target) = recentPath(for: record.key)
      let bytes = RecordFormat.encode(record)
      let temporary = temporaryPath(for: name)
      do throws(FileCalls.Failure) {
        // Stamped as used now (the byte budget's order) on the temporary, before it is
        // synced: the rename keeps its modification time, so no call on the record's path
        // follows.
        do throws(FileCalls.Failure) {
          try FileCalls.createSynced(temporary, bytes: bytes, modified: nextStamp())
        } catch  where error.code == ENOENT {
          // The folder went since this instance made it (removed by hand, or the whole
          // directory): made again, and the temporary created once more.
          try FileCalls.createDirectories(temporaryFolderPath)
          try FileCalls.createSynced(temporary, bytes: bytes, modified: nextStamp())
        }
        try protect(temporary)
        try FileCalls.move(temporary, over: target)
      } catch {
        try? FileCalls.remove(temporary)
        throw Self.error(error, at: temporary)
      }
      // The new record is in place; a failed sync of the directory only weakens its
      // survival of a power loss, which is no reason to report that nothing was saved.
      try? FileCalls.syncDirectory(path)
      if let displaced = index?.use(name, bytes: bytes.count, key: record.key) {
        events.append(.displaced(key: displaced))
      }
      return events + evict(rules)
    }
  }

  /// Whether a file is there for `key`'s record: one `stat`, no read. The outbox's sender
  /// asks it as a send ends, to tell an edit another store over the directory discarded
  /// meanwhile (its record removed) from one it may commit, at the cost of a call rather
  /// than a read and decode of the record.
  func holdsFile(for key: PersistentKey) -> Bool {
    locked { FileCalls.status(recentPath(for: key).path) != nil }
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

  /// The sweep of ``removeTemporaries()`` when `tmp` holds only lock files, done at once: a
  /// look cheap enough for the main actor (one listing of `tmp`, then for each lock file a
  /// lock tried and, when its owner is dead, the file removed; nothing synced), so that a
  /// launch hands the writer's queue nothing unless a write was interrupted.
  ///
  /// Every instance that wrote leaves its lock file in `tmp` when its process is killed (an
  /// app usually is), so most launches find one: that of the launch before.
  ///
  /// - Returns: `true` when `tmp` is there and holds nothing but lock files (those of live
  ///   owners left alone, those of dead owners removed): nothing is left to sweep. `false`
  ///   when ``removeTemporaries()`` is still needed, nothing touched: `tmp` holds another
  ///   file (a temporary), cannot be listed, or is not there (a folder not made yet, or the
  ///   layout before `tmp`, whose temporaries lie among the records: listing those is the
  ///   writer's work).
  func sweepIfOnlyLockFiles() -> Bool {
    locked { FileCalls.removeUnheldLockFiles(in: temporaryFolderPath, endingWith: Self.lockSuffix) }
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

  /// Makes the `tmp` folder (and the directory) unless this instance made it already.
  func makeTemporaryFolderIfNeeded() throws(PersistenceError) {
    guard !temporaryFolderMade else { return }
    do throws(FileCalls.Failure) {
      try FileCalls.createDirectories(temporaryFolderPath)
    } catch {
      throw .unwritableDirectory(path: path, errno: error.code)
    }
    temporaryFolderMade = true
  }

  /// Runs `body` holding the lock, keeping its typed error (`NSLock.withLock` rethrows
  /// `any Error`).
  private func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}

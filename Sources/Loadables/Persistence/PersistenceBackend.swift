public import Foundation

/// Where a ``LoaderStore`` keeps the entries it persists: records of bytes, by key.
///
/// A backend stores what it is given and drops, at load, what the rules no longer accept
/// (another version, older than `maxAge`, beyond the byte budget). It never decides what to
/// save — the store writes after a successful fetch or a committed edit, never an error and
/// never an optimistic value.
///
/// Two backends ship: ``InMemoryPersistence`` (``inMemory``) for tests and previews, and
/// ``DirectoryPersistence`` (``directory(_:protection:)``), one file per key, the default on
/// a device. An app keeps its entries elsewhere (SQLite, a Core Data store, behind
/// encryption) by conforming its own type and passing it to
/// ``StorePersistence/init(backend:outbox:version:maxAge:byteBudget:)``.
///
/// ```swift
/// let folder = FileManager.default.temporaryDirectory.appending(path: "Loadables")
/// let backend: any PersistenceBackend = .directory(folder)
/// let rules = PersistenceRules(version: "42", maxAge: .seconds(86_400), byteBudget: 5 << 20)
/// let restored = backend.loadAll(rules, now: Date())
/// for event in restored.events { print(event) }
/// ```
///
/// ## The rules every backend keeps
///
/// `PersistenceBackendConformance` in `LoadablesTesting` checks each of them against any
/// backend; run it in your tests.
///
/// - **Whole records.** A record read back is the record written: same key, value bytes,
///   `savedAt` and version. A write replaces the key's previous record atomically — a crash,
///   a failed write or a reader in another process sees the old record or the new one, never
///   a mix. A write that throws leaves the previous record as it was.
/// - **Version.** A record whose ``PersistedRecord/version`` is not the rules' is never
///   returned: ``loadAll(_:now:)`` and ``read(_:rules:now:)`` remove it and report
///   ``PersistenceEvent/droppedOtherVersion(key:version:)``.
/// - **`maxAge`.** A record older than the rules' `maxAge` (``PersistenceRules/isExpired(savedAt:now:)``)
///   is never returned: it is removed and reported as ``PersistenceEvent/droppedExpired(key:savedAt:)``.
/// - **Budget.** Beyond the rules' byte budget, the least recently used records (by write or
///   read) are evicted and each is reported as ``PersistenceEvent/evicted(key:bytes:)``; the
///   record just written stays when it fits alone. `nil` sets no limit.
/// - **Bad records reported.** A record that cannot be read or decoded (torn, corrupted,
///   undecryptable) is removed and reported (``PersistenceEvent/removedUnreadable(file:reason:)``),
///   and its key loads as if it was never saved. Nothing crashes and nothing throws out of a
///   load.
/// - **Removal.** After ``remove(_:)`` the key reads as never saved; after ``removeAll()``
///   every key does.
///
/// Calls block on input and output: make them off the main actor. Every method must be safe
/// to call from any thread; a backend serializes its own calls.
public protocol PersistenceBackend: Sendable {
  /// Every valid record, after removing what the rules drop and what cannot be read.
  ///
  /// Called once at launch. Unreadable files, temporary files left by an interrupted write,
  /// records of another version and expired records are removed and reported; then the
  /// least recently used records beyond the byte budget are evicted.
  ///
  /// - Parameters:
  ///   - rules: The store's version, `maxAge` and byte budget.
  ///   - now: The current wall-clock time, to judge `maxAge`.
  /// - Returns: The records and what was removed on the way.
  func loadAll(_ rules: PersistenceRules, now: Date) -> PersistenceLoad

  /// The record of `key`, if one is saved and valid; a use for the byte budget.
  ///
  /// - Parameters:
  ///   - key: The key to read.
  ///   - rules: The store's version, `maxAge` and byte budget.
  ///   - now: The current wall-clock time, to judge `maxAge`.
  /// - Returns: At most one record, and what was removed on the way.
  func read(_ key: PersistentKey, rules: PersistenceRules, now: Date) -> PersistenceLoad

  /// Saves `record`, replacing the key's previous one, then evicts the least recently used
  /// records beyond the byte budget.
  ///
  /// - Parameters:
  ///   - record: The record to save.
  ///   - rules: The store's byte budget.
  /// - Returns: What was evicted or displaced.
  /// - Throws: ``PersistenceError`` when nothing was saved; the previous record is intact.
  @discardableResult
  func write(_ record: PersistedRecord, rules: PersistenceRules) throws(PersistenceError)
    -> [PersistenceEvent]

  /// Removes the temporary files interrupted writes left (an app killed between writing a
  /// record and renaming it into place) and reports each; records are not read.
  ///
  /// A store calls it once at launch, before its first write: entries are read one by one
  /// as they are made, so no ``loadAll(_:now:)`` would ever find these files. A backend that
  /// another process may share must leave alone the temporary files of a write that process
  /// still makes (``DirectoryPersistence`` removes only those whose writer is gone).
  ///
  /// - Returns: One ``PersistenceEvent/removedTemporary(file:)`` per file removed.
  func removeTemporaries() -> [PersistenceEvent]

  /// Removes the record of `key`, if any.
  ///
  /// - Parameter key: The key whose record to remove.
  /// - Throws: ``PersistenceError`` when the record stays.
  func remove(_ key: PersistentKey) throws(PersistenceError)

  /// Removes every record (at logout), and nothing else the directory holds.
  ///
  /// - Throws: ``PersistenceError`` naming the first record that stays.
  func removeAll() throws(PersistenceError)
}

extension PersistenceBackend {
  /// A backend that writes no temporary files has none to remove.
  ///
  /// - Returns: No events.
  public func removeTemporaries() -> [PersistenceEvent] { [] }
}

extension PersistenceBackend where Self == InMemoryPersistence {
  /// A backend that keeps records in memory, for tests and previews.
  ///
  /// ```swift
  /// let backend: any PersistenceBackend = .inMemory
  /// ```
  public static var inMemory: InMemoryPersistence { InMemoryPersistence() }
}

extension PersistenceBackend where Self == DirectoryPersistence {
  /// A backend that keeps one file per key in `url`, written atomically.
  ///
  /// The directory is created on the first write. It should be the backend's own: records
  /// are files named `<hash>.loadable`, and nothing else in it is touched. An App Group
  /// container is just a directory URL — pass a folder inside it to share records with an
  /// extension:
  ///
  /// <!-- compile: context Persistence -->
  /// ```swift
  /// let group = FileManager.default.containerURL(
  ///   forSecurityApplicationGroupIdentifier: "group.com.example.app")!
  /// let backend: any PersistenceBackend = .directory(group.appending(path: "Loadables"))
  /// ```
  ///
  /// - Parameters:
  ///   - url: A file URL of the directory.
  ///   - protection: On Apple platforms, the data protection class of each file; ignored
  ///     elsewhere. `nil` keeps the system's default.
  /// - Returns: The backend.
  public static func directory(
    _ url: URL, protection: PersistenceFileProtection? = nil
  ) -> DirectoryPersistence {
    DirectoryPersistence(url, protection: protection)
  }
}

/// The data protection class of a persisted file (Apple platforms; ignored elsewhere).
///
/// <!-- compile: context PersistenceArgument -->
/// ```swift
/// .directory(url, protection: .completeUntilFirstUserAuthentication)
/// ```
public enum PersistenceFileProtection: Equatable, Sendable {
  /// Readable only while the device is unlocked.
  case complete
  /// Readable once created while unlocked, as long as it stays open.
  case completeUnlessOpen
  /// Readable after the first unlock since boot (the system's default).
  case completeUntilFirstUserAuthentication
  /// Always readable.
  case none
}

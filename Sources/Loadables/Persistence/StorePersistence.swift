public import Foundation

/// Where and how a ``LoaderStore`` keeps its entries between launches: the backend, the
/// app's version, the oldest value worth showing and a byte budget.
///
/// <!-- compile: context Persistence -->
/// ```swift
/// let store = LoaderStore(
///   persistence: .directory(cachesURL.appending(path: "Loadables"), version: "42"))
/// ```
///
/// Keep one value and hand it to each store that should see the same records: in a test,
/// two stores made from one ``inMemory(version:maxAge:byteBudget:)`` value behave as the app
/// before and after a relaunch.
public struct StorePersistence: Sendable {
  /// The entries' records.
  let backend: any PersistenceBackend
  /// The outbox's records: kept apart from the entries, so no byte budget or age evicts a
  /// queued edit.
  let outboxBackend: any PersistenceBackend
  /// What the backend keeps and drops.
  let rules: PersistenceRules

  /// The app's build or schema version: every entry saved under another is dropped (queued
  /// edits are kept whatever the version).
  public var version: String { rules.version }
  /// The oldest a saved value may be to be shown; `nil` for any age.
  public var maxAge: Duration? { rules.maxAge }
  /// The most bytes the saved entries may take; `nil` for no limit.
  public var byteBudget: Int? { rules.byteBudget }

  init(
    backend: any PersistenceBackend, outboxBackend: any PersistenceBackend,
    rules: PersistenceRules
  ) {
    self.backend = backend
    self.outboxBackend = outboxBackend
    self.rules = rules
  }

  /// Your own backends: entries in `backend`, queued edits in `outbox`.
  ///
  /// Use it to keep entries in a database, a Core Data store or behind encryption. Give the
  /// outbox its own backend (or its own folder): it is loaded with no `maxAge` and no byte
  /// budget, so no rule ever drops a queued edit, and ``LoaderStore/removePersistedEntries()``
  /// leaves it alone. Check a backend with `PersistenceBackendConformance` from
  /// `LoadablesTesting`.
  ///
  /// <!-- compile: context Persistence -->
  /// ```swift
  /// let folder = URL.applicationSupportDirectory.appending(path: "Loadables")
  /// let persistence = StorePersistence(
  ///   backend: EncryptedBackend(wrapping: .directory(folder), key: secret),
  ///   outbox: .directory(folder.appending(path: "Outbox")), version: "42")
  /// ```
  ///
  /// - Parameters:
  ///   - backend: Where the entries' records are kept.
  ///   - outbox: Where the outbox's records are kept; not the same instance as `backend`.
  ///   - version: The app's build or schema version.
  ///   - maxAge: The oldest a saved value may be to be shown; `nil` for any age.
  ///   - byteBudget: The most bytes the saved entries may take; `nil` for no limit.
  public init(
    backend: any PersistenceBackend, outbox: any PersistenceBackend, version: String,
    maxAge: Duration? = nil, byteBudget: Int? = nil
  ) {
    self.init(
      backend: backend, outboxBackend: outbox,
      rules: PersistenceRules(version: version, maxAge: maxAge, byteBudget: byteBudget))
  }

  /// Records kept in memory, for tests and previews: every store made with this value sees
  /// the same records, as an app sees its files after a relaunch.
  ///
  /// ```swift
  /// let saved = StorePersistence.inMemory(version: "1")
  /// let before = LoaderStore(persistence: saved)
  /// let after = LoaderStore(persistence: saved)  // "relaunched"
  /// ```
  ///
  /// - Parameters:
  ///   - version: The app's build or schema version.
  ///   - maxAge: The oldest a saved value may be to be shown; `nil` for any age.
  ///   - byteBudget: The most bytes to keep; `nil` for no limit.
  /// - Returns: The persistence settings.
  public static func inMemory(
    version: String, maxAge: Duration? = nil, byteBudget: Int? = nil
  ) -> StorePersistence {
    StorePersistence(
      backend: InMemoryPersistence(), outboxBackend: InMemoryPersistence(),
      rules: PersistenceRules(version: version, maxAge: maxAge, byteBudget: byteBudget))
  }

  /// One file per entry in `url`, written atomically (a temporary file, `fsync`, a rename),
  /// the default on a device; the outbox keeps its own files in `url/Outbox`.
  ///
  /// An App Group container is just a directory URL: pass a folder inside it to share the
  /// saved entries with an extension.
  ///
  /// <!-- compile: context Persistence -->
  /// ```swift
  /// let caches = URL.cachesDirectory.appending(path: "Loadables")
  /// let store = LoaderStore(persistence: .directory(caches, version: "42"))
  /// ```
  ///
  /// - Parameters:
  ///   - url: A file URL of a directory the store may own; created on the first write.
  ///   - protection: On Apple platforms, the data protection class of each file; ignored
  ///     elsewhere. `nil` keeps the system's default.
  ///   - version: The app's build or schema version.
  ///   - maxAge: The oldest a saved value may be to be shown; `nil` for any age.
  ///   - byteBudget: The most bytes the saved entries may take; 50 MB by default, `nil` for
  ///     no limit.
  /// - Returns: The persistence settings.
  public static func directory(
    _ url: URL, protection: PersistenceFileProtection? = nil, version: String,
    maxAge: Duration? = nil, byteBudget: Int? = 50 << 20
  ) -> StorePersistence {
    let entries = DirectoryPersistence(url, protection: protection)
    return StorePersistence(
      backend: entries, outboxBackend: DirectoryPersistence(folder: "Outbox", inside: entries),
      rules: PersistenceRules(version: version, maxAge: maxAge, byteBudget: byteBudget))
  }
}

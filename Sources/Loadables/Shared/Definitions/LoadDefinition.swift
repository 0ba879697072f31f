/// One kind of shared entry, described once: its key, its fetch, its value type, and the
/// settings that differ from the store's ``LoadDefaults``.
///
/// Write a definition for each kind of data the app shows, and ask the store for the entry
/// of a definition wherever a screen needs it; every screen asking for the same key gets the
/// same entry, with the same settings and fetch:
///
/// <!-- compile: context SharedDefining -->
/// ```swift
/// struct PostQuery: LoadDefinition {
///   let id: Post.ID
///   var key: LoadKey { ["posts", id] }
///   var staleTime: Duration? { .seconds(60) }
///   func fetch() async throws -> Post { try await api.post(id) }
/// }
///
/// let post = store.loader(for: PostQuery(id: 42))  // SharedLoader<Post>
/// await post.load()
/// ```
///
/// Every setting but ``key`` and ``fetch()`` has a default that says "the store's": a
/// definition states only what differs, and ``LoaderStore/defaults`` decides the rest. The
/// settings an entry was made with are its ``SharedEntry/settings``.
///
/// | setting | when the definition says `nil` (the default) |
/// |---|---|
/// | ``staleTime`` | ``LoadDefaults/staleTime`` |
/// | ``policy`` | a retry of ``LoadDefaults/maxAttempts`` attempts with ``LoadDefaults/backoff`` (no policy when it is 1) |
/// | ``waitsForNetwork`` | ``LoadDefaults/waitsForNetwork`` |
/// | ``refreshTriggers`` | ``LoadDefaults/refreshTriggers`` |
/// | ``isPersisted`` | ``LoadDefaults/isPersisted`` |
///
/// As with every shared entry, the first caller for a key makes it. A caller that finds its
/// key's entry already made (a key-based call, a definition of another type, another
/// instance of the same definition type) gets that entry; each setting it states that
/// differs from the entry's is not used, and is reported once per key and setting as
/// ``StoreDiagnostic/settingsIgnored(key:setting:used:asked:)``. A caller whose value type
/// differs from the entry's gets an entry of its own, see ``StoreDiagnostic/typeMismatch(_:)``.
///
/// The fetch runs off the main actor unless the conformance isolates it (a `@MainActor`
/// `fetch()` is fine): a definition is `Sendable`, so make it a small value (ids and
/// parameters) and reach shared services through properties that are `Sendable` too.
public protocol LoadDefinition: Sendable {
  /// The type of the value the entry holds.
  associatedtype Value: Sendable

  /// The entry's key. Keys are compared whole: two definitions with one key share an entry.
  var key: LoadKey { get }

  /// How long a value stays fresh; `nil` (the default) for the store's
  /// ``LoadDefaults/staleTime``. Not negative.
  var staleTime: Duration? { get }

  /// The policy every fetch runs under; `nil` (the default) for the store's default retry
  /// (``LoadDefaults/maxAttempts``, ``LoadDefaults/backoff``). A policy given here replaces
  /// that retry: add `.retry(...)` to it to keep one.
  var policy: LoadPolicy<Value>? { get }

  /// Whether fetches wait while the store's connectivity says offline; `nil` (the default)
  /// for the store's ``LoadDefaults/waitsForNetwork``.
  var waitsForNetwork: Bool? { get }

  /// What refreshes the entry while it is observed; `nil` (the default) for the store's
  /// ``LoadDefaults/refreshTriggers``.
  var refreshTriggers: [RefreshTrigger]? { get }

  /// Whether the entry is kept between launches by the store's persistence (its value must
  /// be `Codable`); `nil` (the default) for the store's ``LoadDefaults/isPersisted``.
  var isPersisted: Bool? { get }

  /// Fetches the value. Runs under the entry's policy, as any shared entry's fetch does.
  func fetch() async throws -> Value

  /// A placeholder to show until the first fetch lands, computed from what the store
  /// already holds (the list's row for a detail); `nil` (the default) for none. Asked once,
  /// when the store makes the entry and nothing was restored for it; see
  /// ``SharedEntry/showPlaceholder(_:)``. A placeholder that throws is reported as
  /// ``StoreDiagnostic/placeholderFailed(key:error:)`` and none is shown.
  ///
  /// ```swift
  /// func placeholder(in store: LoaderStore) -> Post? {
  ///   store.existingLoader(for: ["posts"], as: [Post].self)?.state.data?
  ///     .first { $0.id == id }
  /// }
  /// ```
  @MainActor func placeholder(in store: LoaderStore) throws -> Value?
}

extension LoadDefinition {
  /// The store's stale time: ``LoadDefaults/staleTime``.
  public var staleTime: Duration? { nil }
  /// The store's default retry: see ``LoadDefaults/maxAttempts``.
  public var policy: LoadPolicy<Value>? { nil }
  /// The store's ``LoadDefaults/waitsForNetwork``.
  public var waitsForNetwork: Bool? { nil }
  /// The store's ``LoadDefaults/refreshTriggers``.
  public var refreshTriggers: [RefreshTrigger]? { nil }
  /// The store's ``LoadDefaults/isPersisted``.
  public var isPersisted: Bool? { nil }
  /// No placeholder.
  @MainActor public func placeholder(in store: LoaderStore) throws -> Value? { nil }
}

extension LoaderStore {
  /// The entry of `definition`, made on first use with its settings and fetch.
  ///
  /// Reading an entry that exists looks up the definition's key and compares the settings
  /// the definition states with the entry's (see ``LoadDefinition`` for the rule); its fetch
  /// and refresh triggers are read only when the entry is made.
  ///
  /// - Parameter definition: What the entry is: its key, value type, fetch and settings.
  /// - Returns: The shared entry for the definition's key.
  ///
  /// > Important: A negative ``LoadDefinition/staleTime`` stops the program with a
  /// > message naming the key when it makes the entry.
  public func loader<Definition: LoadDefinition>(
    for definition: Definition
  ) -> SharedLoader<Definition.Value> {
    let key = definition.key
    if let existing = existingEntry(for: key, as: Definition.Value.self) {
      noteIgnored(
        existing, staleTime: definition.staleTime,
        waitsForNetwork: definition.waitsForNetwork, persisted: definition.isPersisted)
      return existing
    }
    if LoadEvents.isOn { makingDefinition = Definition.self }
    let entry = loader(
      for: key, staleTime: definition.staleTime, policy: definition.policy,
      waitsForNetwork: definition.waitsForNetwork, refreshing: definition.refreshTriggers,
      persisted: definition.isPersisted
    ) { try await definition.fetch() }
    makingDefinition = nil
    if !entry.isDefined {
      entry.isDefined = true
      showPlaceholder(in: entry) { try definition.placeholder(in: self) }
    }
    return entry
  }

  /// Shows the placeholder `make` computes in the entry a definition just made, unless a
  /// value was restored (or laid over by the outbox); reports a placeholder that throws. One
  /// path for every kind of definition (``LoadDefinition``, ``PagedLoadDefinition``).
  func showPlaceholder<Value: Sendable, State: SharedEntryState & Sendable>(
    in entry: SharedEntry<Value, State>, _ make: () throws -> Value?
  ) where State.Value == Value {
    guard !entry.state._holdsValue else { return }
    do {
      if let value = try make() { entry.showPlaceholder(value) }
    } catch {
      report(.placeholderFailed(key: entry.key, error: String(describing: error)))
    }
  }
}

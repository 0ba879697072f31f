/// The settings a ``LoaderStore`` gives every entry whose caller does not state its own.
///
/// Pass them when making the store; a ``LoadDefinition`` (or a call to
/// ``LoaderStore/loader(for:staleTime:policy:waitsForNetwork:refreshing:persisted:fetch:)``)
/// states only what differs:
///
/// ```swift
/// let store = LoaderStore(defaults: LoadDefaults(staleTime: .seconds(30), maxAttempts: 3))
/// ```
///
/// The settings an entry was made with are its ``SharedEntry/settings``.
///
/// > Important: A negative `staleTime` or a `maxAttempts` below one stops the program with
/// > a message naming it when the store is made.
public struct LoadDefaults: Sendable, CustomStringConvertible {
  /// How long a value stays fresh. Zero (the default) means every load refreshes, silently,
  /// while the value stays on screen.
  public var staleTime: Duration
  /// How many attempts a fetch makes in all, the first included, when its caller gives no
  /// policy: one (the default) retries nothing.
  public var maxAttempts: Int
  /// The wait before each retry of the default retry.
  public var backoff: Backoff
  /// Whether fetches wait while the store's ``LoaderStore/connectivity`` says offline;
  /// `true` by default.
  public var waitsForNetwork: Bool
  /// What refreshes every entry while it is observed; none by default.
  public var refreshTriggers: [RefreshTrigger]
  /// Whether entries whose value is `Codable` are kept by the store's persistence; `true` by
  /// default.
  public var isPersisted: Bool

  /// Creates store-wide defaults.
  ///
  /// - Parameters:
  ///   - staleTime: How long a value stays fresh; zero or more.
  ///   - maxAttempts: How many attempts a fetch without a policy of its own makes; at least
  ///     one.
  ///   - backoff: The wait before each of those retries.
  ///   - waitsForNetwork: Whether fetches wait for the network while offline.
  ///   - refreshTriggers: What refreshes observed entries.
  ///   - isPersisted: Whether `Codable` entries persist.
  public init(
    staleTime: Duration = .zero,
    maxAttempts: Int = 1,
    backoff: Backoff = .exponential(),
    waitsForNetwork: Bool = true,
    refreshTriggers: [RefreshTrigger] = [],
    isPersisted: Bool = true
  ) {
    self.staleTime = staleTime
    self.maxAttempts = maxAttempts
    self.backoff = backoff
    self.waitsForNetwork = waitsForNetwork
    self.refreshTriggers = refreshTriggers
    self.isPersisted = isPersisted
  }

  /// Stops the program with a message naming a setting that is out of range.
  func validate() {
    precondition(
      staleTime >= .zero,
      "LoaderStore: defaults.staleTime must not be negative, got \(staleTime)")
    precondition(
      maxAttempts >= 1, "LoaderStore: defaults.maxAttempts must be at least 1, got \(maxAttempts)")
  }

  /// The policy of an entry whose caller gave none: the default retry, or no policy.
  func policy<Value: Sendable>(clock: any Clock<Duration>) -> LoadPolicy<Value> {
    maxAttempts > 1
      ? .retry(maxAttempts: maxAttempts, backoff: backoff, clock: clock) : LoadPolicy()
  }

  /// Every setting, as in `LoadDefaults(staleTime: 30.0 seconds, maxAttempts: 3, ...)`.
  public var description: String {
    "LoadDefaults(staleTime: \(staleTime), maxAttempts: \(maxAttempts), backoff: \(backoff), "
      + "waitsForNetwork: \(waitsForNetwork), refreshTriggers: \(refreshTriggers.count), "
      + "isPersisted: \(isPersisted))"
  }
}

/// The settings a shared entry was made with: its caller's where it stated them, the store's
/// ``LoadDefaults`` elsewhere. Read them from ``SharedEntry/settings``.
public struct LoadSettings: Sendable, Equatable, CustomStringConvertible {
  /// How long a value stays fresh.
  public let staleTime: Duration
  /// The policy every fetch runs under, as ``LoadPolicy/description`` writes it (with the
  /// wait for the network, when the entry has one).
  public let policy: String
  /// Whether fetches wait for the network while offline: `false` in a store made without a
  /// ``LoaderStore/connectivity``, where nothing waits.
  public let waitsForNetwork: Bool
  /// How many refresh triggers run while the entry is observed.
  public let refreshTriggerCount: Int
  /// Whether the entry asked to be kept between launches. It is when the store has a
  /// ``LoaderStore/persistence``, the value is `Codable` and the key's parts can be saved.
  public let isPersisted: Bool

  /// Every setting, as in `LoadSettings(staleTime: 30.0 seconds, policy: "none", ...)`.
  public var description: String {
    "LoadSettings(staleTime: \(staleTime), policy: \"\(policy)\", waitsForNetwork: "
      + "\(waitsForNetwork), refreshTriggers: \(refreshTriggerCount), isPersisted: \(isPersisted))"
  }
}

/// The settings a shared entry was made with: ``SharedEntry/settings`` shows them (with the
/// policy its engine holds), and a later caller's are compared with them, in a plain value
/// read without the entry's generic layout. A stale time and three flags: a store holds
/// thousands of entries.
struct RequestedSettings: Sendable, Equatable {
  /// How long a value stays fresh.
  let staleTime: Duration
  /// Whether the maker asked the fetches to wait for the network.
  let waitsForNetwork: Bool
  /// Whether they do: asked, in a store with a connectivity.
  let waitsInForce: Bool
  let persisted: Bool
}

extension SharedEntry {
  /// The settings the entry was made with: its maker's where it stated them, the store's
  /// ``LoaderStore/defaults`` elsewhere. A later caller's settings are never used (they are
  /// reported when they differ, see ``StoreDiagnostic``).
  public var settings: LoadSettings {
    LoadSettings(
      staleTime: requested.staleTime, policy: engine.policyDescription,
      waitsForNetwork: requested.waitsInForce, refreshTriggerCount: triggers.count,
      isPersisted: requested.persisted)
  }
}

/// A mistake in how the app uses a ``LoaderStore``, reported as it happens instead of
/// stopping the program: see ``LoaderStore/onDiagnostic`` and
/// ``LoaderStore/recentDiagnostics``.
public enum StoreDiagnostic: Sendable, Equatable, CustomStringConvertible {
  /// A key was asked for with a value type other than its entry's. The caller got an entry
  /// of its own for that type, kept apart from the first (shared by every caller asking for
  /// the key with that type, never persisted). Debug builds also stop at an assertion, see
  /// ``LoaderStore/typeMismatchAssertion``.
  case typeMismatch(LoadKeyTypeMismatch)
  /// A caller stated a setting for an entry that was already made with another: the first
  /// caller's setting is the one used. A caller that finds its key's entry already made (a
  /// key-based call, a definition of another type, another instance of the same definition
  /// type) gets that entry; each setting it states that differs from the entry's is not
  /// used, and is reported once per key and setting.
  ///
  /// - Parameters:
  ///   - key: The entry's key.
  ///   - setting: The setting's name, such as `"staleTime"`.
  ///   - used: The entry's value of it.
  ///   - asked: The later caller's value of it.
  case settingsIgnored(key: LoadKey, setting: String, used: String, asked: String)
  /// A ``LoadDefinition``'s ``LoadDefinition/placeholder(in:)`` threw as the store made
  /// its entry: no placeholder is shown, and the entry loads as usual.
  ///
  /// - Parameters:
  ///   - key: The entry's key.
  ///   - error: A description of what the placeholder threw.
  case placeholderFailed(key: LoadKey, error: String)

  /// What went wrong, naming the key and both sides.
  public var description: String {
    switch self {
    case .typeMismatch(let mismatch):
      return mismatch.description
    case .settingsIgnored(let key, let setting, let used, let asked):
      return "LoaderStore.loader(for: \(key)): the entry was made with \(setting) \(used); "
        + "a later caller asked for \(asked), which is not used"
    case .placeholderFailed(let key, let error):
      return "LoaderStore.loader(for: \(key)): the definition's placeholder threw \(error); "
        + "no placeholder is shown"
    }
  }
}

/// The error of asking a ``LoaderStore`` for a key its entry holds with another value type.
///
/// Two call sites asked for one key with different value types: a bug in the app's keys
/// (two ``LoadDefinition``s sharing a key, say). The store reports it as
/// ``StoreDiagnostic/typeMismatch(_:)``, asserts in debug builds, and keeps the two entries
/// apart: each caller gets a working entry of its value type.
///
/// ```swift
/// let count = store.loader(for: ["posts"]) { 3 }
/// let posts = store.loader(for: ["posts"]) { ["a"] }  // reported; an entry of its own
/// ```
public struct LoadKeyTypeMismatch: Error, Sendable, Equatable, CustomStringConvertible {
  /// The key asked for.
  public let key: LoadKey
  /// The name of the value type the store's entry holds.
  public let heldType: String
  /// The name of the value type asked for.
  public let askedType: String

  init(key: LoadKey, heldType: Any.Type, askedType: Any.Type) {
    self.key = key
    self.heldType = String(reflecting: heldType)
    self.askedType = String(reflecting: askedType)
  }

  /// Names the key and both types.
  public var description: String {
    "LoaderStore.loader(for: \(key)): the entry holds \(heldType), asked for \(askedType); "
      + "the two are kept apart"
  }
}

/// The last part of the registry key of an entry kept apart after a
/// ``LoadKeyTypeMismatch``: the entry's own key plus its value type.
struct ApartTag: Hashable, Sendable, CustomStringConvertible {
  let type: ObjectIdentifier
  let name: String

  init(_ type: Any.Type) {
    self.type = ObjectIdentifier(type)
    self.name = String(reflecting: type)
  }

  static func == (lhs: ApartTag, rhs: ApartTag) -> Bool { lhs.type == rhs.type }
  func hash(into hasher: inout Hasher) { hasher.combine(type) }
  var description: String { "as \(name)" }
}

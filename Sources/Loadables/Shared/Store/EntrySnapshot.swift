public import Foundation

/// One entry of a ``LoaderStore`` at one moment: its state, observers, freshness and fetch.
///
/// Each fact is the one the entry itself shows (``SharedEntry/observerCount``,
/// ``SharedEntry/fetchedAt``, ``SharedEntry/isStale``, ``LoadHandle/isRunning``,
/// ``LoadHandle/attempt``, ``LoadHandle/progress``), read at once; ``staleness`` adds why
/// a stale value is stale.
public struct EntrySnapshot: Sendable, Identifiable {
  /// What an entry holds: one value, or a list loaded page by page.
  public enum Kind: String, Sendable, Hashable, CustomStringConvertible {
    /// A ``SharedLoader``: one value.
    case value
    /// A ``SharedPagedLoader``: a list loaded page by page.
    case paged

    /// The kind's name: "value" or "paged".
    public var description: String { rawValue }
  }

  /// What the entry shows, in one word (for a paged list, its ``PagedState/list``).
  public enum Phase: String, Sendable, Hashable, CustomStringConvertible {
    /// No value, nothing loading (`.absent`).
    case absent
    /// A first load runs with nothing to show (`.loading`).
    case loading
    /// A value shows (`.loaded`).
    case loaded
    /// A fetch failed with nothing to show (`.error`).
    case error
    /// A placeholder shows until the first fetch lands.
    case placeholder

    /// The phase's name: "absent", "loading", "loaded", "error" or "placeholder".
    public var description: String { rawValue }
  }

  /// Whether the entry's value is fresh, and if not, why not.
  public enum Staleness: String, Sendable, Hashable, CustomStringConvertible {
    /// Fresh: a load fetches nothing until ``EntrySnapshot/staleAt``.
    case fresh
    /// Stale because there is no value yet.
    case noValue
    /// Stale because the value shown was never fetched: a placeholder, or a starting value
    /// given without a fetch time.
    case notFetched
    /// Stale because it was invalidated (``LoaderStore/invalidate(_:matching:)``) since it was
    /// fetched.
    case invalidated
    /// Stale because it is older than the entry's stale time.
    case aged

    /// The staleness in a few words: "fresh", "no value", "not fetched", "invalidated",
    /// "aged".
    public var description: String {
      switch self {
      case .fresh: "fresh"
      case .noValue: "no value"
      case .notFetched: "not fetched"
      case .invalidated: "invalidated"
      case .aged: "aged"
      }
    }
  }

  /// The entry's key.
  public let key: LoadKey
  /// The snapshot's identity: the key, tagged with the value type for an entry kept apart
  /// after a ``LoadKeyTypeMismatch``.
  public let id: String
  /// One value or a paged list.
  public let kind: Kind
  /// The value's type, as Swift writes it ("Post", "[NewsRow]").
  public let valueType: String
  /// What the entry shows.
  public let phase: Phase
  /// The value shown, described in one line of at most 80 characters (a paged list: its
  /// item and page counts); `nil` when none shows.
  public let valueSummary: String?
  /// The error shown (``Phase/error``), or the error of the last fetch that failed while
  /// the value stayed on screen (``LoadHandle/refreshError``); `nil` otherwise.
  public let error: (any Error)?
  /// A paged list's next page, in a word ("idle", "loading", "failed", "end"); `nil` for a
  /// value.
  public let nextPage: String?
  /// How many observers are alive (``SharedEntry/observerCount``).
  public let observerCount: Int
  /// When the value was fetched (``SharedEntry/fetchedAt``).
  public let fetchedAt: Date?
  /// How long a fetched value stays fresh.
  public let staleTime: Duration
  /// Whether the value is fresh, and why not.
  public let staleness: Staleness
  /// When a fresh value turns stale; `nil` when it is stale already.
  public let staleAt: Date?
  /// Whether a fetch is in flight, silent ones and a next page included
  /// (``LoadHandle/isRunning``).
  public let isRunning: Bool
  /// Whether that fetch waits for the network (``LoadHandle/isWaitingForNetwork``).
  public let isWaitingForNetwork: Bool
  /// The attempt a retry policy runs or waits to run (``LoadHandle/attempt``).
  public let attempt: RetryAttempt?
  /// The progress the running fetch last reported (``LoadHandle/progress``).
  public let progress: LoadingProgress?
  /// Whether the entry is saved between launches: the store has a persistence, the entry
  /// asked to be, and its value is `Codable`.
  public let isPersisted: Bool
  /// How many optimistic edits are laid over the entry whose job has not committed yet.
  public let pendingEditCount: Int
  /// How many optimistic edits are laid over the entry, committed ones waiting for a fetch
  /// to carry them included.
  public let editCount: Int
  /// Whether its next fetch fails on purpose (``LoaderStore/failNextFetch(of:with:)``).
  public let failsNextFetch: Bool

  /// Whether the value is stale: the next load refreshes it.
  public var isStale: Bool { staleness != .fresh }

  /// Whether a fetch runs while a value stays on screen: a silent refresh (a paged list's
  /// next page is not one).
  public var isRefreshing: Bool {
    isRunning && (phase == .loaded || phase == .placeholder) && nextPage != "loading"
  }

  /// Creates an entry's snapshot; the store makes them (``LoaderStore/snapshot()``), and a
  /// test of an inspector may make its own.
  ///
  /// - Parameters:
  ///   - key: The entry's key.
  ///   - id: The snapshot's identity; the key's description when `nil`.
  ///   - kind: One value or a paged list.
  ///   - valueType: The value's type.
  ///   - phase: What the entry shows.
  ///   - valueSummary: The value in one line.
  ///   - error: The error shown, or the last refresh error.
  ///   - nextPage: A paged list's next page in a word.
  ///   - observerCount: How many observers are alive.
  ///   - fetchedAt: When the value was fetched.
  ///   - staleTime: How long a value stays fresh.
  ///   - staleness: Whether it is fresh, and why not.
  ///   - staleAt: When a fresh value turns stale.
  ///   - isRunning: Whether a fetch is in flight.
  ///   - isWaitingForNetwork: Whether it waits for the network.
  ///   - attempt: The retry attempt.
  ///   - progress: The fetch's progress.
  ///   - isPersisted: Whether the entry is saved between launches.
  ///   - pendingEditCount: Uncommitted optimistic edits.
  ///   - editCount: Every optimistic edit laid over.
  ///   - failsNextFetch: Whether its next fetch fails on purpose.
  public init(
    key: LoadKey, id: String? = nil, kind: Kind = .value, valueType: String = "",
    phase: Phase, valueSummary: String? = nil, error: (any Error)? = nil,
    nextPage: String? = nil, observerCount: Int = 0, fetchedAt: Date? = nil,
    staleTime: Duration = .zero, staleness: Staleness, staleAt: Date? = nil,
    isRunning: Bool = false, isWaitingForNetwork: Bool = false, attempt: RetryAttempt? = nil,
    progress: LoadingProgress? = nil, isPersisted: Bool = false, pendingEditCount: Int = 0,
    editCount: Int = 0, failsNextFetch: Bool = false
  ) {
    self.key = key
    self.id = id ?? key.description
    self.kind = kind
    self.valueType = valueType
    self.phase = phase
    self.valueSummary = valueSummary
    self.error = error
    self.nextPage = nextPage
    self.observerCount = observerCount
    self.fetchedAt = fetchedAt
    self.staleTime = staleTime
    self.staleness = staleness
    self.staleAt = staleAt
    self.isRunning = isRunning
    self.isWaitingForNetwork = isWaitingForNetwork
    self.attempt = attempt
    self.progress = progress
    self.isPersisted = isPersisted
    self.pendingEditCount = pendingEditCount
    self.editCount = editCount
    self.failsNextFetch = failsNextFetch
  }
}

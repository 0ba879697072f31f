import Foundation

// What an inspector needs from a store and cannot get from an entry it does not know the type
// of: a snapshot of every entry and the outbox, pretending to be offline, and making the next
// fetch of an entry fail. A query devtool's actions on one key (refetch, invalidate, reset,
// remove) are the store's own, with `matching: .exact`.

extension LoaderStore {
  /// The store's entries and outbox now, as plain values.
  ///
  /// ```swift
  /// for entry in store.snapshot().entries {
  ///   print(entry.key, entry.phase, entry.staleness, entry.observerCount)
  /// }
  /// ```
  ///
  /// - Returns: The snapshot, its entries ordered by key (a key before the longer keys it
  ///   starts).
  public func snapshot() -> StoreSnapshot {
    var snapshots: [EntrySnapshot] = []
    snapshots.reserveCapacity(entries.count)
    for entry in entries.values {
      guard let entry = entry as? any InspectableEntry else { continue }
      snapshots.append(entry.inspectionSnapshot(in: self))
    }
    // By key, a key before the longer keys it starts (`["a"]`, then `["a", 1]`).
    snapshots.sort { $0.id.dropLast() < $1.id.dropLast() }
    return StoreSnapshot(
      entries: snapshots, outbox: outbox.items, runningCount: runningCount,
      isOnline: connectivity == nil ? nil : network.isOnlineNow,
      isSimulatingOffline: isSimulatingOffline,
      date: wallNow)
  }

  /// Makes the next fetch of the entry of exactly `key` fail with `error`, once; the fetches
  /// after it run normally.
  ///
  /// The failing fetch runs through the engine under the entry's policy like any fetch: it
  /// reports `started` and `failed` events, each of its attempts throws `error` (a retry
  /// policy waits its backoff and tries again, and fails again), and the entry then shows
  /// `.error(error)`, or keeps its value and sets ``LoadHandle/refreshError`` when its
  /// policy keeps values on failure (a silent refetch of a paged list does). A fetch that is
  /// running already is not touched: the next one started fails. Nothing starts a fetch here;
  /// call ``refetch(_:matching:)`` to see it at once.
  ///
  /// ```swift
  /// store.failNextFetch(of: ["posts", 42], with: URLError(.timedOut))
  /// store.refetch(["posts", 42], matching: .exact)  // fails with the timeout
  /// ```
  ///
  /// - Parameters:
  ///   - key: The entry's key.
  ///   - error: The error the fetch throws; ``SimulatedFailure`` by default.
  /// - Returns: Whether the store holds an entry of that key.
  @discardableResult
  public func failNextFetch(of key: LoadKey, with error: any Error = SimulatedFailure()) -> Bool {
    let matching = inspectableEntries(exactly: key)
    for entry in matching { FetchInjection.arm(entry, error: error) }
    return !matching.isEmpty
  }

  /// Whether the store pretends the network is gone, as a developer's switch in an
  /// inspector; `false` by default. Set it back to `false` to end the pretence.
  ///
  /// Offline means what it means when the device loses the network. The pretence is kept in
  /// one place, the store's network truth (its ``connectivity``, or a source of its own
  /// when it was made without one), and everything that follows it sees it: polling
  /// (``RefreshTrigger/every(_:)``) skips, the outbox waits, and turning the pretence off is
  /// a reconnection for ``RefreshTrigger/networkReconnected`` when the source says online.
  /// What a fetch does depends on whether the store waits for the network:
  ///
  /// | the store | while it pretends |
  /// |---|---|
  /// | made with a ``connectivity`` | the connectivity says offline, whatever its source reports: fetches that wait for the network wait (an entry made with `waitsForNetwork: false` fetches as usual). Turned off, it says what its source last reported, and the waits resume if that is online. |
  /// | made without one | nothing in it waits for the network, so every fetch that starts fails with ``SimulatedFailure/offline``, as a request would |
  ///
  /// > Important: The connectivity is the store's object: any other store or policy given the
  /// > same ``Connectivity`` sees it offline too, as it would if the device were.
  public var isSimulatingOffline: Bool {
    get { network.isForcedOffline }
    set {
      network.isForcedOffline = newValue
      // A fetch in a store without a connectivity fails while it pretends; the fetch reads
      // the pretence from `network` (see `FetchInjection.take(for:)`).
      if connectivity == nil { FetchInjection.noteOffline(network, newValue) }
    }
  }

  /// The entries held under exactly `key`: its own, and those kept apart for other value
  /// types.
  private func inspectableEntries(exactly key: LoadKey) -> [any InspectableEntry] {
    entries.values.compactMap { entry in
      entry.key == key ? entry as? any InspectableEntry : nil
    }
  }
}

/// The error of a fetch an inspector made fail (``LoaderStore/failNextFetch(of:with:)``), or
/// of a fetch started while a store without a connectivity pretends to be offline
/// (``LoaderStore/isSimulatingOffline``).
public struct SimulatedFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// Why the fetch failed, in words.
  public let reason: String

  /// A failure with `reason`.
  ///
  /// - Parameter reason: Why the fetch failed; "simulated failure" by default.
  public init(_ reason: String = "simulated failure") {
    self.reason = reason
  }

  /// The failure of a fetch started while a store pretends to be offline.
  public static let offline = SimulatedFailure("simulated offline")

  /// The reason.
  public var description: String { reason }
}

/// What an inspector reads of an entry whatever its type.
@MainActor
protocol InspectableEntry: AnySharedEntry {
  func inspectionSnapshot(in store: LoaderStore) -> EntrySnapshot
  func startInspectedRefetch()
}

extension SharedEntry: InspectableEntry {
  func inspectionSnapshot(in store: LoaderStore) -> EntrySnapshot {
    let now = store.now
    let tally = book.tally
    let shown = book.shown
    let summary = (shown as? any InspectedState)?.inspection
    var phase = summary?.phase ?? (tally.showsValue ? .loaded : .absent)
    if tally.isPlaceholder, tally.showsValue { phase = .placeholder }
    let staleness: EntrySnapshot.Staleness
    var staleAt: Date?
    if !tally.showsValue {
      staleness = .noValue
    } else if tally.isPlaceholder || (tally.invalidated && tally.fetchedAt == nil) {
      staleness = .notFetched
    } else if tally.invalidated {
      staleness = .invalidated
    } else if let updatedAt = tally.updatedAt, now - updatedAt < tally.staleTime {
      staleness = .fresh
      staleAt = store.wallDate(at: updatedAt + tally.staleTime)
    } else {
      staleness = .aged
    }
    var pending = 0
    for edit in book.edits where edit.committedAt == nil { pending += 1 }
    let persisted =
      store.persister != nil && requested.persisted && registryKey == key && !slot.isDetached
      && Value.self is any Codable.Type
    return EntrySnapshot(
      key: key, id: registryKey.description,
      kind: State.self is any _PagedEntryState.Type
        ? .paged : .value,
      valueType: String(describing: valueType), phase: phase,
      valueSummary: summary?.value, error: summary?.error ?? slot.refreshError,
      nextPage: summary?.nextPage, observerCount: observerCount,
      fetchedAt: tally.fetchedAt.map(store.wallDate(at:)), staleTime: tally.staleTime,
      staleness: staleness, staleAt: staleAt, isRunning: slot.isBusy,
      isWaitingForNetwork: slot.isWaitingForNetwork, attempt: slot.attempt,
      progress: slot.progress, isPersisted: persisted, pendingEditCount: pending,
      editCount: book.edits.count, failsNextFetch: FetchInjection.isArmed(for: self))
  }

  func startInspectedRefetch() { startRefetch() }
}

/// What an inspector shows of a state: its phase, its value in one line, its error.
protocol InspectedState {
  var inspection: StateInspection { get }
}

/// A state in a few words; see ``InspectedState``.
struct StateInspection {
  var phase: EntrySnapshot.Phase
  var value: String?
  var error: (any Error)?
  var nextPage: String?
}

extension LoadableState: InspectedState {
  var inspection: StateInspection {
    switch self {
    case .absent: StateInspection(phase: .absent)
    case .loading: StateInspection(phase: .loading)
    case .error(let error): StateInspection(phase: .error, error: error)
    case .loaded(let value): StateInspection(phase: .loaded, value: oneLine(value))
    }
  }
}

extension PagedState: InspectedState {
  var inspection: StateInspection {
    var inspection = list.inspection
    if list.isLoaded {
      inspection.value =
        "\(items.count) item\(items.count == 1 ? "" : "s") in \(pages.count) "
        + "page\(pages.count == 1 ? "" : "s")"
    }
    switch nextPage {
    case .idle: inspection.nextPage = "idle"
    case .loading: inspection.nextPage = "loading"
    case .failed(let error):
      inspection.nextPage = "failed"
      if inspection.error == nil { inspection.error = error }
    case .end: inspection.nextPage = "end"
    }
    return inspection
  }
}

/// `value` described on one line of at most 80 characters.
private func oneLine(_ value: Any) -> String {
  var text = String(describing: value)
  text = text.split(whereSeparator: \.isNewline).joined(separator: " ")
  if text.count > 80 { text = String(text.prefix(79)) + "…" }
  return text
}

/// The inspector's switches that reach a fetch as it starts: the failures armed for entries'
/// next fetches, and the pretence of being offline of a store without a connectivity.
///
/// Kept here, off the entry and the store, so they cost nothing while unused: a starting
/// fetch reads ``isArmed`` (one flag) and looks no further while it is `false`.
@MainActor
enum FetchInjection {
  /// Whether any failure is armed or any store without a connectivity pretends to be offline.
  static private(set) var isArmed = false
  /// The failures armed, by entry; the entry is held weakly and checked by identity.
  private static var failures: [ObjectIdentifier: (entry: WeakObject, error: any Error)] = [:]
  /// The networks of stores made without a connectivity that pretend to be offline, held
  /// weakly: only so that ``isArmed`` is one flag. Whether a store is offline is its
  /// network's to say (``LoaderStore/isSimulatingOffline``), and ``take(for:)`` asks it.
  private static var offlineNetworks: [ObjectIdentifier: WeakObject] = [:]

  static func arm(_ entry: AnyObject, error: any Error) {
    failures[ObjectIdentifier(entry)] = (WeakObject(entry), error)
    update()
  }

  static func isArmed(for entry: AnyObject) -> Bool {
    guard isArmed, let armed = failures[ObjectIdentifier(entry)] else { return false }
    return armed.entry.object === entry
  }

  /// The error the fetch `entry` starts now must fail with, if any: an armed failure (taken,
  /// so it fails once), or the offline failure of its store.
  static func take<Value, State>(for entry: SharedEntry<Value, State>) -> (any Error)? {
    if let armed = failures.removeValue(forKey: ObjectIdentifier(entry)) {
      update()
      if armed.entry.object === entry { return armed.error }
    }
    if let store = entry.store, store.connectivity == nil, !store.network.isOnlineNow {
      return SimulatedFailure.offline
    }
    return nil
  }

  /// A store without a connectivity began or stopped pretending to be offline.
  static func noteOffline(_ network: Connectivity, _ isOffline: Bool) {
    offlineNetworks[ObjectIdentifier(network)] = isOffline ? WeakObject(network) : nil
    update()
  }

  private static func update() {
    failures = failures.filter { $0.value.entry.object != nil }
    offlineNetworks = offlineNetworks.filter { $0.value.object != nil }
    isArmed = !failures.isEmpty || !offlineNetworks.isEmpty
  }
}

/// An object held weakly.
private struct WeakObject {
  weak var object: AnyObject?
  init(_ object: AnyObject) { self.object = object }
}

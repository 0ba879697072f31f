import Foundation

// What an inspector needs from a store and cannot get from an entry it does not know the type
// of: a snapshot of every entry and the outbox, pretending to be offline, and making the next
// fetch of an entry fail. A query devtool's actions on one key (refresh, invalidate, reset,
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
  /// policy keeps values on failure (a silent refresh of a paged list does). A fetch that is
  /// running already is not touched: the next one started fails. Nothing starts a fetch here;
  /// call ``refresh(_:matching:)`` to see it at once.
  ///
  /// ```swift
  /// store.failNextFetch(of: ["posts", 42], with: URLError(.timedOut))
  /// store.refresh(["posts", 42], matching: .exact)  // fails with the timeout
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

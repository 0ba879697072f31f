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

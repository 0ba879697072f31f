extension RefreshTrigger {
  /// Refreshes when the store's network comes back, while the entry is observed.
  ///
  /// The trigger follows the store's one network truth, its ``LoaderStore/connectivity``:
  /// the same source that fetches wait for, that polling and the outbox consult, and that an
  /// inspector's ``LoaderStore/isSimulatingOffline`` switches. Only a change from offline to
  /// online refreshes: the state the source is in when observation starts, and going
  /// offline, refresh nothing. The trigger starts no monitor of its own: every observed
  /// entry listens to the one source (``Connectivity/system`` runs one `NWPathMonitor` for
  /// the whole app), and stops listening when its last observer goes.
  ///
  /// <!-- compile: context Platform -->
  /// ```swift
  /// let store = LoaderStore(connectivity: .system)
  /// let feed = store.loader(
  ///   for: ["feed"], refreshing: [.appBecameActive, .networkReconnected]
  /// ) { try await api.feed() }
  /// ```
  ///
  /// A store made without a connectivity assumes the network never goes away, so the
  /// trigger refreshes only when its simulated offline ends. In tests, give the store a
  /// `Connectivity(isOnline:)` and switch it with LoadablesTesting's `goOffline()` and
  /// `goOnline()`: the refresh starts as `goOnline()` returns.
  public static var networkReconnected: RefreshTrigger {
    RefreshTrigger(source: .reconnection, name: "network reconnected")
  }
}

#if canImport(Network)
  import Dispatch
  import Network
#endif

extension Connectivity {
  /// The device's own connectivity: on Apple platforms it follows `NWPathMonitor`; on other
  /// platforms it always says online.
  ///
  /// One source for the whole app, made on first use. On Apple platforms an `NWPathMonitor`
  /// starts then and runs for the life of the process: a path whose status is `.satisfied`
  /// is online, any other offline. Until the monitor's first reading arrives (at once, in
  /// practice) the source says online, so nothing waits on a guess. Elsewhere (Linux) there
  /// is no monitor, and the source stays online unless the app calls
  /// ``update(isOnline:)`` itself.
  ///
  /// ```swift
  /// let store = LoaderStore(connectivity: .system)
  /// ```
  public static let system: Connectivity = {
    let connectivity = Connectivity(isOnline: true)
    #if canImport(Network)
      let monitor = NWPathMonitor()
      monitor.pathUpdateHandler = { path in
        let isOnline = path.status == .satisfied
        // Delivered on the main queue (below), so in order and on the main actor.
        MainActor.assumeIsolated { connectivity.update(isOnline: isOnline) }
      }
      monitor.start(queue: .main)
      connectivity.source = monitor
    #endif
    return connectivity
  }()
}

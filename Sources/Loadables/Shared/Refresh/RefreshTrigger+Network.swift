#if canImport(Network)
  import Dispatch
  import Network

  extension RefreshTrigger {
    /// Refetches when network connectivity comes back, while the entry is observed.
    ///
    /// An `NWPathMonitor` runs while the entry is observed and is cancelled when observation
    /// ends. Only a change from no usable path to a `.satisfied` one refetches: the path the
    /// monitor starts with, a switch between two working interfaces and going offline
    /// refetch nothing.
    ///
    /// ```swift
    /// let feed = store.loader(
    ///   for: ["feed"], refreshing: [.appBecameActive, .networkReconnected]
    /// ) { try await api.feed() }
    /// ```
    ///
    /// Available wherever Apple's Network framework is: iOS, iPadOS, macOS, tvOS, visionOS
    /// and watchOS.
    public static var networkReconnected: RefreshTrigger {
      var trigger = RefreshTrigger { _, refetch in
        let (readings, continuation) = AsyncStream.makeStream(of: Bool.self)
        let monitor = NWPathMonitor()
        monitor.pathUpdateHandler = { path in
          continuation.yield(path.status == .satisfied)
        }
        monitor.start(queue: DispatchQueue(label: "Loadables.RefreshTrigger.networkReconnected"))
        defer { monitor.cancel() }
        var detector = ReconnectionDetector()
        // An `AsyncStream` ends its iteration when the task is cancelled: when the entry's
        // last observer goes.
        for await isSatisfied in readings where detector.update(isSatisfied: isSatisfied) {
          refetch()
        }
      }
      trigger.name = "network reconnected"
      return trigger
    }
  }
#endif

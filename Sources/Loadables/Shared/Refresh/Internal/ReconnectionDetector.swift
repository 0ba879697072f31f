/// Tells, from a sequence of "is the network usable" readings, when connectivity comes back.
///
/// The pure part of ``RefreshTrigger/networkReconnected``: the Apple glue feeds it whether
/// each path `NWPathMonitor` reports is `.satisfied`; this type decides, so the decision is
/// tested on every platform.
///
/// | readings so far | `update` returns |
/// |---|---|
/// | the first reading, whatever it is | `false`: the state the monitor starts in is not a change |
/// | not satisfied, then satisfied | `true`: connectivity came back |
/// | satisfied, then satisfied again (another interface, a new address) | `false` |
/// | satisfied, then not satisfied | `false`: going offline refetches nothing |
struct ReconnectionDetector: Sendable {
  /// The last reading; `nil` before the first.
  private var wasSatisfied: Bool?

  init() {}

  /// Records a reading.
  ///
  /// - Parameter isSatisfied: Whether the path now allows traffic.
  /// - Returns: Whether this reading is a transition from not satisfied to satisfied.
  mutating func update(isSatisfied: Bool) -> Bool {
    defer { wasSatisfied = isSatisfied }
    return isSatisfied && wasSatisfied == false
  }
}

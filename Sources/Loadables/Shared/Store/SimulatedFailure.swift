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

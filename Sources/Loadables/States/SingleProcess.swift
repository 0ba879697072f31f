public import Foundation

/// The identity of one run of a job that has a single kind.
///
/// Every `SingleProcess()` is distinct, so a state can tell one run from the next:
/// `.finished(a) != .finished(b)` for two runs `a` and `b`.
public struct SingleProcess: Hashable, Sendable {
  /// The identifier of this run.
  public let id: String

  /// When this run was created.
  public let initializedAt: Date

  /// Creates a new, distinct run.
  ///
  /// - Parameters:
  ///   - id: The identifier; a new UUID by default.
  ///   - initializedAt: The creation date; now by default.
  public init(id: String = UUID().uuidString, initializedAt: Date = Date()) {
    self.id = id
    self.initializedAt = initializedAt
  }
}

extension SingleProcess: CustomDebugStringConvertible {
  /// The run's identifier.
  public var debugDescription: String { id }
}

public import Foundation

/// What a backend keeps and drops: the store passes its own with every call.
///
/// ```swift
/// let rules = PersistenceRules(version: "42", maxAge: .seconds(7 * 86_400), byteBudget: 10 << 20)
/// ```
public struct PersistenceRules: Equatable, Sendable {
  /// The current version. A record saved under another is dropped.
  public var version: String
  /// The oldest a record may be (from its `savedAt`) to be returned; `nil` keeps any age.
  public var maxAge: Duration?
  /// The most bytes the backend may hold (as records are encoded on disk); the least recently
  /// used records are evicted beyond it. `nil` sets no limit.
  public var byteBudget: Int?

  /// Creates rules.
  ///
  /// - Parameters:
  ///   - version: The app's build or schema version.
  ///   - maxAge: The oldest a record may be to be returned; `nil` for any age.
  ///   - byteBudget: The most bytes to keep; `nil` for no limit.
  public init(version: String, maxAge: Duration? = nil, byteBudget: Int? = nil) {
    self.version = version
    self.maxAge = maxAge
    self.byteBudget = byteBudget
  }

  /// Whether a record saved at `savedAt` is older than ``maxAge`` at `now`.
  ///
  /// - Parameters:
  ///   - savedAt: The record's ``PersistedRecord/savedAt``.
  ///   - now: The current wall-clock time.
  /// - Returns: `true` when the record must be dropped.
  public func isExpired(savedAt: Date, now: Date) -> Bool {
    guard let maxAge else { return false }
    let (seconds, attoseconds) = maxAge.components
    let limit = Double(seconds) + Double(attoseconds) * 1e-18
    return now.timeIntervalSince(savedAt) > limit
  }
}

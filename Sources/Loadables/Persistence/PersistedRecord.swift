public import Foundation

/// One saved entry: its key, the encoded value, when it was fetched and under which version.
///
/// A backend stores bytes only: the store encodes the value (JSON or a property list) before
/// writing and decodes it after reading.
///
/// <!-- compile: context Persistence -->
/// ```swift
/// let record = PersistedRecord(
///   key: try PersistentKey(["posts", 42]), value: try JSONEncoder().encode(post),
///   savedAt: fetchedAt, version: "42")
/// ```
public struct PersistedRecord: Equatable, Sendable {
  /// The key's stable identity.
  public var key: PersistentKey
  /// The encoded value.
  public var value: Data
  /// The wall-clock time the value was fetched (not the time it was written).
  public var savedAt: Date
  /// The app's version (build or schema) that wrote the record.
  public var version: String

  /// Creates a record.
  ///
  /// - Parameters:
  ///   - key: The key's stable identity.
  ///   - value: The encoded value.
  ///   - savedAt: The wall-clock time the value was fetched.
  ///   - version: The app's version that writes the record.
  public init(key: PersistentKey, value: Data, savedAt: Date, version: String) {
    self.key = key
    self.value = value
    self.savedAt = savedAt
    self.version = version
  }
}

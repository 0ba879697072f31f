import Foundation

/// One saved entry: its key, the encoded value, when it was fetched and under which version.
///
/// A backend stores bytes only: the store encodes the value (JSON or a property list) before
/// writing and decodes it after reading.
///
/// ```swift
/// let record = PersistedRecord(
///   key: try PersistentKey(["posts", 42]), value: try JSONEncoder().encode(post),
///   savedAt: fetchedAt, version: "42")
/// ```
struct PersistedRecord: Equatable, Sendable {
  /// The key's stable identity.
  var key: PersistentKey
  /// The encoded value.
  var value: Data
  /// The wall-clock time the value was fetched (not the time it was written).
  var savedAt: Date
  /// The app's version (build or schema) that wrote the record.
  var version: String
}

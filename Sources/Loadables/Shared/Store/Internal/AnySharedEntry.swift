import Foundation

/// What a store does with an entry whatever its value type.
@MainActor
protocol AnySharedEntry: AnyObject {
  var key: LoadKey { get }
  /// The key the store holds the entry under: its key, or its key tagged with its value
  /// type for an entry kept apart after a ``LoadKeyTypeMismatch``.
  var registryKey: LoadKey { get }
  /// The entry's value type, to name it in a ``LoadKeyTypeMismatch``.
  var valueType: Any.Type { get }
  var lastUse: UInt64 { get set }
  var unobservedSince: Duration? { get }
  var isObserved: Bool { get }
  var hasBoundObservers: Bool { get }
  var isFetching: Bool { get }
  func pruneObservers()
  func invalidate(_ cause: InvalidationCause)
  func wasDropped()
  /// When the value shown was fetched (restored: fetched in an earlier launch).
  var fetchedAt: Date? { get }
  /// Commits edit `id`; with `saving` `false`, the committed value is not saved for it (a
  /// committed edit laid again over a restored value, see `CommittedEdits.swift`).
  func commitEdit(_ id: UInt64, saving: Bool)
  func rollBackEdit(_ id: UInt64, error: (any Error)?)
  /// Lays `change` over the entry through `edit` when its value is a `V`; `nil` when not.
  func update<V>(
    as type: V.Type, in edit: inout SharedEdit, _ change: @escaping (inout V) -> Void
  ) -> SharedEdit.UpdateResult?
}

/// A reload that brings back what is already on screen writes nothing.
///
/// When a load that did not show a spinner (a silent reload, a refresh) ends with a state
/// equal to the one on screen, the engine does not write it: the state's observers (a
/// SwiftUI view, an `@Observable` model's readers, the ``StateStream``) are not told, so a
/// feed polled every minute re-renders nothing while nothing changes. The status beside the
/// state (`isRunning`, `refreshError`, …) still changes as it does for any load, and a shared
/// entry still records the fetch (its time, its freshness, its saved record).
///
/// Equality is the state's own `==`, so only states whose value is `Equatable` are compared;
/// any other state is written as before.
extension EngineState {
  /// Whether `self` equals `current`, for a state type that is `Equatable`; `false` for any
  /// other.
  @inlinable
  func isUnchanged(from current: Self) -> Bool {
    statesAreEqual(self, current)
  }
}

/// Whether `lhs` equals `rhs`, for a type that is `Equatable` (looked up at run time, as a
/// state's value type is generic); `false` for any other type.
///
/// Called only where a write may be skipped: at the end of a load that showed no spinner.
/// Inlinable, so that in the caller's module, where the state's type is known, the casts
/// fold away and the state's own `==` is called directly.
@inlinable
func statesAreEqual<T>(_ lhs: T, _ rhs: T) -> Bool {
  // A cast of the type rather than of a value: where `T` is known (specialised), it folds.
  guard let equatable = T.self as? any Equatable.Type else { return false }
  return withUnsafePointer(to: lhs) { lhs in
    withUnsafePointer(to: rhs) { rhs in
      equatable.areEqual(UnsafeRawPointer(lhs), UnsafeRawPointer(rhs))
    }
  }
}

extension Equatable {
  /// Whether the two values of this type at `lhs` and `rhs` are equal.
  @inlinable
  static func areEqual(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
    lhs.assumingMemoryBound(to: Self.self).pointee == rhs.assumingMemoryBound(to: Self.self).pointee
  }
}

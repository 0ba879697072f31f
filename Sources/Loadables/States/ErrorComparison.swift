/// Whether two errors are equal: same dynamic type and, when that type is `Equatable`, equal
/// values. Shared by the `Equatable` conformances of ``LoadableState`` and ``ProcessState``,
/// whose inlinable `==` calls it only when both states hold an error.
@usableFromInline
func errorsAreEqual(_ lhs: any Error, _ rhs: any Error) -> Bool {
  guard type(of: lhs) == type(of: rhs) else { return false }
  // Cast through `Any`: the compiler assumes `any Error` always casts to `any Equatable`
  // (thinking of NSError bridging) and warns, though at run time the cast fails for
  // errors that are not `Equatable`.
  guard let lhs = (lhs as Any) as? any Equatable else { return true }
  return lhs.isEqual(toAny: rhs)
}

/// Hashes an error consistently with ``errorsAreEqual(_:_:)``: its type, and its value when the
/// type is `Hashable`.
func hashError(_ error: any Error, into hasher: inout Hasher) {
  hasher.combine(ObjectIdentifier(type(of: error)))
  if let error = (error as Any) as? any Hashable {
    hasher.combine(AnyHashable(error))
  }
}

extension Equatable {
  fileprivate func isEqual(toAny other: Any) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}

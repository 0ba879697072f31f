public import Loadables

// The inspector's 0.3 spellings that 0.4 replaced, kept for this minor version so that code
// written against 0.3 still compiles (with a warning naming the replacement) and behaves the
// same.

extension StoreInspector {
  /// Refreshes the entry of `key` whatever its freshness.
  ///
  /// - Parameter key: The entry's key.
  @available(*, deprecated, renamed: "refresh(_:)")
  public func refetch(_ key: LoadKey) { refresh(key) }
}

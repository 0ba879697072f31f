// The 0.3 spellings of the loader objects and shared entries that 0.4 replaced, kept for this
// minor version so that code written against 0.3 still compiles (with a warning naming the
// replacement) and behaves the same.

// MARK: - Starting without waiting: `start` in every form

extension Loader {
  /// Starts a load, showing `.loading`, and returns at once.
  ///
  /// - Returns: The task running the load.
  @available(*, deprecated, renamed: "start()")
  @discardableResult
  public func startLoad() -> Task<Void, Never> {
    start(silently: false)
  }

  /// Starts a load and returns at once.
  ///
  /// - Parameter silently: When `true`, the old state stays until the new one arrives.
  /// - Returns: The task running the load.
  @available(*, deprecated, renamed: "start(silently:)")
  @discardableResult
  public func startLoad(silently: Bool) -> Task<Void, Never> {
    start(silently: silently)
  }
}

/// A state that pages: what lets a ``SharedEntry`` over a ``PagedState`` say whether it is
/// refreshing. An implementation detail of ``LoaderStore``; ``PagedState`` is its one
/// conformance.
public protocol _PagedEntryState {
  /// Whether a load that is `running` refreshes a loaded list, rather than loading it first
  /// or loading its next page.
  func _isRefreshing(running: Bool) -> Bool
}

extension PagedState: _PagedEntryState {
  /// Whether a load that is `running` refreshes this loaded list: the list is loaded and no
  /// next or previous page loads. An implementation detail of ``LoaderStore``.
  ///
  /// - Parameter running: Whether a load of the list runs.
  /// - Returns: Whether that load is a refresh.
  public func _isRefreshing(running: Bool) -> Bool {
    running && list.isLoaded && !nextPage.isLoading && !previousPage.isLoading
  }
}

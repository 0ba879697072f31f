// What only a paged list's handle has.

extension LoadHandle where State: _PagedEntryState {
  /// Whether a refresh is reloading a loaded list, which stays on screen while it runs;
  /// `false` during a first load (``PagedState/list`` is `.loading`) and while a next or
  /// previous page loads (``PagedState/nextPage`` or ``PagedState/previousPage`` is
  /// ``NextPageState/loading``). Observable.
  ///
  /// <!-- compile: context PagingView -->
  /// ```swift
  /// if $feed.isRefreshing { ProgressView() }  // the list stays below
  /// ```
  @MainActor public var isRefreshing: Bool {
    control.controlState._isRefreshing(running: control.controlIsRunning)
  }
}

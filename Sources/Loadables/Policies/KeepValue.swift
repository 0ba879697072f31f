extension LoadPolicy {
  /// Keeps a loaded value on screen when the load fails, and shows the error beside it.
  ///
  /// A refresh of a list that is already on screen should not replace the list with an
  /// error. Under this policy, when the load fails while the state holds (or, before the
  /// load's spinner, held) `.loaded(value)`, the state keeps — or goes back to — that value,
  /// and the error is shown beside it as `refreshError` (`$feed.refreshError`,
  /// `handle(\.feed).refreshError`, `loader.refreshError`), observable like `progress`. The next
  /// successful load, `reset()` or an assignment clears it. When there is no value to keep
  /// (the first load failed), the failure is written as usual: `.error(error)`.
  ///
  /// <!-- compile: context ModelView -->
  /// ```swift
  /// .refreshable {
  ///   await $feed.load(silently: true, policy: .keepValueOnFailure()) {
  ///     try await api.feed()
  ///   }
  /// }
  /// // a failed refresh: feed stays .loaded(posts), $feed.refreshError is the error
  /// ```
  ///
  /// Where it stands in a chain does not matter: it decides what the *load's* failure
  /// writes, after every other policy has given up (a retry's last attempt, a timeout).
  /// Cancellation, `CancelLoadable` and `ResetLoadable` behave as for any load. A process
  /// (`ProcessState`) has no value to keep, so there the policy changes nothing, and a paged
  /// list keeps its pages without it. What each form keeps:
  /// <doc:GettingStarted#What-a-failed-refresh-keeps>.
  ///
  /// - Returns: A policy whose load keeps a loaded value when it fails.
  public static func keepValueOnFailure() -> LoadPolicy {
    LoadPolicy(steps: [], keepsValueOnFailure: true)
  }

  /// This policy, and a failure of its load keeps a loaded value on screen; see
  /// ``keepValueOnFailure()-type.method``.
  ///
  /// - Returns: The policy, keeping a loaded value when the load fails.
  public func keepValueOnFailure() -> LoadPolicy {
    then(.keepValueOnFailure())
  }
}

// Prefetching an entry, and the priority its fetches wait at in a `ConcurrencyLimiter`.
//
// An entry's fetch runs at the `LoadPriority` of the call that started it: a prefetch's, or
// `LoadPriority.current` of a load, refresh, invalidation or observer. A fetch started below
// the highest priority gets a priority scope of its own, kept in `fetchPriority`; a load
// that joins it raises that scope to its own priority, which moves the fetch's waits up
// their limiters' lines. A fetch started at the highest priority needs no scope: nothing can
// raise it.

extension SharedEntry {
  /// Fetches the entry ahead of need, at a low priority, unless its value is recent enough
  /// or a fetch already runs.
  ///
  /// Call it for what the user is likely to open next: the rows about to scroll into view,
  /// the detail behind a row under the user's finger. When a screen then loads the entry,
  /// the value is there, or the prefetch is under way and the screen joins it.
  ///
  /// ```swift
  /// let post = store.loader(for: ["posts", id], staleTime: .seconds(60)) { try await api.post(id) }
  /// post.prefetch(ifOlderThan: .seconds(30))
  /// // Later, on the detail screen: joins the prefetch, or returns its fresh value.
  /// await post.load()
  /// ```
  ///
  /// | the entry | a prefetch |
  /// |---|---|
  /// | a fetch runs | does nothing |
  /// | its value was fetched less than `ifOlderThan` ago | does nothing |
  /// | its value is older, was invalidated, or it shows none | fetches |
  ///
  /// Age counts from what the server last said: an optimistic edit does not make a value
  /// recent, so an entry fetched long ago and edited since is prefetched.
  ///
  /// The fetch is silent when the entry holds a value: the value stays on screen until the
  /// new one lands. An entry with no value shows `.loading` (so a screen that opens it while
  /// the prefetch runs shows a spinner, not an empty state). It runs under the entry's
  /// policy, and its result is stored for every observer, as any fetch's.
  ///
  /// The fetch waits in any ``ConcurrencyLimiter`` of the entry's policy at `priority`: behind
  /// the loads the user is waiting for. A screen that loads the entry (``load()``,
  /// ``load(silently:)``, ``value(silently:)``) while the prefetch waits for a permit raises
  /// that wait to the screen's ``LoadPriority/current`` (``LoadPriority/userInitiated`` unless
  /// a scope says otherwise) and joins the fetch: it waits as its own fetch would have, at the
  /// end of its priority's line, never behind the prefetch's place. A ``refresh()`` supersedes
  /// the prefetch instead, as it supersedes any fetch.
  ///
  /// - Parameters:
  ///   - age: How old the value may be before it is fetched again; `nil` (the
  ///     default) uses the entry's stale time, so the entry is fetched when it is stale.
  ///     Zero fetches whatever the age.
  ///   - priority: The priority the fetch waits at in a limiter; ``LoadPriority/prefetch`` by
  ///     default.
  /// - Returns: Whether a fetch started.
  @discardableResult
  public func prefetch(
    ifOlderThan age: Duration? = nil, priority: LoadPriority = .prefetch
  ) -> Bool {
    guard !isFetching else { return false }
    let facts = book.facts
    // The entry's own notion of age (`isStale`), measured against `age` instead.
    if facts.showsValue, !facts.invalidated, let updatedAt = facts.updatedAt,
      now - updatedAt < (age ?? facts.staleTime)
    {
      return false
    }
    withLoadPriority(priority) { perform(book.refresh()) }
    return true
  }

  /// Runs `start`, which starts the entry's fetch, at ``LoadPriority/current``: below the
  /// highest priority, inside a scope of the fetch's own (its task inherits it), kept in
  /// ``fetchPriority`` for a joining load to raise.
  func startingFetchAtCurrentPriority(_ start: () -> Void) {
    guard let scope = LoadPriority.scope, case let priority = scope.priority,
      priority < .userInitiated
    else {
      fetchPriority = nil
      start()
      return
    }
    let own = LoadPriorityScope(priority)
    fetchPriority = own
    LoadPriority.$scope.withValue(own, operation: start)
  }

  /// A load joins the running fetch: the fetch's waits move up to the load's priority.
  func raiseFetchPriority() {
    guard let fetchPriority else { return }
    fetchPriority.raise(to: LoadPriority.current)
  }
}

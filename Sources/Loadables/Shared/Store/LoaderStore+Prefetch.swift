extension LoaderStore {
  /// Makes the entry for `key` if needed, as
  /// ``loader(for:staleTime:policy:waitsForNetwork:refreshing:persisted:fetch:)`` does, and
  /// prefetches it (``SharedEntry/prefetch(ifOlderThan:priority:)``): fetches it at a low
  /// priority unless a fetch runs or its value is recent enough.
  ///
  /// <!-- compile: context Shared -->
  /// ```swift
  /// // As a row scrolls into view, warm its detail screen's entry:
  /// store.prefetch(for: ["posts", id], staleTime: .seconds(60), policy: .limit(downloads),
  ///                ifOlderThan: .seconds(30)) {
  ///   try await api.post(id)
  /// }
  /// ```
  ///
  /// The settings are those of `loader(for:...)`, and are used only when the entry is made.
  /// A prefetched entry nobody observes leaves the store after ``graceTime``, as any entry.
  ///
  /// - Parameters:
  ///   - key: The entry's key.
  ///   - staleTime: How long a value stays fresh, when the entry is made here; `nil` for the
  ///     store's ``defaults``.
  ///   - policy: The policy every fetch runs under, when the entry is made here. A
  ///     ``LoadPolicy/limit(_:)-type.method`` in it serves the prefetch at `priority`.
  ///   - waitsForNetwork: Whether the fetches wait for the store's ``connectivity``.
  ///   - triggers: What makes the entry refresh while observed.
  ///   - persisted: Whether the entry is saved between launches.
  ///   - age: How old the value may be before it is fetched again; `nil` (the
  ///     default) uses the entry's stale time.
  ///   - priority: The priority the fetch waits at in a limiter; ``LoadPriority/prefetch`` by
  ///     default.
  ///   - fetch: Produces the value.
  /// - Returns: The shared entry.
  @discardableResult
  public func prefetch<Value: Sendable>(
    for key: LoadKey,
    staleTime: Duration? = nil,
    policy: LoadPolicy<Value>? = nil,
    waitsForNetwork: Bool? = nil,
    refreshing triggers: [RefreshTrigger]? = nil,
    persisted: Bool? = nil,
    ifOlderThan age: Duration? = nil,
    priority: LoadPriority = .prefetch,
    fetch: @escaping @MainActor () async throws -> Value
  ) -> SharedLoader<Value> {
    let entry = loader(
      for: key, staleTime: staleTime, policy: policy, waitsForNetwork: waitsForNetwork,
      refreshing: triggers, persisted: persisted, fetch: fetch)
    entry.prefetch(ifOlderThan: age, priority: priority)
    return entry
  }

  /// Makes the entry of `definition` if needed (see ``loader(for:)``) and prefetches it
  /// (``SharedEntry/prefetch(ifOlderThan:priority:)``): fetches it at a low priority unless
  /// a fetch runs or its value is recent enough.
  ///
  /// <!-- compile: context Shared -->
  /// ```swift
  /// // As a row scrolls into view, warm its detail screen's entry:
  /// store.prefetch(PostQuery(id: 42), ifOlderThan: .seconds(30))
  /// ```
  ///
  /// - Parameters:
  ///   - definition: What the entry is.
  ///   - age: How old the value may be before it is fetched again; `nil` (the default)
  ///     uses the entry's stale time.
  ///   - priority: The priority the fetch waits at in a limiter; ``LoadPriority/prefetch`` by
  ///     default.
  /// - Returns: The entry.
  @discardableResult
  public func prefetch<Definition: LoadDefinition>(
    _ definition: Definition,
    ifOlderThan age: Duration? = nil,
    priority: LoadPriority = .prefetch
  ) -> SharedLoader<Definition.Value> {
    let entry = loader(for: definition)
    entry.prefetch(ifOlderThan: age, priority: priority)
    return entry
  }
}

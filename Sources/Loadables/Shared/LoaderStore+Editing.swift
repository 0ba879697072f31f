// The edit transaction: optimistic changes laid over entries while a job runs, committed
// when it succeeds and rolled back when it fails.

extension LoaderStore {
  /// Lays optimistic changes over entries at once, runs `job`, and on failure takes each
  /// change back.
  ///
  /// ```swift
  /// await $saving.run {
  ///   try await store.edit(invalidating: [["posts"]]) { edit in
  ///     edit.update(post) { $0.liked = true }
  ///   } perform: {
  ///     try await api.like(postID)
  ///   }
  /// }
  /// ```
  ///
  /// An entry shows its last fetched state (its *base*) with the pending edits laid over it,
  /// in order: a `set` shows its value, an `update` runs its change again over whatever the
  /// base is now. What a failure restores, entry by entry:
  ///
  /// | what else touched the entry | the entry after `job` throws |
  /// |---|---|
  /// | nothing else | what it showed before the edit |
  /// | a later edit, still running | that edit laid over the base (it stays on screen) |
  /// | a later edit that succeeded | that edit laid over the base |
  /// | an earlier edit, still running | that earlier edit laid over the base |
  /// | an earlier edit that succeeded | that earlier edit laid over the base |
  /// | an earlier edit that then failed too | what it showed before both |
  /// | a fetch that finished | the fetched state, with the other pending edits laid over it |
  ///
  /// Each edit is kept as a value, not as the whole state it wrote: a later `update` runs over
  /// the base with the earlier edits laid over it, so when the earlier edit fails, the later
  /// `update` runs again without it; the earlier change leaves the screen and the later one
  /// stays.
  ///
  /// A fetch that lands while the job runs becomes the new base, and the edit stays laid
  /// over it until the job ends: a background refetch never makes a pending edit vanish. A
  /// committed edit stays laid over the base until a fetch that started after the commit
  /// lands (that value carries it). A fetch that was running when the edit wrote is
  /// cancelled, so its older answer never lands; after success the keys in `invalidating`
  /// are invalidated, so observed entries refetch the server's truth. A cancelled `job`
  /// rolls back like a failed one; ``SharedEntry/reset()`` discards an entry's edits.
  ///
  /// - Parameters:
  ///   - keys: Prefixes to invalidate once `job` succeeds.
  ///   - changes: Writes the optimistic values through ``SharedEdit``.
  ///   - job: The work that makes the change real, such as a request to the server.
  /// - Returns: What `job` returned.
  /// - Throws: What `job` threw, after rolling back.
  @discardableResult
  public func edit<Result>(
    invalidating keys: [LoadKey] = [],
    _ changes: (inout SharedEdit) -> Void,
    perform job: () async throws -> Result
  ) async throws -> Result {
    nextEditID += 1
    var edit = SharedEdit(id: nextEditID)
    changes(&edit)
    let touched = edit.entries
    do {
      let result = try await job()
      for entry in touched { entry.commitEdit(edit.id) }
      for key in keys { invalidate(key) }
      return result
    } catch {
      for entry in touched { entry.rollBackEdit(edit.id) }
      throw error
    }
  }
}

/// The optimistic writes of one ``LoaderStore/edit(invalidating:_:perform:)``.
@MainActor
public struct SharedEdit {
  let id: UInt64
  private(set) var entries: [any AnySharedEntry] = []
  /// The outbox's edits: when set, only this entry is written (laying a pending edit over an
  /// entry made later), and `update`s are kept over an entry that shows no value yet.
  private var only: (any AnySharedEntry)?
  private var overAbsent = false

  init(id: UInt64) { self.id = id }

  /// An outbox edit's writes: `update`s are kept over an entry with no value yet, and when
  /// `only` is given, every other entry is left alone.
  init(outboxEdit id: UInt64, only: (any AnySharedEntry)? = nil) {
    self.id = id
    self.only = only
    self.overAbsent = true
  }

  /// Shows `value` in `entry` at once, whatever it fetches until the edit ends.
  ///
  /// - Parameters:
  ///   - entry: The entry to write.
  ///   - value: The optimistic value.
  public mutating func set<Value: Sendable, State: SharedEntryState & Sendable>(
    _ entry: SharedEntry<Value, State>, to value: Value
  ) {
    apply(.set(value), to: entry)
  }

  /// What ``update(_:_:)`` did to an entry.
  public enum UpdateResult: Equatable, Sendable {
    /// The entry held a value: the change shows now, and runs again over each value the
    /// entry fetches until the edit ends.
    case updated
    /// The entry held no value: nothing changed, and the edit leaves the entry alone (its
    /// rollback or commit does nothing there).
    case noValue
    /// The entry held no value yet, and the edit is an outbox edit: the change is kept, and
    /// runs over the value the entry fetches or restores later.
    case keptForLaterValue
  }

  /// Changes the loaded value of `entry` in place; changes nothing when it holds no value,
  /// and says so in its result.
  ///
  /// The change is kept with the edit and runs again over each value the entry fetches
  /// until the edit ends, so it stays on screen over a newer value.
  ///
  /// ```swift
  /// try await store.edit { edit in
  ///   if edit.update(post) { $0.title = title } == .noValue {
  ///     edit.set(post, to: Post(id: id, title: title))  // nothing loaded yet: show it anyway
  ///   }
  /// } perform: { try await api.rename(id, to: title) }
  /// ```
  ///
  /// - Parameters:
  ///   - entry: The entry to write.
  ///   - change: Edits a copy of the value.
  /// - Returns: Whether the change shows now (``UpdateResult/updated``), or the entry held no
  ///   value to change.
  @discardableResult
  public mutating func update<Value: Sendable, State: SharedEntryState & Sendable>(
    _ entry: SharedEntry<Value, State>, _ change: @escaping (inout Value) -> Void
  ) -> UpdateResult {
    let held = entry.book.showsValue
    guard apply(.update(change), to: entry) else { return .noValue }
    return held ? .updated : .keptForLaterValue
  }

  /// Lays `operation` over `entry`; returns whether the entry took it.
  @discardableResult
  private mutating func apply<Value: Sendable, State: SharedEntryState & Sendable>(
    _ operation: EditOperation<Value>, to entry: SharedEntry<Value, State>
  ) -> Bool {
    if let only, only !== entry { return false }
    guard entry.applyEdit(id, operation, overAbsent: overAbsent) else { return false }
    if !entries.contains(where: { $0 === entry }) { entries.append(entry) }
    return true
  }

  /// Changes the loaded value of every entry under `prefix` whose value is a `Value`.
  ///
  /// - Parameters:
  ///   - prefix: A key or family of keys.
  ///   - store: The store holding the entries.
  ///   - type: The value type of the entries to change.
  ///   - change: Edits a copy of each value.
  /// - Returns: How many entries show the change now (entries under `prefix` holding no
  ///   value are left alone, and not counted).
  @discardableResult
  public mutating func update<Value: Sendable>(
    matching prefix: LoadKey, in store: LoaderStore, as type: Value.Type,
    _ change: @escaping (inout Value) -> Void
  ) -> Int {
    // An outbox edit laid over one entry just made looks at that entry only.
    if let only {
      guard only.key.hasPrefix(prefix), let entry = only as? SharedLoader<Value> else { return 0 }
      return update(entry, change) == .updated ? 1 : 0
    }
    var updated = 0
    for held in store.entries.values where held.key.hasPrefix(prefix) {
      guard let entry = held as? SharedLoader<Value> else { continue }
      if update(entry, change) == .updated { updated += 1 }
    }
    return updated
  }
}

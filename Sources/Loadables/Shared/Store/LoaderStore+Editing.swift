// The edit transaction: optimistic changes laid over entries while a job runs, committed
// when it succeeds and rolled back when it fails.

extension LoaderStore {
  /// Lays optimistic changes over entries at once, runs `job`, and on failure takes each
  /// change back.
  ///
  /// <!-- compile: context Shared -->
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
  /// over it until the job ends: a background refresh never makes a pending edit vanish. A
  /// committed edit stays laid over the base until a fetch that started after the commit
  /// lands (that value carries it). A fetch that was running when the edit changed what an
  /// entry shows is cancelled, so its older answer never lands (an `update` of an entry with
  /// no value changes nothing, and leaves its load running); after success the keys in
  /// `invalidating` are invalidated, so observed entries refresh the server's truth. A
  /// cancelled `job` rolls back like a failed one; ``SharedEntry/reset()`` discards an
  /// entry's edits.
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
      for entry in touched { entry.commitEdit(edit.id, saving: true) }
      for key in keys { invalidate(key, .edit(edit.id)) }
      return result
    } catch {
      for entry in touched { entry.rollBackEdit(edit.id, error: error) }
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
  /// <!-- compile: context Shared -->
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

  /// Changes the items of `entry`'s loaded list that `predicate` picks, in place, leaving
  /// the others as they are.
  ///
  /// Works on any entry whose value is an array: a paged entry
  /// (``SharedPagedLoader``) or a ``SharedLoader`` of `[Item]`. Like ``update(_:_:)``, the
  /// change is kept with the edit and runs again over each list the entry fetches until the
  /// edit ends — an item that arrives in a later page while the edit is pending shows the
  /// change too — and a failed job takes it back exactly. A next page in flight is not
  /// cancelled: it lands under the change.
  ///
  /// <!-- compile: context Shared -->
  /// ```swift
  /// try await store.edit { edit in
  ///   edit.update(items: feed, where: { $0.id == id }) { $0.title = title }
  /// } perform: { try await api.rename(id, to: title) }
  /// ```
  ///
  /// In a paged entry the change shows in ``PagedState/items`` and in the items of
  /// ``PagedState/pages`` alike.
  ///
  /// - Parameters:
  ///   - entry: The entry whose items to change.
  ///   - predicate: Picks the items to change.
  ///   - change: Edits a copy of each picked item.
  /// - Returns: Whether the change shows now (``UpdateResult/updated``, even when no item is
  ///   picked yet), or the entry held no list to change.
  @discardableResult
  public mutating func update<Item: Sendable, State: SharedEntryState & Sendable>(
    items entry: SharedEntry<[Item], State>,
    where predicate: @escaping (Item) -> Bool,
    _ change: @escaping (inout Item) -> Void
  ) -> UpdateResult {
    update(entry) { items in
      for index in items.indices where predicate(items[index]) { change(&items[index]) }
    }
  }

  /// Changes the loaded value of every entry under `prefix` whose value is a `Value`.
  ///
  /// Any entry whose value is a `Value` is reached: a ``SharedLoader`` of `Value`, and, with
  /// `as: [Item].self`, a paged entry (``SharedPagedLoader``) of `Item`s, whose whole list
  /// `change` edits. To change one item inside lists and pages, use
  /// ``update(matching:in:as:where:_:)``.
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
    var updated = 0
    for held in entries(matching: prefix, in: store) {
      if held.update(as: type, in: &self, change) == .updated { updated += 1 }
    }
    return updated
  }

  /// Changes the `Item`s that `predicate` picks in every entry under `prefix`: inside the
  /// loaded pages of each paged entry of `Item`s, inside each entry holding an `[Item]`, and
  /// the value of each entry holding one `Item`.
  ///
  /// ```swift
  /// // Under ["posts"]: the post's own entry, and the post in every feed page that holds it.
  /// edit.update(matching: ["posts"], in: store, as: Post.self, where: { $0.id == id }) {
  ///   $0.title = title
  /// }
  /// ```
  ///
  /// Each change is laid over its entry as ``update(items:where:_:)`` and ``update(_:_:)``
  /// lay theirs: it runs again over what the entry fetches until the edit ends, rolls back
  /// exactly, and never cancels a next page in flight.
  ///
  /// - Parameters:
  ///   - prefix: A key or family of keys.
  ///   - store: The store holding the entries.
  ///   - type: The item type.
  ///   - predicate: Picks the items to change.
  ///   - change: Edits a copy of each picked item.
  /// - Returns: How many entries show the change now (entries under `prefix` holding no
  ///   value are left alone, and not counted).
  @discardableResult
  public mutating func update<Item: Sendable>(
    matching prefix: LoadKey, in store: LoaderStore, as type: Item.Type,
    where predicate: @escaping (Item) -> Bool,
    _ change: @escaping (inout Item) -> Void
  ) -> Int {
    var updated = 0
    for held in entries(matching: prefix, in: store) {
      let result =
        held.update(as: [Item].self, in: &self) { items in
          for index in items.indices where predicate(items[index]) { change(&items[index]) }
        }
        ?? held.update(as: type, in: &self) { item in
          if predicate(item) { change(&item) }
        }
      if result == .updated { updated += 1 }
    }
    return updated
  }

  /// The entries under `prefix`; for an outbox edit laid over one entry just made, that
  /// entry only.
  private func entries(matching prefix: LoadKey, in store: LoaderStore) -> [any AnySharedEntry] {
    if let only { return only.key.hasPrefix(prefix) ? [only] : [] }
    return store.entries.values.filter { $0.key.hasPrefix(prefix) }
  }
}

extension SharedEntry {
  /// Lays `change` over this entry through `edit` when its value is a `V`; `nil` when it is
  /// not.
  func update<V>(
    as type: V.Type, in edit: inout SharedEdit, _ change: @escaping (inout V) -> Void
  ) -> SharedEdit.UpdateResult? {
    guard V.self == Value.self else { return nil }
    return edit.update(self) { value in
      // The same type, so both casts succeed; they only tell the compiler so.
      guard var same = value as? V else { return }
      change(&same)
      if let changed = same as? Value { value = changed }
    }
  }
}

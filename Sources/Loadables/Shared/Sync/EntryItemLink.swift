/// The entry's side of its link: the hooks ``SharedEntry`` calls, whatever the item type.
@MainActor
class EntryItemLinkBase<Value: Sendable, State: SharedEntryState & Sendable>
where State.Value == Value {
  /// The entry started a fetch (a paged list's first page or next page).
  func fetchStarted() {}
  /// The engine wrote `state` for `cause`: performs the write (items corrected first).
  func engineWrote(_ state: State, cause: WriteCause) {}
  /// Edit `id` laid `operation` over the entry, which showed `before`.
  func edited(_ id: UInt64, _ operation: EditOperation<Value>, before: Value?) {}
  /// Edit `id` ended.
  func editEnded(_ id: UInt64, committed: Bool) {}
}

/// The link of one entry to the sync of its item type.
@MainActor
final class EntryItemLink<
  Item: Identifiable & Equatable, Value: Sendable, State: SharedEntryState & Sendable
>: EntryItemLinkBase<Value, State>, ItemHolder where State.Value == Value {
  weak var entry: SharedEntry<Value, State>?
  unowned let sync: ItemSync<Item>
  let shape: ItemShape
  /// The stamp of the entry's latest fetch start.
  var fetchStamp: UInt64 = 0
  /// The stamp of the fetch whose value is the entry's base.
  var baseStamp: UInt64 = 0

  init(entry: SharedEntry<Value, State>, sync: ItemSync<Item>, shape: ItemShape) {
    self.entry = entry
    self.sync = sync
    self.shape = shape
    super.init()
    fetchStamp = sync.registry.nextStamp()
  }

  /// The items of `value`.
  func items(of value: Value?) -> [Item] {
    guard let value else { return [] }
    // `shape` was set from an exact type match (`Value` is `Item`, or `[Item]`), so these
    // casts are identities; a dynamic cast of an array would check every element.
    switch shape {
    case .single: return [unsafeBitCast(value, to: Item.self)]
    case .list: return unsafeBitCast(value, to: [Item].self)
    }
  }

  /// The value made of `items`: the first for a detail (`nil` when there is none).
  func value(of items: [Item]) -> Value? {
    switch shape {
    case .single: return items.first.map { unsafeBitCast($0, to: Value.self) }
    case .list: return unsafeBitCast(items, to: Value.self)
    }
  }

  /// An edit operation laying `change` over the entry's items.
  func operation(_ change: ItemChange<Item>) -> EditOperation<Value> {
    .update { [shape] value in
      var items: [Item]
      switch shape {
      case .single: items = [unsafeBitCast(value, to: Item.self)]
      case .list: items = unsafeBitCast(value, to: [Item].self)
      }
      guard change.apply(to: &items) else { return }
      switch shape {
      case .single: if let item = items.first { value = unsafeBitCast(item, to: Value.self) }
      case .list: value = unsafeBitCast(items, to: Value.self)
      }
    }
  }

  override func fetchStarted() {
    fetchStamp = sync.registry.nextStamp()
  }

  override func engineWrote(_ state: State, cause: WriteCause) {
    guard let entry else { return }
    var state = state
    switch cause {
    case .fetched, .nextPage:
      guard let value = state._value else { break }
      var fetched = items(of: value)
      if cause == .nextPage {
        // A next page brings its own items; the pages before it are as old as their
        // fetches, and must not be stamped with this one's start.
        var before = Set<Item.ID>()
        for item in items(of: entry.book.base._value) { before.insert(item.id) }
        fetched.removeAll { before.contains($0.id) }
      } else {
        baseStamp = fetchStamp
      }
      let corrections = sync.fetched(fetched, stamp: fetchStamp, by: self)
      if !corrections.isEmpty { state = patched(state, .replacing(corrections)) }
    case .restored:
      // A cancelled fetch brought back the state it replaced: as old as the base's fetch.
      let corrections = sync.book.newer(than: baseStamp, for: items(of: state._value))
      if !corrections.isEmpty { state = patched(state, .replacing(corrections)) }
    default:
      break
    }
    entry.perform(entry.book.engineWrote(state, cause: cause, at: entry.now))
    // After the write, so the entry holds what it fetched.
    if cause == .fetched || cause == .nextPage { sync.forgetIfDue(landed: self) }
  }

  /// `state` with `change` laid over its items.
  private func patched(_ state: State, _ change: ItemChange<Item>) -> State {
    guard case .update(let update) = operation(change) else { return state }
    return state._updatingValue { value in
      var value = value
      update(&value)
      return value
    }
  }

  override func edited(_ id: UInt64, _ operation: EditOperation<Value>, before: Value?) {
    guard let entry else { return }
    sync.dropDerived(id, on: self)
    let after = items(of: entry.book.shown._value)
    if shape == .single, case .update(let change) = operation, let item = items(of: before).first {
      guard after.first != item else { return }
      let running: (inout Item) -> Void = { item in
        // A detail: `Value` is `Item` (see `items(of:)`).
        var value = unsafeBitCast(item, to: Value.self)
        change(&value)
        item = unsafeBitCast(value, to: Item.self)
      }
      sync.edited(id, ids: [item.id], change: .running(item.id, running), by: self)
      return
    }
    // A list's edit, or a `set`: the items it changed, as they show now.
    var old: [Item.ID: Item] = [:]
    for item in items(of: before) { old[item.id] = item }
    var changes: [Item.ID: Item?] = [:]
    for item in after where old[item.id] != item { changes[item.id] = item }
    sync.edited(id, ids: Set(changes.keys), change: .replacing(changes), by: self)
  }

  override func editEnded(_ id: UInt64, committed: Bool) {
    sync.editEnded(id, committed: committed)
  }

  // MARK: ItemHolder

  func syncBase(_ changes: [Item.ID: Item?]) {
    guard let entry else { return }
    let base = entry.book.base
    guard let value = base._value else { return }
    var touched = items(of: value)
    guard ItemChange.replacing(changes).apply(to: &touched) else { return }
    guard let synced = self.value(of: touched) else {
      // A removed detail: reset, as if never fetched.
      entry.reset()
      return
    }
    // Written as a next page is: the committed value changes, its freshness does not, the
    // pending edits stay laid over it, and it is saved with the next fetch or commit.
    let state = base._updatingValue { _ in synced }
    entry.perform(entry.book.engineWrote(state, cause: .nextPage, at: entry.now))
  }

  func lay(_ change: ItemChange<Item>, editID: UInt64) -> UInt64? {
    guard let entry, let value = entry.book.shown._value else { return nil }
    // An entry the app edits itself in this edit shows the app's own change.
    for edit in entry.book.edits where edit.id == editID { return nil }
    let shown = items(of: value)
    var touched = shown
    guard change.apply(to: &touched), let store = entry.store else { return nil }
    let id = store.takeEditID()
    entry.perform(entry.book.applyEdit(id, operation(change), at: entry.now))
    return id
  }

  func endDerived(_ id: UInt64, committed: Bool) {
    guard let entry else { return }
    if committed {
      entry.perform(entry.book.commitEdit(id, at: entry.now))
    } else {
      entry.perform(entry.book.rollBackEdit(id, at: entry.now))
    }
  }

  func shownItems(_ ids: Set<Item.ID>) -> [Item] {
    items(of: entry?.book.shown._value).filter { ids.contains($0.id) }
  }

  var inFlightSince: UInt64? {
    guard let entry, entry.isFetching else { return nil }
    // A cancelled first-page fetch brings back the state it replaced, as old as
    // `baseStamp`; a cancelled next page, or a base with no value, brings back no items.
    if entry.isLoadingAddedPage || !entry.book.base._holdsValue { return fetchStamp }
    return Swift.min(baseStamp, fetchStamp)
  }

  func collectHeldIDs(into ids: inout Set<Item.ID>) {
    guard let entry else { return }
    for item in items(of: entry.book.base._value) { ids.insert(item.id) }
    for item in items(of: entry.book.shown._value) { ids.insert(item.id) }
  }
}

// The runner that keeps items in sync across a store's entries: it performs what the
// `ItemLedger` decides, through the entries' edit logs. See `LoaderStore+ItemSync.swift` for
// the public face and the rules.

/// The synced types of one store, and the tick that stamps item versions.
@MainActor
final class ItemSyncRegistry {
  weak var store: LoaderStore?
  /// The synced types, by the item type's identity.
  private(set) var syncs: [ObjectIdentifier: any ItemSyncing] = [:]
  /// The store's sync tick; see ``ItemLedger``.
  private var tick: UInt64 = 0

  init(store: LoaderStore) { self.store = store }

  /// The next stamp.
  func nextStamp() -> UInt64 {
    tick &+= 1
    return tick
  }

  /// The sync of `Item`, made on first use.
  func sync<Item: Identifiable & Equatable>(of _: Item.Type) -> ItemSync<Item> {
    let id = ObjectIdentifier(Item.self)
    if let existing = syncs[id] as? ItemSync<Item> { return existing }
    let sync = ItemSync<Item>(registry: self)
    syncs[id] = sync
    return sync
  }

  /// Links `entry` to the synced type its value is made of, if any: a value of the type (a
  /// detail) or an array of it (a list, a paged list's items).
  func attach<Value: Sendable, State: SharedEntryState & Sendable>(
    _ entry: SharedEntry<Value, State>
  ) {
    guard entry.itemLink == nil else { return }
    for sync in syncs.values where sync.attach(entry) { return }
  }
}

/// One synced type's sync, whatever the type.
@MainActor
protocol ItemSyncing: AnyObject {
  /// Links `entry` if its value is the item type or an array of it; returns whether it did.
  func attach<Value: Sendable, State: SharedEntryState & Sendable>(
    _ entry: SharedEntry<Value, State>
  ) -> Bool
}

/// The entries holding one synced type, and its ledger.
@MainActor
final class ItemSync<Item: Identifiable & Equatable>: ItemSyncing {
  unowned let registry: ItemSyncRegistry
  var ledger = ItemLedger<Item>()
  /// The linked entries, by the link's identity; a link whose entry is gone is skipped and
  /// pruned.
  private var links: [ObjectIdentifier: WeakItemHolder<Item>] = [:]
  /// The derived edits laid over other entries for each edit transaction still running, and
  /// the ids that edit changed (recorded in the ledger when it commits).
  private var derived: [UInt64: DerivedEdits] = [:]

  struct DerivedEdits {
    var targets: [(holder: any ItemHolder<Item>, id: UInt64)] = []
    var ids: Set<Item.ID> = []
    weak var source: (any ItemHolder<Item>)?
  }

  init(registry: ItemSyncRegistry) { self.registry = registry }

  func attach<Value: Sendable, State: SharedEntryState & Sendable>(
    _ entry: SharedEntry<Value, State>
  ) -> Bool {
    let shape: ItemShape
    if Value.self == Item.self {
      shape = .single
    } else if Value.self == [Item].self {
      shape = .list
    } else {
      return false
    }
    let link = EntryItemLink<Item, Value, State>(entry: entry, sync: self, shape: shape)
    entry.itemLink = link
    links[ObjectIdentifier(link)] = WeakItemHolder(link)
    return true
  }

  /// The live holders other than `except`; prunes the gone ones.
  func holders(except: AnyObject?) -> [any ItemHolder<Item>] {
    var alive: [any ItemHolder<Item>] = []
    var gone: [ObjectIdentifier] = []
    for (id, weak) in links {
      guard let holder = weak.holder else {
        gone.append(id)
        continue
      }
      if holder !== except { alive.append(holder) }
    }
    for id in gone { links[id] = nil }
    return alive
  }

  /// Forgets the versions no fetch in flight and no entry needs, when the ledger has grown
  /// past its budget (see ``ItemLedger``): the ledger decides, this gathers what it asks.
  /// `landed` is a holder whose fetch has just written its result: it counts as in flight no
  /// more, even if its slot has not ended yet.
  func forgetIfDue(landed: AnyObject? = nil) {
    guard ledger.isForgettingDue else { return }
    var oldest: UInt64?
    var held = Set<Item.ID>()
    for holder in holders(except: nil) {
      if holder !== landed, let since = holder.inFlightSince {
        oldest = Swift.min(oldest ?? since, since)
      }
      holder.collectHeldIDs(into: &held)
    }
    ledger.forget(inFlightSince: oldest, holding: held)
  }

  // MARK: - Fetches

  /// A fetch of `source`, started at `stamp`, brought `items`: records them, shows the newer
  /// ones in the other holders' committed values, and returns the corrections `source` shows
  /// instead of what it fetched.
  func fetched(_ items: [Item], stamp: UInt64, by source: AnyObject) -> [Item.ID: Item?] {
    let arrival = ledger.arrived(items, stamp: stamp)
    if !arrival.newer.isEmpty {
      let changes = arrival.newer.mapValues { Optional($0) }
      for holder in holders(except: source) { holder.syncBase(changes) }
    }
    return arrival.corrections
  }

  // MARK: - Edits

  /// Edit `editID` changed the items `ids` of `source`: lays `change` over every other
  /// holder of one of them, pending until the edit ends.
  func edited(
    _ editID: UInt64, ids: Set<Item.ID>, change: ItemChange<Item>, by source: any ItemHolder<Item>
  ) {
    guard !ids.isEmpty else { return }
    var record = derived[editID] ?? DerivedEdits()
    record.ids.formUnion(ids)
    if record.source == nil { record.source = source }
    for holder in holders(except: source) {
      guard let id = holder.lay(change, editID: editID) else { continue }
      record.targets.append((holder, id))
    }
    derived[editID] = record
  }

  /// The app edits `holder` itself in edit `editID`: a derived edit of that edit laid over it
  /// before goes (rolled back), so the change is not applied twice (an increment would be).
  func dropDerived(_ editID: UInt64, on holder: any ItemHolder<Item>) {
    guard var record = derived[editID] else { return }
    record.targets.removeAll { target in
      guard target.holder === holder else { return false }
      target.holder.endDerived(target.id, committed: false)
      return true
    }
    derived[editID] = record
  }

  /// Edit `editID` ended: its derived edits commit or roll back with it, and a committed
  /// edit's items become the latest known versions.
  func editEnded(_ editID: UInt64, committed: Bool) {
    guard let record = derived.removeValue(forKey: editID) else { return }
    for target in record.targets { target.holder.endDerived(target.id, committed: committed) }
    guard committed, let source = record.source else { return }
    let items = source.shownItems(record.ids)
    _ = ledger.arrived(items, stamp: registry.nextStamp())
    forgetIfDue()
  }

  // MARK: - Removal

  /// The app removed item `id`: lists drop it, details holding it are reset.
  func remove(_ id: Item.ID) {
    ledger.removed(id, stamp: registry.nextStamp())
    for holder in holders(except: nil) { holder.syncBase([id: nil]) }
    forgetIfDue()
  }
}

/// How an entry's value is made of items.
enum ItemShape {
  /// The value is one item (a detail).
  case single
  /// The value is an array of items (a list, a paged list's items).
  case list
}

/// A change laid over the items of an entry.
enum ItemChange<Item: Identifiable & Equatable> {
  /// Show these versions (`nil`: drop the item; a detail holding it is reset).
  case replacing([Item.ID: Item?])
  /// Run the edit's own change over the item with this id (a detail's `update`, laid over
  /// the same item in other entries, so it runs again over whatever they fetch).
  case running(Item.ID, (inout Item) -> Void)

  var ids: [Item.ID] {
    switch self {
    case .replacing(let changes): Array(changes.keys)
    case .running(let id, _): [id]
    }
  }

  /// `items` with the change laid over them.
  /// Returns whether any item changed.
  @discardableResult
  func apply(to items: inout [Item]) -> Bool {
    switch self {
    case .replacing(let changes):
      // One item, the common case (a detail's fetch): its id compared, no hashing per row.
      // A loop of its own on purpose: one loop choosing per row builds a doubly optional
      // generic item for every row, which made shared.sync.detail four times slower.
      if changes.count == 1, let (id, change) = changes.first {
        var changed = false
        var index = items.startIndex
        while index < items.endIndex {
          if items[index].id == id {
            if let item = change {
              if items[index] != item {
                items[index] = item
                changed = true
              }
            } else {
              items.remove(at: index)
              changed = true
              continue
            }
          }
          index += 1
        }
        return changed
      }
      var changed = false
      var index = items.startIndex
      while index < items.endIndex {
        if let change = changes[items[index].id] {
          if let item = change {
            if items[index] != item {
              items[index] = item
              changed = true
            }
          } else {
            items.remove(at: index)
            changed = true
            continue
          }
        }
        index += 1
      }
      return changed
    case .running(let id, let change):
      var changed = false
      for index in items.indices where items[index].id == id {
        let before = items[index]
        change(&items[index])
        if items[index] != before { changed = true }
      }
      return changed
    }
  }
}

/// An entry holding items of one synced type, seen from its ``ItemSync``.
@MainActor
protocol ItemHolder<Item>: AnyObject {
  associatedtype Item: Identifiable & Equatable
  /// Shows these versions (`nil`: removed) of the items the entry's committed value holds,
  /// as part of that value: its freshness and its pending edits stay as they are. A removed
  /// item leaves a list and resets a detail.
  func syncBase(_ changes: [Item.ID: Item?])
  /// Lays `change` over the entry as a derived edit if it shows an item it names, with a
  /// different value; returns the derived edit's id, or `nil` when nothing was laid.
  func lay(_ change: ItemChange<Item>, editID: UInt64) -> UInt64?
  /// Commits or rolls back derived edit `id`.
  func endDerived(_ id: UInt64, committed: Bool)
  /// The items with these ids the entry shows now.
  func shownItems(_ ids: Set<Item.ID>) -> [Item]
  /// The oldest stamp the entry's fetch in flight can bring, or bring back if cancelled;
  /// `nil` when none is in flight. See ``ItemLedger/forget(inFlightSince:holding:)``.
  var inFlightSince: UInt64? { get }
  /// Adds the ids of the items the entry holds (fetched, or shown) to `ids`.
  func collectHeldIDs(into ids: inout Set<Item.ID>)
}

/// A weak reference to a holder.
@MainActor
struct WeakItemHolder<Item: Identifiable & Equatable> {
  weak var holder: (any ItemHolder<Item>)?
  init(_ holder: any ItemHolder<Item>) { self.holder = holder }
}

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
      let corrections = sync.ledger.newer(than: baseStamp, for: items(of: state._value))
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
      entry.perform(entry.book.commitEdit(id))
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
    if entry.slot.isLoadingAddedPage || !entry.book.base._holdsValue { return fetchStamp }
    return Swift.min(baseStamp, fetchStamp)
  }

  func collectHeldIDs(into ids: inout Set<Item.ID>) {
    guard let entry else { return }
    for item in items(of: entry.book.base._value) { ids.insert(item.id) }
    for item in items(of: entry.book.shown._value) { ids.insert(item.id) }
  }
}

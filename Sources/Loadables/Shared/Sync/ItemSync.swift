// The runner that keeps items in sync across a store's entries: it performs what the
// `ItemSyncBook` decides, through the entries' edit logs. See `LoaderStore+ItemSync.swift` for
// the public face and the rules.

/// The entries holding one synced type, and its book.
@MainActor
final class ItemSync<Item: Identifiable & Equatable>: ItemSyncing {
  unowned let registry: ItemSyncRegistry
  var book = ItemSyncBook<Item>()
  /// The linked entries, by the link's identity; a link whose entry is gone is skipped and
  /// pruned.
  private var links: [ObjectIdentifier: WeakItemHolder<Item>] = [:]
  /// The derived edits laid over other entries for each edit transaction still running, and
  /// the ids that edit changed (recorded in the book when it commits).
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

  /// Forgets the versions no fetch in flight and no entry needs, when the book has grown
  /// past its budget (see ``ItemSyncBook``): the book decides, this gathers what it asks.
  /// `landed` is a holder whose fetch has just written its result: it counts as in flight no
  /// more, even if its slot has not ended yet.
  func forgetIfDue(landed: AnyObject? = nil) {
    guard book.isForgettingDue else { return }
    var oldest: UInt64?
    var held = Set<Item.ID>()
    for holder in holders(except: nil) {
      if holder !== landed, let since = holder.inFlightSince {
        oldest = Swift.min(oldest ?? since, since)
      }
      holder.collectHeldIDs(into: &held)
    }
    book.forget(inFlightSince: oldest, holding: held)
  }

  // MARK: - Fetches

  /// A fetch of `source`, started at `stamp`, brought `items`: records them, shows the newer
  /// ones in the other holders' committed values, and returns the corrections `source` shows
  /// instead of what it fetched.
  func fetched(_ items: [Item], stamp: UInt64, by source: AnyObject) -> [Item.ID: Item?] {
    let arrival = book.arrived(items, stamp: stamp)
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
    _ = book.arrived(items, stamp: registry.nextStamp())
    forgetIfDue()
  }

  // MARK: - Removal

  /// The app removed item `id`: lists drop it, details holding it are reset.
  func remove(_ id: Item.ID) {
    book.removed(id, stamp: registry.nextStamp())
    for holder in holders(except: nil) { holder.syncBase([id: nil]) }
    forgetIfDue()
  }
}

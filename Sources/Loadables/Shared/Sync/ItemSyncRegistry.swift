/// The synced types of one store, and the tick that stamps item versions.
@MainActor
final class ItemSyncRegistry {
  weak var store: LoaderStore?
  /// The synced types, by the item type's identity.
  private(set) var syncs: [ObjectIdentifier: any ItemSyncing] = [:]
  /// The store's sync tick; see ``ItemSyncBook``.
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

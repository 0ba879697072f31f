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
  /// `nil` when none is in flight. See ``ItemSyncBook/forget(inFlightSince:holding:)``.
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

/// The latest known version of each item of one type a ``LoaderStore`` keeps in sync, and the
/// rule that orders them: a pure value, with no tasks and no clock.
///
/// Every version is stamped with the store's sync tick (a counter every fetch start, edit
/// commit and removal of an entry holding a synced type moves on by one): the tick when the
/// fetch that brought it *started*, or when the edit that made it committed. A counter
/// rather than the store's clock: two fetches started at the same instant (a manual clock
/// that did not move) must still be ordered.
///
/// The rule is the engine's, applied to items: a fetch that started before an item's latest
/// known version never replaces it. What a fetch brings, item by item:
///
/// | the ledger knows the item | the item this fetch brought |
/// |---|---|
/// | not at all, or from an older stamp | is the latest now: other entries show it |
/// | from a newer stamp (a later fetch or edit) | is not shown: this entry shows the newer one |
/// | as removed, at a newer stamp | is not shown: this entry drops it too |
struct ItemLedger<Item: Identifiable & Equatable> {
  /// One known version: the item, or `nil` once the app removed it, and its stamp.
  struct Version: Equatable {
    var item: Item?
    var stamp: UInt64
  }

  /// What a fetch's items mean for the entries.
  struct Arrival: Equatable {
    /// The items that are the latest version now and differ from the one known before:
    /// other entries holding their ids show them.
    var newer: [Item.ID: Item] = [:]
    /// The ids this fetch brought an older version of, with the newer one known (`nil`
    /// for an item removed since): the entry that fetched them shows these instead.
    var corrections: [Item.ID: Item?] = [:]
  }

  private(set) var versions: [Item.ID: Version] = [:]

  /// `items`, fetched by a fetch that started at `stamp` (or made by an edit that committed
  /// at `stamp`), arrived.
  mutating func arrived(_ items: [Item], stamp: UInt64) -> Arrival {
    var arrival = Arrival()
    for item in items {
      let id = item.id
      if let known = versions[id] {
        if known.stamp > stamp {
          if known.item != item { arrival.corrections[id] = known.item }
          continue
        }
        versions[id] = Version(item: item, stamp: stamp)
        if known.item != item { arrival.newer[id] = item }
      } else {
        versions[id] = Version(item: item, stamp: stamp)
        arrival.newer[id] = item
      }
    }
    return arrival
  }

  /// The newer versions known of `items`, shown by a state as old as `stamp` (a cancelled
  /// fetch brought back the state it replaced): `nil` for an item removed since.
  func newer(than stamp: UInt64, for items: [Item]) -> [Item.ID: Item?] {
    var corrections: [Item.ID: Item?] = [:]
    for item in items {
      guard let known = versions[item.id], known.stamp > stamp, known.item != item else {
        continue
      }
      corrections[item.id] = known.item
    }
    return corrections
  }

  /// The app removed item `id` at `stamp`: a fetch that started before never brings it back.
  mutating func removed(_ id: Item.ID, stamp: UInt64) {
    versions[id] = Version(item: nil, stamp: stamp)
  }
}

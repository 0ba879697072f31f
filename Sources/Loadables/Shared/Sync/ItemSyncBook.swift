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
/// | the book knows the item | the item this fetch brought |
/// |---|---|
/// | not at all, or from an older stamp | is the latest now: other entries show it |
/// | from a newer stamp (a later fetch or edit) | is not shown: this entry shows the newer one |
/// | as removed, at a newer stamp | is not shown: this entry drops it too |
///
/// **Forgetting.** A version is only ever read to stop something older than it: a fetch that
/// started before its stamp and lands later (``arrived(_:stamp:)``), or a cancelled fetch
/// bringing back a state as old as its entry's last fetch (``newer(than:for:)``). So a
/// version whose stamp is not newer than the oldest of those still possible — the oldest
/// stamp *in flight*, which the runner works out from the entries whose fetch runs — can
/// never be read to any effect again, and ``forget(inFlightSince:holding:)`` drops it:
///
/// - an item version, unless an entry still holds its id (kept only so that a fetch bringing
///   the same item again finds it unchanged and tells no one);
/// - a removal's tombstone, always.
///
/// Nothing newer than the oldest stamp in flight is ever forgotten, so the rule above holds
/// across forgetting. The runner forgets when ``isForgettingDue``: when the book holds more
/// than twice what it kept after the last time, or than it kept plus the ids it had to look
/// at (and at least ``minimumBudget``). The work is then paid for by the arrivals in between,
/// and the book holds at most about twice what the entries hold, plus the versions newer
/// than the oldest fetch in flight: a fetch that never ends holds back forgetting.
struct ItemSyncBook<Item: Identifiable & Equatable> {
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

  /// The fewest versions the book holds before it forgets: below it, forgetting costs more
  /// than it saves.
  static var minimumBudget: Int { 256 }

  /// How many versions the book may hold before ``isForgettingDue``.
  private(set) var budget = ItemSyncBook.minimumBudget

  /// How many versions the book holds.
  var count: Int { versions.count }

  /// Whether the book holds more than its budget: the runner then works out the oldest
  /// stamp in flight and the ids held, and calls ``forget(inFlightSince:holding:)``.
  var isForgettingDue: Bool { versions.count > budget }

  /// Forgets the versions nothing can read any more; see the type's discussion.
  ///
  /// - Parameters:
  ///   - oldest: The oldest stamp a fetch still in flight can bring or bring back (the
  ///     older of its start and, when its entry holds a value, the start of the fetch that
  ///     brought it); `nil` when no fetch of an entry holding this type is in flight.
  ///   - held: The ids the entries hold now.
  mutating func forget(inFlightSince oldest: UInt64?, holding held: Set<Item.ID>) {
    let horizon = oldest ?? .max
    versions = versions.filter { id, version in
      version.stamp > horizon || (version.item != nil && held.contains(id))
    }
    budget = Swift.max(Self.minimumBudget, 2 * versions.count, versions.count + held.count)
  }

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

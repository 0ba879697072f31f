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
      // generic item for every row, which made a detail's sync miss its target
      // (`shared.sync.detail`).
      if changes.count == 1, let (id, change) = changes.first {
        var changed = false
        var index = items.startIndex
        while index < items.endIndex {
          if items[index].id == id {
            changed = Self.lay(change, at: &index, over: &items) || changed
          } else {
            index += 1
          }
        }
        return changed
      }
      var changed = false
      var index = items.startIndex
      while index < items.endIndex {
        if let change = changes[items[index].id] {
          changed = Self.lay(change, at: &index, over: &items) || changed
        } else {
          index += 1
        }
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

  /// Lays one item's change over `items[index]`: shows the new version (when it differs),
  /// or drops the item. Moves `index` to the next item either way (a dropped item's place
  /// is taken by the one after it). Returns whether `items` changed.
  ///
  /// Both loops of ``apply(to:)`` call it with the change they found for the row; written
  /// once here, inlined into each.
  @inline(__always)
  private static func lay(_ change: Item?, at index: inout Int, over items: inout [Item]) -> Bool {
    guard let item = change else {
      items.remove(at: index)
      return true
    }
    defer { index += 1 }
    guard items[index] != item else { return false }
    items[index] = item
    return true
  }
}

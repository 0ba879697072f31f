// Items kept in sync across entries (normalization by `Identifiable`): the public face. The
// ordering rule is `ItemSyncBook`'s; the runner that lays the changes over entries is
// `ItemSync`, through each entry's `EntryItemLink` (both in `Shared/Sync/`).

extension LoaderStore {
  /// Keeps every item of `type` in sync across the store's entries: when a newer version of
  /// an item arrives anywhere — a detail's fetch, a list's fetch, a paged list's page, an
  /// edit — every entry holding that item's id shows it.
  ///
  /// An entry takes part when its value is an `Item` (a detail) or an `[Item]` (a list, or
  /// a paged list's items). Entries of other types are left alone, and a store that keeps no
  /// type in sync does no work for it.
  ///
  /// ```swift
  /// let store = LoaderStore()
  /// store.keepInSync(Post.self)
  ///
  /// let feed = store.loader(for: ["feed"]) { try await api.feed() }         // [Post]
  /// let post = store.loader(for: ["posts", 42]) { try await api.post(42) }  // Post
  /// await post.refresh()  // the feed's row for post 42 shows what the detail fetched
  /// ```
  ///
  /// **Order.** Each version of an item is stamped with the moment its fetch *started* (or
  /// its edit committed). A fetch that started before an item's latest known version never
  /// replaces it: not in other entries, and not in its own entry, which shows the newer
  /// version too. So a feed fetch that started before a detail refresh, and lands after it
  /// with the old title, shows the new title. A fetch that starts later is the newer truth.
  ///
  /// **How it shows.** The change is laid over the other entries as an edit that has
  /// committed: it stays over the values their running fetches bring, and it goes when a
  /// fetch of theirs that started later lands. It is saved with the entry's committed value.
  ///
  /// **Edits.** An optimistic edit of an item (``SharedEdit/update(_:_:)`` on a detail,
  /// ``SharedEdit/set(_:to:)``, or an update of a list) is laid over every other entry
  /// holding that item while its job runs, and commits or rolls back with it, exactly. An
  /// update of a detail runs its own change over the item in the other entries, so it stays
  /// right over whatever they fetch meanwhile; other edits show the changed items as they
  /// are.
  ///
  /// **Memory.** To keep that order the store remembers the latest version of each item it
  /// saw, but only while it may matter: a version is forgotten once no fetch that started
  /// before it is still in flight and no entry holds its id any more (the entry was
  /// removed, evicted or reset, or a paged list dropped the page), and a removal is
  /// forgotten once no fetch older than it is in flight. Forgetting runs as the remembered
  /// versions pass twice what was kept the time before, so a list scrolled through 100,000
  /// items keeps a few hundred. A fetch that never ends (one waiting for the network, say)
  /// holds back forgetting what came after it started, until it ends.
  ///
  /// Call it once, as you make the store; entries already made take part from then on.
  ///
  /// - Parameter type: The item type: its `id` names an item across entries.
  public func keepInSync<Item: Identifiable & Equatable>(_ type: Item.Type) {
    let registry = itemSync ?? ItemSyncRegistry(store: self)
    itemSync = registry
    _ = registry.sync(of: type)
    for entry in entries.values {
      (entry as? any ItemSyncAttachable)?.attachItemSync(registry)
    }
  }

  /// Removes the item of `type` with `id` from every entry that holds it: lists drop it and
  /// a detail showing it is reset (``SharedEntry/reset()``: `.absent`, its saved value
  /// removed). A fetch that started before this call never brings it back; one that starts
  /// later shows it again if the server still has it.
  ///
  /// <!-- compile: context PostValue -->
  /// ```swift
  /// try await api.delete(post.id)
  /// store.removeItem(Post.self, id: post.id)
  /// ```
  ///
  /// Nothing happens for a type not kept in sync (``keepInSync(_:)``).
  ///
  /// - Parameters:
  ///   - type: The item type.
  ///   - id: The removed item's id.
  public func removeItem<Item: Identifiable & Equatable>(
    _ type: Item.Type, id: Item.ID
  ) {
    guard let itemSync, itemSync.syncs[ObjectIdentifier(type)] != nil else { return }
    itemSync.sync(of: type).remove(id)
  }

  /// How many versions of items of `type` the store remembers to keep fetches in order (see
  /// ``ItemSyncBook``): what tests read to see it forget; zero for a type not kept in sync.
  func syncedItemCount<Item: Identifiable & Equatable>(_ type: Item.Type) -> Int {
    guard let itemSync, itemSync.syncs[ObjectIdentifier(type)] != nil else { return 0 }
    return itemSync.sync(of: type).book.count
  }

  /// A new edit id, for an edit the store lays itself (an item kept in sync).
  func takeEditID() -> UInt64 {
    nextEditID += 1
    return nextEditID
  }
}

/// An entry the store can link to its synced item types after it was made.
@MainActor
protocol ItemSyncAttachable {
  func attachItemSync(_ registry: ItemSyncRegistry)
}

extension SharedEntry: ItemSyncAttachable {
  func attachItemSync(_ registry: ItemSyncRegistry) { registry.attach(self) }
}

/// How a persisted entry is saved, asked once when the entry is made (`EntryPersister`):
/// its record's key, its value's `Codable` type (a save runs no cast) and whether its state is
/// saved whole (a paged list, with its pages and cursors).
///
/// The entry keeps it and hands it to its store's persister at each write and commit: one
/// stored value per entry, where a watcher closure would cost its context and its captures
/// in every entry a store holds.
struct EntrySaving {
  /// The record's key.
  let key: PersistentKey
  /// The value's type, found `Codable`.
  let codable: any Codable.Type
  /// Whether the state is saved whole (a ``WholeStateRecord``), rather than its value.
  let whole: Bool
}

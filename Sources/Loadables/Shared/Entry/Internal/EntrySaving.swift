/// How the entries of one state type are saved, asked once per type (`EntryPersister`): the
/// value's `Codable` type (a save runs no cast) and whether the state is saved whole (a
/// paged list, with its pages and cursors).
///
/// Kept by the persister for each type, not in each entry: an entry keeps only its record's
/// key (``SharedEntry/savedKey``), as a store holds thousands of entries of a few types.
struct EntrySaving {
  /// The value's type, found `Codable`.
  let codable: any Codable.Type
  /// Whether the state is saved whole (a ``WholeStateRecord``), rather than its value.
  let whole: Bool
}

/// What a shared entry is made with and keeps unchanged: the settings its maker asked for,
/// its refresh triggers, its store and the store's clock.
///
/// Immutable, and shared by the entries a store makes one after another with the same
/// settings (`LoaderStore.entrySettings(_:triggers:)`): a store holds thousands of entries,
/// and each keeps one reference rather than its own copy (the clock alone is an existential
/// of five words).
final class EntrySettings: Sendable {
  /// The settings its maker asked for, the store's defaults filled in.
  let requested: RequestedSettings
  /// What refreshes the entry while it is observed.
  let triggers: [RefreshTrigger]
  /// The store's clock: the stale timer and the triggers wait on it.
  let clock: any Clock<Duration>
  /// The store that made the entries: held weakly, as an entry holds its store, and here
  /// rather than in each entry, which spares every entry a word.
  weak let store: LoaderStore?

  init(
    requested: RequestedSettings, triggers: [RefreshTrigger], clock: any Clock<Duration>,
    store: LoaderStore
  ) {
    self.requested = requested
    self.triggers = triggers
    self.clock = clock
    self.store = store
  }
}

/// Who follows a shared entry — its observers and its watchers — and the stale timer and
/// triggers that run while it is observed.
///
/// Made for the entry's first observer or watcher (`SharedEntry.followers`): an entry nobody
/// follows, as most of a store's entries are at launch, keeps one reference rather than
/// these seven fields. Its properties are `@exclusivity(unchecked)` for the entry's reason:
/// main-actor only, never held across a call that could touch them.
@MainActor
final class EntryFollowers<State> {
  /// The observers alive now, by id.
  @exclusivity(unchecked) var observers: [Int: Observer] = [:]
  /// How many of ``observers`` are bound to an owner's life (key-path followers).
  @exclusivity(unchecked) var boundObservers = 0
  @exclusivity(unchecked) var nextObserverID = 0
  @exclusivity(unchecked) var staleTimer: Task<Void, Never>?
  @exclusivity(unchecked) var runningTriggers: [RunningTrigger] = []
  /// Who sees every write, with its cause: followers and `states` subscriptions.
  @exclusivity(unchecked) var watchers:
    [(
      id: Int, includesCommits: Bool,
      callback: @MainActor (EntryEvent<State>) -> Void
    )] = []
  @exclusivity(unchecked) var nextWatcherID = 0

  nonisolated init() {}
}

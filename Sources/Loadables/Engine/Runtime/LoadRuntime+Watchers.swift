// The watchers of a slot: callbacks that see every state its engine writes, in order,
// uncoalesced (behind `StateStream` and the testing recorder, see `StateWatch`). Kept in the
// side object: most slots have none.

extension LoadRuntime {
  /// Calls every watcher with a state the engine just wrote.
  @usableFromInline final func notifyWatchers(_ state: Any) {
    guard let watchers = activity?.watchers else { return }
    for watcher in watchers { watcher.callback(state) }
  }

  /// Adds a callback that sees every state this slot writes, in order; returns its id.
  final func addWatcher(_ callback: @escaping @MainActor (Any) -> Void) -> Int {
    let activity = activityObject()
    activity.nextWatcherID += 1
    activity.watchers.append((activity.nextWatcherID, callback))
    isWatched = true
    return activity.nextWatcherID
  }

  /// Removes a watcher; an idle slot nobody watches may then leave its table.
  final func removeWatcher(_ id: Int) {
    guard let activity else { return }
    activity.watchers.removeAll { $0.id == id }
    isWatched = !activity.watchers.isEmpty
    if !running { didBecomeIdle() }
  }
}

/// Laying the edits' changes over the entries, and taking them back or committing
/// them.
extension Outbox {
  /// Whether a queued edit's change is laid over entries now.
  var hasAppliedEdits: Bool { queue.contains { $0.isApplied } }

  /// Lays the change of every queued edit that shows one over `entry`, just made, in order.
  func layEdits(over entry: any AnySharedEntry) {
    guard let store else { return }
    for queued in queue where queued.isApplied {
      guard let edit = queued.edit else { continue }
      var shared = SharedEdit(outboxEdit: queued.editID, only: entry)
      edit.applyOptimistically(to: &shared, in: store)
      queued.touched += shared.entries
    }
  }

  func apply(_ queued: Queued) {
    guard let store, let edit = queued.edit, !queued.isApplied else { return }
    store.nextEditID += 1
    queued.editID = store.nextEditID
    var shared = SharedEdit(outboxEdit: queued.editID)
    edit.applyOptimistically(to: &shared, in: store)
    queued.touched = shared.entries
    queued.isApplied = true
  }

  /// Takes `queued`'s change back from the entries: it failed with `error`, or (with none)
  /// was discarded.
  func rollBack(_ queued: Queued, error: (any Error)?) {
    guard queued.isApplied else { return }
    for entry in queued.touched { entry.rollBackEdit(queued.editID, error: error) }
    queued.touched = []
    queued.isApplied = false
  }

  func commit(_ queued: Queued) {
    guard queued.isApplied else { return }
    for entry in queued.touched { entry.commitEdit(queued.editID, saving: true) }
    queued.touched = []
    queued.isApplied = false
  }
}

extension SharedEntry {
  // MARK: - Optimistic edits

  /// Lays `operation` over the entry as part of edit `id`; returns whether it was recorded
  /// (an update of an entry that shows no value is not, unless `overAbsent`: an outbox edit
  /// keeps it for the value fetched later). A fetch running now started before the edit, so
  /// it is cancelled first when the edit changes what shows: its older answer must not land
  /// (``EntryFacts/editSupersedesFetch(isSet:)``). An update kept for a value not loaded yet
  /// leaves the fetch alone: it runs over what the fetch lands. A paged list's next page is
  /// never cancelled: it builds on the committed base, and the edit is laid over its outcome.
  func applyEdit(_ id: UInt64, _ operation: EditOperation<Value>, overAbsent: Bool = false)
    -> Bool
  {
    if !operation.isSet, !book.facts.showsValue, !overAbsent { return false }
    if slot.isBusy, !isLoadingAddedPage, book.facts.editSupersedesFetch(isSet: operation.isSet) {
      cancel()
    }
    let before = itemLink == nil ? nil : book.shown._value
    perform(book.applyEdit(id, operation, overAbsent: overAbsent, at: now))
    itemLink?.edited(id, operation, before: before)
    if LoadEvents.isOn {
      LoadEvents.report(
        .editApplied, .entry(key, form: .edit),
        detail:
          "edit \(id)\(overAbsent ? " (outbox)" : "")\(operation.isSet ? ", set" : ", update")",
        store: eventStore)
    }
    return true
  }

  /// Edit `id` succeeded: it stays laid over the base until a fetch carries it. Unless
  /// `saving` is `false` (a committed edit laid again over a value restored without it), the
  /// committed value is saved.
  func commitEdit(_ id: UInt64, saving: Bool) {
    if LoadEvents.isOn, holdsEdit(id) {
      LoadEvents.report(
        .editCommitted, .entry(key, form: .edit), detail: "edit \(id)", store: eventStore)
    }
    let effects = book.commitEdit(id, at: now)
    if saving {
      perform(effects)
    } else {
      // The screen moves when the edit moved ahead of a pending one (an optimistic write,
      // which saves nothing); the commit is not saved.
      for effect in effects where effect != .committed { perform([effect]) }
    }
    itemLink?.editEnded(id, committed: true)
  }

  /// Edit `id` failed with `error` (or, with none, was discarded): it goes, and the entry
  /// shows its current base with the remaining edits laid over it.
  func rollBackEdit(_ id: UInt64, error: (any Error)?) {
    if LoadEvents.isOn, holdsEdit(id) {
      LoadEvents.report(
        .editRolledBack, .entry(key, form: .edit), error: error,
        detail: error == nil ? "edit \(id), discarded" : "edit \(id)", store: eventStore)
    }
    perform(book.rollBackEdit(id, at: now))
    itemLink?.editEnded(id, committed: false)
  }

  /// Whether edit `id` is in the book's log (asked only while someone listens to events).
  private func holdsEdit(_ id: UInt64) -> Bool {
    for edit in book.edits where edit.id == id { return true }
    return false
  }
}

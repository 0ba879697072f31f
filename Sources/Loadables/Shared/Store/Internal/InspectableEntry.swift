import Foundation

/// What an inspector reads of an entry whatever its type.
@MainActor
protocol InspectableEntry: AnySharedEntry {
  func inspectionSnapshot(in store: LoaderStore) -> EntrySnapshot
  func startInspectedRefresh()
}

extension SharedEntry: InspectableEntry {
  func inspectionSnapshot(in store: LoaderStore) -> EntrySnapshot {
    let now = store.now
    let facts = book.facts
    let shown = book.shown
    let summary = (shown as? any InspectedState)?.inspection
    var phase = summary?.phase ?? (facts.showsValue ? .loaded : .absent)
    if facts.isPlaceholder, facts.showsValue { phase = .placeholder }
    let staleness: EntrySnapshot.Staleness
    var staleAt: Date?
    if !facts.showsValue {
      staleness = .noValue
    } else if facts.isPlaceholder || (facts.invalidated && facts.fetchedAt == nil) {
      staleness = .notFetched
    } else if facts.invalidated {
      staleness = .invalidated
    } else if let updatedAt = facts.updatedAt, now - updatedAt < facts.staleTime {
      staleness = .fresh
      staleAt = store.wallDate(at: updatedAt + facts.staleTime)
    } else {
      staleness = .aged
    }
    var pending = 0
    for edit in book.edits where edit.committedAt == nil { pending += 1 }
    let persisted =
      store.persister != nil && requested.persisted && registryKey == key && !slot.isDetached
      && Value.self is any Codable.Type
    return EntrySnapshot(
      key: key, id: registryKey.description,
      kind: State.self is any _PagedEntryState.Type
        ? .paged : .value,
      valueType: String(describing: valueType), phase: phase,
      valueSummary: summary?.value, error: summary?.error ?? slot.refreshError,
      nextPage: summary?.nextPage, observerCount: observerCount,
      fetchedAt: facts.fetchedAt.map(store.wallDate(at:)), staleTime: requested.staleTime,
      staleness: staleness, staleAt: staleAt, isRunning: slot.isBusy,
      isWaitingForNetwork: slot.isWaitingForNetwork, attempt: slot.attempt,
      progress: slot.progress, isPersisted: persisted, pendingEditCount: pending,
      editCount: book.edits.count, failsNextFetch: FetchInjection.isArmed(for: self))
  }

  func startInspectedRefresh() { startRefresh() }
}

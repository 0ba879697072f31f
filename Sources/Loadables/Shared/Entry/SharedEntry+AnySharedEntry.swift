extension SharedEntry {
  // MARK: - Store operations (through `AnySharedEntry`)

  /// Since when nobody observes the entry, on the store's stopwatch; `nil` while observed.
  var unobservedSince: Duration? { book.facts.unobservedSince }

  /// Marks the value stale; an observed entry, or one whose fetch is running, refreshes at
  /// once — silently when it holds a value — so a fetch that started before never stores
  /// its older result.
  func invalidate(_ cause: InvalidationCause) {
    if LoadEvents.isOn {
      LoadEvents.report(.entryInvalidated, .entry(key), detail: cause.detail, store: eventStore)
    }
    pruneObservers()
    perform(book.invalidate(isFetching: slot.isBusy))
  }

  /// The store dropped the entry: stops its fetch, its timers and its triggers.
  func wasDropped() {
    engineSlot.stop()
    perform([.stopStaleTimer, .stopTriggers])
  }

  var isFetching: Bool { slot.isBusy }

  var valueType: Any.Type { engine.valueType }
}

extension SharedEntry: AnySharedEntry {}

// Store-wide activity: how many entries run a fetch now, and how many outbox edits wait, observable
// for a global spinner or a "3 changes waiting to sync" banner. The count moves only where an
// entry's fetch starts (the book's `startFetch` effect) and where its slot becomes idle, so a
// fresh read, which starts nothing, never touches it.

import Observation

extension LoaderStore {
  /// Whether any entry of the store runs a fetch now (silent refreshes included), as
  /// ``LoadHandle/isRunning`` says of one entry. Observable: a view reading it is told only
  /// when it turns `true` or `false`, not at each fetch.
  ///
  /// <!-- compile: context StoreView -->
  /// ```swift
  /// if store.isRunning { ProgressView() }
  /// ```
  ///
  /// An entry removed with ``remove(_:matching:pendingEdits:)`` no longer counts, whatever its holder
  /// does with it.
  public var isRunning: Bool { activity.isFetching }

  /// How many entries of the store run a fetch now. Observable.
  public var runningCount: Int { activity.fetchingCount }

  /// How many outbox edits wait to be sent or are being sent: ``Outbox/pendingCount``.
  /// Observable.
  public var pendingEditCount: Int { outbox.pendingCount }
}

/// The store's count of fetching entries, observable, in a non-generic class so that
/// observing it needs no key path built in a generic context. Two markers: a view that reads
/// only ``LoaderStore/isRunning`` is not woken when a second fetch starts. A reader of the
/// count observes both, so a change between none and one (the common one: a single fetch
/// starting and ending) tells everyone through the one marker, in one mutation.
///
/// Its registrar is made at the first observed read: until a view reads the activity, a
/// fetch's start and end only count, with no mutation told to a registrar nobody observes.
@MainActor
final class StoreActivity {
  private var observers: StateObservers?
  private var count = 0

  /// The registrar, made now if it was not: for an observed read.
  private var registrar: ObservationRegistrar {
    if let observers { return observers.registrar }
    let made = StateObservers()
    observers = made
    return made.registrar
  }

  nonisolated var countMarker: Int { 0 }
  nonisolated var fetchingMarker: Int { 0 }

  var fetchingCount: Int {
    registrar.access(self, keyPath: \StoreActivity.countMarker)
    registrar.access(self, keyPath: \StoreActivity.fetchingMarker)
    return count
  }

  var isFetching: Bool {
    registrar.access(self, keyPath: \StoreActivity.fetchingMarker)
    return count > 0
  }

  /// An entry's fetch started.
  func fetchStarted() {
    guard let observers else {
      count += 1
      return
    }
    if count == 0 {
      observers.registrar.withMutation(of: self, keyPath: \StoreActivity.fetchingMarker) {
        count = 1
      }
    } else {
      observers.registrar.withMutation(of: self, keyPath: \StoreActivity.countMarker) {
        count += 1
      }
    }
  }

  /// An entry's fetch ended, or the entry left the store while fetching.
  func fetchEnded() {
    guard count > 0 else { return }
    guard let observers else {
      count -= 1
      return
    }
    if count == 1 {
      observers.registrar.withMutation(of: self, keyPath: \StoreActivity.fetchingMarker) {
        count = 0
      }
    } else {
      observers.registrar.withMutation(of: self, keyPath: \StoreActivity.countMarker) {
        count -= 1
      }
    }
  }
}

extension StoreActivity: Observable {}

extension SharedEntry {
  /// Counts the fetch the book just started in the store's activity, once per run of the
  /// slot: a fetch superseding another keeps the slot running and is not counted again. An
  /// entry removed from its store is never counted.
  func noteFetchStarted() {
    guard slot.isBusy, !slot.countsAsFetching, !slot.isDetached, let store else { return }
    slot.countsAsFetching = true
    store.activity.fetchStarted()
  }

  /// The slot became idle (or the entry leaves its store): uncounts its fetch.
  func noteFetchEnded() {
    guard slot.countsAsFetching, !slot.isBusy || slot.isDetached else { return }
    slot.countsAsFetching = false
    store?.activity.fetchEnded()
  }
}

// Persistence: entries whose value is `Codable` are saved after each fetch and each committed
// edit, and show their saved value when they are made in a later launch. What is saved is
// decided by the write's cause (`WriteCause`); the files are the backend's
// (`Persistence/`), written off the main actor by one serial writer.

import Foundation

extension LoaderStore {
  /// Waits until every save and removal queued so far is on storage, and the events they
  /// caused have been reported; returns at once without a ``persistence``.
  ///
  /// Call it when the app moves to the background, and in tests before a "relaunch":
  ///
  /// <!-- compile: context Shared -->
  /// ```swift
  /// await store.flushPersistence()
  /// let relaunched = LoaderStore(persistence: saved)
  /// ```
  public func flushPersistence() async {
    guard let persister else { return }
    await persister.writer.flush()
    deliverPersistenceEvents()
  }

  /// Removes every saved entry (at logout, say), after the saves already queued; the
  /// entries in memory stay as they are, and later fetches are saved again. The outbox's
  /// queued edits are not touched.
  ///
  /// A record that cannot be removed is reported (``onPersistenceEvent``).
  public func removePersistedEntries() async {
    guard let persister else { return }
    persister.writer.removeAll(store: self)
    await flushPersistence()
    // No saved value is left for the outbox's committed edits to be laid over.
    outbox.removeCommittedEdits()
  }

  /// The wall-clock time at `time` on the store's stopwatch.
  func wallDate(at time: Duration) -> Date {
    startDate.addingTimeInterval(time.seconds)
  }

  /// The wall-clock time now, by the store's clock.
  var wallNow: Date { wallDate(at: now) }

  /// Hands the events the writer has gathered to ``onPersistenceEvent``.
  func deliverPersistenceEvents() {
    guard let persister else { return }
    report(persister.writer.takeEvents())
  }

  /// Reports `events`, in order; each that dropped a saved record is also an
  /// ``LoadEventKind/entryDiscarded`` event, of the entry of `key` when they came from
  /// reading its record.
  func report(_ events: [PersistenceEvent], for key: LoadKey? = nil) {
    guard !events.isEmpty else { return }
    reportDiscards(events, for: key)
    recentPersistenceEvents.append(contentsOf: events)
    if recentPersistenceEvents.count > 100 {
      recentPersistenceEvents.removeFirst(recentPersistenceEvents.count - 100)
    }
    for event in events { onPersistenceEvent?(event) }
  }
}

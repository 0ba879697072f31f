// The store's and the edits' events (`LoadEvents`): why an entry was invalidated or evicted,
// said as values that cost nothing to pass, and put into words only when someone listens.
// Every place that reports checks `LoadEvents.isOn` first; none of them is on the path of a
// fresh read of an entry.

/// Why an entry was marked stale (or told to refresh), for its
/// ``LoadEventKind/entryInvalidated`` event.
enum InvalidationCause {
  /// ``LoaderStore/invalidate(_:matching:)`` with this prefix.
  case invalidate(LoadKey)
  /// ``LoaderStore/invalidateAll()``.
  case invalidateAll
  /// ``LoaderStore/invalidate(_:matching:)`` of this exact key (an inspector's action).
  case exactKey(LoadKey)
  /// The `invalidating:` keys of ``LoaderStore/edit(invalidating:_:perform:)`` edit `id`,
  /// whose job succeeded.
  case edit(UInt64)
  /// The ``OutboxEdit/invalidates`` keys of an outbox edit (its ``OutboxEdit/name``), sent.
  case outboxEdit(String)
  /// A ``RefreshTrigger`` fired (its name).
  case trigger(String)

  /// The event's detail.
  var detail: String {
    switch self {
    case .invalidate(let prefix): "by invalidate(\(prefix))"
    case .invalidateAll: "by invalidateAll()"
    case .exactKey(let key): "by invalidate(\(key), matching: .exact)"
    case .edit(let id): "by edit \(id), committed"
    case .outboxEdit(let name): "by outbox edit \(name), sent"
    case .trigger(let name): "by refresh trigger \(name)"
    }
  }
}

/// Why an entry left its store on its own, for its ``LoadEventKind/entryEvicted`` event.
enum EvictionCause {
  /// Nobody observed it for the store's grace time.
  case graceTime
  /// The store held more than its ``LoaderStore/maxEntries``: the least recently used went.
  case maxEntries
  /// ``LoaderStore/trim()`` (memory pressure) dropped every unobserved entry.
  case memoryPressure

  /// The event's detail.
  var detail: String {
    switch self {
    case .graceTime: "grace time ran out"
    case .maxEntries: "over maxEntries, least recently used"
    case .memoryPressure: "memory pressure (trim)"
    }
  }
}

extension PersistenceEvent {
  /// Why this event dropped a saved record, in words, when it is one that does (an
  /// ``LoadEventKind/entryDiscarded``); `nil` for any other.
  var discardReason: String? {
    switch self {
    case .removedUnreadable(_, let reason): "unreadable (\(reason))"
    case .undecodable(_, let reason): "does not decode: \(reason)"
    case .droppedOtherVersion(_, let version): "saved under another version (\(version))"
    case .droppedExpired(_, let savedAt): "older than maxAge (saved \(savedAt))"
    default: nil
    }
  }

  /// The saved key the event names, if any.
  var persistentKey: PersistentKey? {
    switch self {
    case .droppedOtherVersion(let key, _), .droppedExpired(let key, _), .undecodable(let key, _):
      key
    default: nil
    }
  }

  /// The file the event names, if any.
  var file: String? {
    if case .removedUnreadable(let file, _) = self { return file }
    return nil
  }
}

extension LoaderStore {
  /// Reports an ``LoadEventKind/entryDiscarded`` for each of `events` that dropped a saved
  /// record: as the entry of `key` when the events came from reading that entry's record,
  /// otherwise named by the saved key (or the file) with no ``LoadSubject/key``.
  func reportDiscards(_ events: [PersistenceEvent], for key: LoadKey?) {
    guard LoadEvents.isOn else { return }
    for event in events {
      guard let reason = event.discardReason else { continue }
      let subject =
        key.map { LoadSubject.entry($0) }
        ?? LoadSubject(
          form: .entry, name: event.persistentKey?.identity ?? event.file ?? "a saved record")
      LoadEvents.report(.entryDiscarded, subject, detail: reason, store: ObjectIdentifier(self))
    }
  }
}

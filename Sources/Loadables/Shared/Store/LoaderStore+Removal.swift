// Logging out: every entry under a key prefix (or of one exact key) leaves the store (`remove`)
// or goes back to no value (`reset`), with its saved records, in memory and on storage. Queued
// outbox edits under the key are the user's unsent work: they stay unless the caller says to
// discard them (those being sent too, never to be laid again); the sent ones are forgotten.

extension LoaderStore {
  /// What ``LoaderStore/remove(_:matching:pendingEdits:)`` and
  /// ``LoaderStore/reset(_:matching:pendingEdits:)`` do with the outbox edits whose
  /// ``OutboxEdit/scope`` the key names.
  public enum PendingEdits: Sendable, Hashable {
    /// They stay queued and are sent as usual (the default): unsent work is never lost
    /// silently. Their optimistic changes are laid over the entries made or reset under the
    /// prefix from then on.
    case keep
    /// They are discarded, as ``Outbox/discard(_:)`` does: their changes roll back, their
    /// saved records are removed, and they are listed in ``PrefixRemoval/discardedEdits``.
    /// An edit whose handler runs at that moment is discarded too, and listed with the status
    /// ``OutboxItem/Status-swift.enum/sending``: the server may still apply it (its send goes
    /// on to its end), but its change is never laid over an entry again, in this launch or
    /// the next, whatever its send does.
    case discard
  }

  /// Removes the entries `key` names from the store, with their saved records: at logout,
  /// with a prefix, so that neither this launch nor the next shows the user's data; in an
  /// inspector, with ``LoadKey/Match/exact``, to drop one entry.
  ///
  /// ```swift
  /// func logOut() async -> [OutboxItem] {
  ///   let removal = store.remove(["user"], pendingEdits: .discard)  // offline too, at once
  ///   await store.flushPersistence()
  ///   return removal.discardedEdits  // what the server may not have: tell the user
  /// }
  /// ```
  ///
  /// Each entry the key names:
  /// - stops its fetch, its stale timer and its refresh triggers;
  /// - is reset (its pending edits discarded, its state the reset state, `.absent`), so a
  ///   screen still holding the object shows nothing of the logged-out user;
  /// - leaves the store: asking for its key makes a new entry, which fetches;
  /// - is detached: whoever still holds the object may use it (it loads, and shows what it
  ///   loads, as a dropped entry does), but it is never saved again, never counted in
  ///   ``isRunning``, and is not the store's entry for its key.
  ///
  /// The saved records the key names are removed through the store's ``persistence``,
  /// those of entries not in memory now (dropped, or saved in an earlier launch) included,
  /// after the saves already queued; ``flushPersistence()`` waits for the removal.
  ///
  /// Outbox edits whose scope the key names are kept unless `pendingEdits` is
  /// ``PendingEdits/discard``: they are the user's unsent changes. Send them first
  /// (``Outbox/untilIdle()``, which waits as long as the network is away), or discard them on
  /// purpose: the result lists each, as it was. The sent edits whose scope the key names
  /// are forgotten in any case, with their records: they are never laid over a value fetched
  /// later (another user's, under the same keys).
  ///
  /// A key that names no entry removes nothing (the saved records it names, if any, are
  /// still removed). A key always has a part, so no prefix names the whole store: use
  /// ``trim()`` or ``removePersistedEntries()`` for that.
  ///
  /// - Parameters:
  ///   - key: A key or a family of keys, such as `["user"]`.
  ///   - match: Whether `key` names every entry under it (``LoadKey/Match/prefix``, the
  ///     default) or its own entry only (``LoadKey/Match/exact``).
  ///   - pendingEdits: What to do with the outbox edits the key names;
  ///     ``PendingEdits/keep`` by default.
  /// - Returns: What was removed, the outbox edits discarded, and which stay.
  @discardableResult
  public func remove(
    _ key: LoadKey, matching match: LoadKey.Match = .prefix, pendingEdits: PendingEdits = .keep
  ) -> PrefixRemoval {
    let edits = settleEdits(named: key, match, pendingEdits)
    let matching = entries.values.filter { $0.key.isNamed(by: key, match) }
    for entry in matching {
      guard let removable = entry as? any RemovableEntry else { continue }
      // Reset while still attached: the reset's write removes the entry's saved record.
      removable.resetForRemoval()
      drop(entry)
      removable.detach()
      if LoadEvents.isOn {
        LoadEvents.report(
          .entryRemoved, .entry(entry.key), detail: "by \(Self.call("remove", key, match))",
          store: ObjectIdentifier(self))
      }
    }
    removeSavedRecords(named: key, match)
    return PrefixRemoval(
      entryCount: matching.count, discardedEdits: edits.discarded, keptEdits: edits.kept)
  }

  /// Resets the entries `key` names and removes the saved records it names: the entries
  /// stay in the store (and their observers with them), showing the reset state (`.absent`)
  /// until they load again.
  ///
  /// ```swift
  /// store.reset(["user"])
  /// ```
  ///
  /// Each entry's fetch stops and its pending edits are discarded, as ``SharedEntry/reset()``
  /// does. With ``PendingEdits/keep`` (the default) the outbox edits still queued are laid over
  /// the reset entries again, as over entries just made. The saved records the key names
  /// go through the store's ``persistence``, and its outbox edits are settled (the sent ones
  /// forgotten), as in ``remove(_:matching:pendingEdits:)``.
  ///
  /// - Parameters:
  ///   - key: A key or a family of keys, such as `["user"]`.
  ///   - match: Whether `key` names every entry under it (``LoadKey/Match/prefix``, the
  ///     default) or its own entry only (``LoadKey/Match/exact``).
  ///   - pendingEdits: What to do with the outbox edits the key names;
  ///     ``PendingEdits/keep`` by default.
  /// - Returns: What was reset, the outbox edits discarded, and which stay.
  @discardableResult
  public func reset(
    _ key: LoadKey, matching match: LoadKey.Match = .prefix, pendingEdits: PendingEdits = .keep
  ) -> PrefixRemoval {
    let edits = settleEdits(named: key, match, pendingEdits)
    let matching = entries.values.filter { $0.key.isNamed(by: key, match) }
    for entry in matching {
      (entry as? any RemovableEntry)?.resetForRemoval()
      if LoadEvents.isOn {
        LoadEvents.report(
          .entryReset, .entry(entry.key), detail: "by \(Self.call("reset", key, match))",
          store: ObjectIdentifier(self))
      }
    }
    if outbox.hasAppliedEdits {
      for entry in matching { outbox.layEdits(over: entry) }
    }
    removeSavedRecords(named: key, match)
    return PrefixRemoval(
      entryCount: matching.count, discardedEdits: edits.discarded, keptEdits: edits.kept)
  }

  /// How an event names the call: `remove(["user"])`, `reset(["user"], matching: .exact)`.
  private static func call(_ name: String, _ key: LoadKey, _ match: LoadKey.Match) -> String {
    match == .prefix ? "\(name)(\(key))" : "\(name)(\(key), matching: .exact)"
  }

  /// Settles the outbox edits `key` names: discards them when asked to (those being sent
  /// too), and forgets the committed ones in any case; returns the edits discarded, as they
  /// were, and the ids of those that stay.
  private func settleEdits(
    named key: LoadKey, _ match: LoadKey.Match, _ pendingEdits: PendingEdits
  ) -> (discarded: [OutboxItem], kept: [OutboxItem.ID]) {
    outbox.forgetCommittedEdits(named: key, match)
    let under = outbox.editIDs(named: key, match)
    guard pendingEdits == .discard else { return ([], under) }
    return (outbox.discardForRemoval(under), [])
  }

  /// Removes, after the saves already queued, every saved record `key` names.
  private func removeSavedRecords(named key: LoadKey, _ match: LoadKey.Match) {
    guard let persister else { return }
    guard let persistentKey = try? PersistentKey(key) else {
      // A key that cannot be saved names no saved record.
      return
    }
    switch match {
    case .prefix:
      persister.writer.removeAll(under: persistentKey.identity, now: wallNow, store: self)
    case .exact:
      persister.writer.remove(persistentKey, store: self)
    }
  }
}

/// What ``LoaderStore/remove(_:matching:pendingEdits:)`` or
/// ``LoaderStore/reset(_:matching:pendingEdits:)`` did.
public struct PrefixRemoval: Sendable, Equatable {
  /// How many entries were removed or reset (an entry kept apart after a
  /// ``LoadKeyTypeMismatch`` counts).
  public let entryCount: Int
  /// The outbox edits the key names that were discarded (with
  /// ``LoaderStore/PendingEdits/discard``), oldest first, each as it was then: they have left
  /// ``Outbox/items``, so the app can still say what was not sent (``OutboxItem/edit(as:)``).
  /// One whose ``OutboxItem/status`` is ``OutboxItem/Status-swift.enum/sending`` was being
  /// sent: the server may still apply it, but its change never shows again.
  public let discardedEdits: [OutboxItem]
  /// The outbox edits the key names that stay queued: all of them with
  /// ``LoaderStore/PendingEdits/keep``; none with ``LoaderStore/PendingEdits/discard``.
  public let keptEdits: [OutboxItem.ID]
}

/// An entry the store can reset and detach whatever its value type.
@MainActor
protocol RemovableEntry: AnySharedEntry {
  func resetForRemoval()
  func detach()
}

extension SharedEntry: RemovableEntry {
  /// Stops the fetch, discards the pending edits and shows the reset state, as ``reset()``.
  func resetForRemoval() {
    reset()
  }

  /// The entry left its store for good: it is never saved or counted again.
  func detach() {
    slot.isDetached = true
    noteFetchEnded()
  }
}

extension Outbox {
  /// The ids of the edits whose scope `key` names, oldest first; an edit restored without
  /// its type registered is matched by its saved scope.
  func editIDs(named key: LoadKey, _ match: LoadKey.Match) -> [OutboxItem.ID] {
    let identity = try? PersistentKey(key).identity
    return scopedItems.compactMap { item in
      if let scope = item.scope { return scope.isNamed(by: key, match) ? item.id : nil }
      guard let identity else { return nil }
      return Self.scopeID(item.scopeID, isNamedBy: identity, match) ? item.id : nil
    }
  }

  /// Whether the scope saved as `scopeID` is under (or, `.exact`, is) the key whose
  /// persistent identity is `identity`: an identity spells each part with its length, so a
  /// key's prefix is a prefix of its identity.
  static func scopeID(_ scopeID: String, isNamedBy identity: String, _ match: LoadKey.Match)
    -> Bool
  {
    match == .prefix ? scopeID.hasPrefix(identity) : scopeID == identity
  }

  /// Discards the edits of `ids` for a removal, those whose handler runs now too
  /// (``discard(_:)-(Queued)``); returns them as they were, oldest first.
  func discardForRemoval(_ ids: [OutboxItem.ID]) -> [OutboxItem] {
    ids.compactMap { id in queue.first { $0.item.id == id }.map { discard($0) } }
  }

  /// Forgets the committed edits whose scope `key` names, with their records: the removal
  /// takes away the values they were laid over, and a value fetched after it (the next
  /// user's, under the same keys) must never get one laid over it, in this launch or the
  /// next.
  func forgetCommittedEdits(named key: LoadKey, _ match: LoadKey.Match) {
    guard let backend, !committed.edits.isEmpty,
      let identity = try? PersistentKey(key).identity
    else { return }
    let errors = committed.remove(
      where: { Self.scopeID($0, isNamedBy: identity, match) }, backend: backend)
    for error in errors {
      report(
        .notRemoved, nil,
        "a committed edit's record under \(key) could not be removed (it is laid over the "
          + "values saved before its commit after a relaunch): \(error)")
    }
  }
}

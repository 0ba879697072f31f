// Eviction: what leaves a store, and when. An entry nobody observes leaves after the grace
// time (one sweeper task for the whole store), past `maxEntries` the least recently used
// unobserved entry leaves, and `trim` drops every unobserved entry at once. The grace time
// and the bound never drop an entry whose fetch is in flight: a caller may be awaiting it.

extension LoaderStore {
  /// Drops every entry nobody observes (and stops its fetch), as the system's memory
  /// pressure calls for.
  public func trim() {
    for entry in entries.values where !entry.isObserved { evict(entry, .memoryPressure) }
  }

  /// How often the sweeper checks the lives of following owners: once per grace time, and
  /// never more often than once a second.
  private var ownerCheck: Duration { max(graceTime, .seconds(1)) }

  /// Makes sure the sweeper runs: one task for the whole store, sleeping on the clock until
  /// the next unobserved entry's grace time is up (one sleeper, however many entries).
  func scheduleSweep() {
    guard sweeper == nil else { return }
    // Holds the store weakly, also while it sleeps: a store nobody keeps goes, and its
    // `deinit` cancels the sweeper.
    sweeper = Task { @MainActor [weak self, clock] in
      while true {
        guard let wait = self?.dropExpiredEntries() else { break }
        do { try await clock.sleep(for: wait) } catch { break }
      }
      self?.sweeper = nil
    }
  }

  /// Drops every entry unobserved for `graceTime` or more; returns how long until the next
  /// one's grace time is up (or the next check of a following owner's life), or `nil` when
  /// no entry waits.
  private func dropExpiredEntries() -> Duration? {
    let now = self.now
    var next: Duration?
    var expired: [any AnySharedEntry] = []
    for entry in entries.values {
      if entry.hasBoundObservers {
        // A key-path follower whose owner is gone ends here; the entry's grace time then
        // counts from now. One still alive is checked again after a grace time.
        entry.pruneObservers()
        if entry.hasBoundObservers { next = min(next ?? now + ownerCheck, now + ownerCheck) }
      }
      guard let since = entry.unobservedSince else { continue }
      if entry.isFetching {
        // A fetch in flight is in use (a caller may await it) even when nobody observes the
        // entry: look again a grace time from now, once it may have ended.
        next = min(next ?? now + graceTime, now + graceTime)
        continue
      }
      let deadline = since + graceTime
      if deadline <= now {
        expired.append(entry)
      } else {
        next = min(next ?? deadline, deadline)
      }
    }
    for entry in expired { evict(entry, .graceTime) }
    return next.map { $0 - now }
  }

  /// Counts a use of `entry`, for least-recently-used eviction.
  func touch(_ entry: any AnySharedEntry) {
    uses &+= 1
    entry.lastUse = uses
  }

  /// Removes `entry`, if it is still the one held for its key, and stops its work; returns
  /// whether it was.
  @discardableResult
  func drop(_ entry: any AnySharedEntry) -> Bool {
    guard let held = entries[entry.registryKey], held === entry else { return false }
    entries[entry.registryKey] = nil
    entry.wasDropped()
    return true
  }

  /// Drops `entry` on the store's own account (see ``drop(_:)``), for `cause`.
  private func evict(_ entry: any AnySharedEntry, _ cause: EvictionCause) {
    guard drop(entry), LoadEvents.isOn else { return }
    LoadEvents.report(
      .entryEvicted, .entry(entry.key), detail: cause.detail, store: ObjectIdentifier(self))
  }

  func evictIfNeeded() {
    while entries.count > maxEntries {
      // An entry whose fetch is in flight stays: a caller may await it.
      let candidates = entries.values.filter { !$0.isObserved && !$0.isFetching }
      guard let oldest = candidates.min(by: { $0.lastUse < $1.lastUse }) else { return }
      evict(oldest, .maxEntries)
    }
  }

  /// Drops every entry nobody observes (see ``trim()``) whenever `signals` delivers an
  /// element, until `signals` ends or throws, or the calling task is cancelled.
  ///
  /// The store's answer to memory pressure, for any source of warnings: on iOS, iPadOS,
  /// tvOS, visionOS and Mac Catalyst `trimOnMemoryWarnings()` is this with UIKit's
  /// memory warning; elsewhere hand it a sequence of your own, and in tests one you
  /// control. Run it for as long as the store should listen — in a task of its own, or in
  /// the `.task` of the app's root view:
  ///
  /// ```swift
  /// let (warnings, warn) = AsyncStream.makeStream(of: Void.self)
  /// let listening = Task { await store.trim(whenever: warnings) }
  /// warn.yield()  // the unobserved entries leave the store
  /// listening.cancel()
  /// ```
  ///
  /// It keeps the store alive while it runs. The sequence is iterated off the main actor
  /// (its elements are ignored and never cross to it); each trim runs on the main actor.
  ///
  /// - Parameter signals: The warnings.
  public nonisolated func trim<Signals: AsyncSequence>(whenever signals: Signals) async {
    do {
      for try await _ in signals {
        guard !Task.isCancelled else { return }
        await trim()
      }
    } catch {
      return
    }
  }
}

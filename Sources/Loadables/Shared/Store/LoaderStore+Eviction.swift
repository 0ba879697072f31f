// Eviction: what leaves a store, and when. The rules are decided by the pure
// `EvictionBook`; this file gathers each entry's facts, asks it, and performs what it says:
// one sweeper task for the whole store for the grace time, the bound on `maxEntries` after
// each new entry, and `trim` on memory pressure.

extension LoaderStore {
  /// Drops every entry nobody observes (and stops its fetch), as the system's memory
  /// pressure calls for.
  public func trim() {
    let held = Array(entries.values)
    perform(EvictionBook.trim(held.map(\.evictionFacts)), on: held)
  }

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
    let held = Array(entries.values)
    // A key-path follower whose owner is gone ends here (an effect the book cannot make):
    // the entry's grace time then counts from now.
    for entry in held where entry.hasBoundObservers { entry.pruneObservers() }
    let sweep = EvictionBook(graceTime: graceTime).sweep(held.map(\.evictionFacts), at: now)
    perform(sweep.evictions, on: held)
    return sweep.nextCheck
  }

  /// Drops the entries `evictions` name among `held`.
  private func perform(_ evictions: [EvictionBook.Eviction], on held: [any AnySharedEntry]) {
    for eviction in evictions { evict(held[eviction.index], eviction.cause) }
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

  /// Drops the least recently used unobserved entries while the store holds more than
  /// ``maxEntries``.
  func evictIfNeeded() {
    guard entries.count > maxEntries else { return }
    let held = Array(entries.values)
    perform(EvictionBook.overflow(held.map(\.evictionFacts), maxEntries: maxEntries), on: held)
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

extension AnySharedEntry {
  /// What the eviction rules look at (``EvictionBook/Facts``).
  var evictionFacts: EvictionBook.Facts {
    EvictionBook.Facts(
      isObserved: isObserved, isFetching: isFetching, unobservedSince: unobservedSince,
      hasBoundObservers: hasBoundObservers, lastUse: lastUse)
  }
}

/// The table of key-path slots: one entry per live owner instance, one slot per key path.
///
/// Keyed by the owner's identity (never by its class), so two instances never share a slot.
/// An entry holds its owner weakly and a slot leaves the table when its load ends, so a
/// finished load leaves nothing behind. Entries whose owner died while a load was still
/// running are swept (and their loads cancelled) as the table grows, and an identity reused
/// by a new object never inherits a dead owner's slots.
@MainActor
enum SlotRegistry {
  private final class Entry {
    weak var owner: AnyObject?
    var slots: [(keyPath: AnyKeyPath, slot: LoadSlot)] = []

    init(owner: AnyObject) { self.owner = owner }
  }

  private static var entries: [ObjectIdentifier: Entry] = [:]
  private static var sweepThreshold = 64

  /// The slot for `keyPath` on `owner`, created if there is none.
  static func slot<Owner: AnyObject, State: EngineState>(
    _ owner: Owner,
    _ keyPath: ReferenceWritableKeyPath<Owner, State>
  ) -> KeyPathSlot<Owner, State> {
    // With `create: true` there is always a slot.
    lookUp(owner, keyPath, create: true)!
  }

  /// The slot for `keyPath` on `owner`, if a load created one.
  static func existingSlot<Owner: AnyObject, State: EngineState>(
    _ owner: Owner,
    _ keyPath: ReferenceWritableKeyPath<Owner, State>
  ) -> KeyPathSlot<Owner, State>? {
    lookUp(owner, keyPath, create: false)
  }

  private static func lookUp<Owner: AnyObject, State: EngineState>(
    _ owner: Owner,
    _ keyPath: ReferenceWritableKeyPath<Owner, State>,
    create: Bool
  ) -> KeyPathSlot<Owner, State>? {
    let id = ObjectIdentifier(owner)
    let entry: Entry
    if let existing = entries[id], existing.owner === owner {
      entry = existing
    } else {
      guard create else { return nil }
      if let stale = entries.removeValue(forKey: id) { stop(stale) }
      sweepIfNeeded()
      entry = Entry(owner: owner)
      entries[id] = entry
    }
    for candidate in entry.slots where candidate.keyPath == keyPath {
      if let slot = candidate.slot as? KeyPathSlot<Owner, State> { return slot }
    }
    guard create else { return nil }
    let slot = KeyPathSlot(owner: owner, keyPath: keyPath)
    entry.slots.append((keyPath, slot))
    return slot
  }

  /// Removes an idle slot; removes its owner's entry when that was the last one.
  static func remove(_ slot: LoadSlot, keyPath: AnyKeyPath, ownerID: ObjectIdentifier) {
    guard let entry = entries[ownerID],
      let index = entry.slots.firstIndex(where: { $0.slot === slot })
    else { return }
    entry.slots.remove(at: index)
    if entry.slots.isEmpty { entries[ownerID] = nil }
  }

  /// The number of slots in the table, for tests and diagnostics.
  static var slotCount: Int { entries.values.reduce(0) { $0 + $1.slots.count } }

  /// The number of owners in the table, for tests and diagnostics.
  static var ownerCount: Int { entries.count }

  /// Drops every entry whose owner is gone and cancels its loads.
  static func sweep() {
    let dead = entries.filter { $0.value.owner == nil }
    for (id, entry) in dead {
      entries[id] = nil
      stop(entry)
    }
  }

  private static func sweepIfNeeded() {
    guard entries.count >= sweepThreshold else { return }
    sweep()
    sweepThreshold = max(64, entries.count * 2)
  }

  private static func stop(_ entry: Entry) {
    let slots = entry.slots
    entry.slots = []
    for (_, slot) in slots { slot.stop() }
  }
}

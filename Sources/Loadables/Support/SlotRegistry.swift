/// The table of key-path slots: one entry per live owner instance, one slot per key path.
///
/// Keyed by the owner's identity (never by its class), so two instances never share a slot.
/// Slots hold their owner weakly and a slot leaves the table when its load ends, so a
/// finished load leaves nothing behind. Entries whose owner died while a load was still
/// running are swept (and their loads cancelled) as the table grows, and an identity reused
/// by a new object never inherits a dead owner's slots.
@MainActor @usableFromInline
enum SlotRegistry {
  @MainActor private struct Entry {
    /// The first slot, kept inline: most owners load one key path at a time.
    var first: (keyPath: AnyKeyPath, slot: LoadRuntime)?
    var others: [(keyPath: AnyKeyPath, slot: LoadRuntime)] = []

    /// The owner, `nil` once it is gone, read through the entry's first slot: every slot of
    /// an entry holds the same owner weakly, and an entry leaves the table with its last
    /// slot. (A weak reference of the entry's own cost a key-path load forming and
    /// destroying it.)
    var owner: AnyObject? { (first?.slot ?? others.first?.slot)?.ownerObject }

    var isEmpty: Bool { first == nil && others.isEmpty }
    var count: Int { (first == nil ? 0 : 1) + others.count }
    var all: [LoadRuntime] { (first.map { [$0.slot] } ?? []) + others.map(\.slot) }

    /// The slot for `keyPath`, if this is `owner`'s entry.
    func slot(of owner: AnyObject, for keyPath: AnyKeyPath) -> LoadRuntime? {
      guard self.owner === owner else { return nil }
      return slot(for: keyPath)
    }

    func slot(for keyPath: AnyKeyPath) -> LoadRuntime? {
      if let first, first.keyPath == keyPath { return first.slot }
      return others.first { $0.keyPath == keyPath }?.slot
    }

    mutating func append(_ keyPath: AnyKeyPath, _ slot: LoadRuntime) {
      if first == nil { first = (keyPath, slot) } else { others.append((keyPath, slot)) }
    }

    /// Removes `slot`; returns whether the entry is empty now.
    @discardableResult
    mutating func remove(_ slot: LoadRuntime) -> Bool {
      if first?.slot === slot {
        first = others.isEmpty ? nil : others.removeFirst()
      } else if let index = others.firstIndex(where: { $0.slot === slot }) {
        others.remove(at: index)
      }
      return isEmpty
    }
  }

  /// An owner's identity as the table's key, hashed by mixing its address rather than
  /// through `Hasher`: a key-path load hashes it twice (to find and add its slot, and to
  /// remove it), and SipHash is costly each time. Addresses are unique
  /// among live objects, so a cheap mix of their bits spreads them well.
  private struct OwnerKey: Hashable {
    let id: ObjectIdentifier

    init(_ id: ObjectIdentifier) { self.id = id }

    func hash(into hasher: inout Hasher) { hasher.combine(id) }

    // `Dictionary` asks for this rather than `hash(into:)`. The seed is mixed in, so a
    // dictionary's buckets still differ from another's.
    func _rawHashValue(seed: Int) -> Int {
      let mixed = (UInt(bitPattern: id) ^ UInt(bitPattern: seed)) &* 0x9E37_79B9_7F4A_7C15
      return Int(bitPattern: mixed ^ (mixed >> 29))
    }
  }

  private struct Table {
    var entries: [OwnerKey: Entry] = [:]
    var sweepThreshold = 64
  }

  /// The table lives behind a pointer that is only ever dereferenced on the main actor:
  /// that confinement is what makes it safe, and it spares every access the dynamic
  /// exclusivity check a global variable would pay.
  private static let table: UnsafeMutablePointer<Table> = {
    let pointer = UnsafeMutablePointer<Table>.allocate(capacity: 1)
    pointer.initialize(to: Table())
    return pointer
  }()

  /// The slot for `keyPath` on `owner`, if one exists.
  @usableFromInline
  static func find(_ owner: AnyObject, _ keyPath: AnyKeyPath) -> LoadRuntime? {
    guard let index = table.pointee.entries.index(forKey: OwnerKey(ObjectIdentifier(owner))) else {
      return nil
    }
    return table.pointee.entries.values[index].slot(of: owner, for: keyPath)
  }

  /// Adds a new slot for `keyPath` on `owner` (which has none).
  ///
  /// One look-up of the owner's entry, changed in place: hashing the owner's identity again,
  /// or copying its entry out and back, costs a key-path load more than the rest of this.
  @usableFromInline
  static func insert(_ slot: LoadRuntime, _ owner: AnyObject, _ keyPath: AnyKeyPath) {
    sweepIfNeeded()
    var stale: Entry?
    insert(
      slot, keyPath,
      into: &table.pointee.entries[OwnerKey(ObjectIdentifier(owner)), default: Entry()],
      owner, stale: &stale)
    // An entry for a dead owner whose identity was reused: its loads must stop.
    if let stale { stop(stale) }
  }

  private static func insert(
    _ slot: LoadRuntime, _ keyPath: AnyKeyPath, into entry: inout Entry, _ owner: AnyObject,
    stale: inout Entry?
  ) {
    // An empty entry is a new one: entries leave the table with their last slot.
    if !entry.isEmpty, entry.owner !== owner {
      stale = entry
      entry = Entry()
    }
    entry.append(keyPath, slot)
  }

  /// Removes an idle slot; removes its owner's entry when that was the last one.
  @usableFromInline
  static func remove(_ slot: LoadRuntime, keyPath: AnyKeyPath, ownerID: ObjectIdentifier) {
    guard let index = table.pointee.entries.index(forKey: OwnerKey(ownerID)) else { return }
    guard table.pointee.entries.values[index].remove(slot) else { return }
    table.pointee.entries.remove(at: index)
    if table.pointee.entries.isEmpty, table.pointee.entries.capacity > 64 {
      // After a burst of loads the dictionary keeps its high-water storage; give it back
      // once the table is empty. Small tables keep theirs, so a steady load pays nothing.
      table.pointee.entries = [:]
    }
  }

  /// The number of slots in the table, for tests and diagnostics.
  static var slotCount: Int { table.pointee.entries.values.reduce(0) { $0 + $1.count } }

  /// The number of owners in the table, for tests and diagnostics.
  static var ownerCount: Int { table.pointee.entries.count }

  /// Drops every entry whose owner is gone and cancels its loads.
  static func sweep() {
    let dead = table.pointee.entries.filter { $0.value.owner == nil }
    for (id, entry) in dead {
      table.pointee.entries[id] = nil
      stop(entry)
    }
  }

  private static func sweepIfNeeded() {
    guard table.pointee.entries.count >= table.pointee.sweepThreshold else { return }
    sweep()
    table.pointee.sweepThreshold = max(64, table.pointee.entries.count * 2)
  }

  private static func stop(_ entry: Entry) {
    for slot in entry.all { slot.stop() }
  }
}

extension SlotRegistry {
  /// The slot for `keyPath` on `owner`, created if there is none.
  @inlinable
  static func slot<Owner: AnyObject, State: EngineState>(
    _ owner: Owner,
    _ keyPath: ReferenceWritableKeyPath<Owner, State>
  ) -> KeyPathStateStorage<Owner, State> {
    if let existing = existingSlot(owner, keyPath) { return existing }
    let slot = KeyPathStateStorage(owner: owner, keyPath: keyPath)
    insert(slot, owner, keyPath)
    return slot
  }

  /// Starts a load of `keyPath` on `owner` in a new task (its slot created if there is none),
  /// reading and writing the state through `owner`, held here, with no weak load: the one body
  /// of the key-path forms' `Task`-returning `load` and `run`.
  @inlinable @inline(__always)
  static func launch<Owner: AnyObject, State: EngineState>(
    _ owner: Owner,
    _ keyPath: ReferenceWritableKeyPath<Owner, State>,
    _ context: State.Context,
    silently: Bool,
    priority: TaskPriority?,
    interrupts: Interrupts?,
    work: Work<State>
  ) -> Task<Void, Never> {
    slot(owner, keyPath).launch(
      context, silently: silently, priority: priority, interrupts: interrupts, work: work,
      through: KeyPathStateAccess(owner, keyPath))
  }

  /// Resets `keyPath` on `owner`: stops its load, if one runs, and writes the reset state.
  /// Without a slot, a slot made for the occasion (and never put in the table) writes it, so
  /// the engine's rule for resets holds for every key path.
  @inlinable
  static func reset<Owner: AnyObject, State: EngineState>(
    _ owner: Owner,
    _ keyPath: ReferenceWritableKeyPath<Owner, State>
  ) {
    (existingSlot(owner, keyPath) ?? KeyPathStateStorage(owner: owner, keyPath: keyPath)).reset()
  }

  /// The slot for `keyPath` on `owner`, if a load created one.
  @inlinable
  static func existingSlot<Owner: AnyObject, State: EngineState>(
    _ owner: Owner,
    _ keyPath: ReferenceWritableKeyPath<Owner, State>
  ) -> KeyPathStateStorage<Owner, State>? {
    guard let slot = find(owner, keyPath) else { return nil }
    // Equal key paths have equal root and value types, so the slot made for this key path
    // is a `KeyPathStateStorage<Owner, State>`.
    return unsafeDowncast(slot, to: KeyPathStateStorage<Owner, State>.self)
  }
}

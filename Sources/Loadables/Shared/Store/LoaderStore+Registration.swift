extension LoaderStore {
  /// The entry held for `key` if its value type is `Value` (or the one kept apart for that
  /// type), counted as a use; `nil` when the store has none, so the caller makes it.
  func existingEntry<Value: Sendable>(
    for key: LoadKey, as _: Value.Type
  ) -> SharedLoader<Value>? {
    guard let existing = entries[key] else { return nil }
    if ObjectIdentifier(type(of: existing)) == loaderType(Value.self) {
      touch(existing)
      return unsafeDowncast(existing, to: SharedLoader<Value>.self)
    }
    guard let apart = entries[key.appending(ApartTag(Value.self))] else { return nil }
    touch(apart)
    return apart as? SharedLoader<Value>
  }

  /// Makes, registers and restores an entry under `registryKey` (its own key, or that key
  /// tagged with its value type when kept apart), with the store's defaults for the
  /// settings left `nil`.
  func makeEntry<Value: Sendable>(
    for key: LoadKey,
    registryKey: LoadKey,
    staleTime: Duration?,
    policy: LoadPolicy<Value>?,
    waitsForNetwork: Bool?,
    triggers: [RefreshTrigger]?,
    persisted: Bool?,
    fetch: @escaping @MainActor () async throws -> Value
  ) -> SharedLoader<Value> {
    let staleTime = staleTime ?? defaults.staleTime
    // Checked only when the settings are used: a later caller's are ignored.
    precondition(
      staleTime >= .zero,
      "LoaderStore.loader(for: \(key)): staleTime must not be negative, got \(staleTime)")
    // An entry's fetch supersedes a stale one: the store starts it after an invalidation or
    // an edit, so a policy's ignoring of starts while one runs is dropped here.
    var policy = (policy ?? defaults.policy(clock: clock)).restartingWhileRunning
    let waits = waitsForNetwork ?? defaults.waitsForNetwork
    if waits, let connectivity { policy = policy.waitsForNetwork(connectivity) }
    let persisted = persisted ?? defaults.isPersisted
    let triggers = triggers ?? defaults.refreshTriggers
    let requested = RequestedSettings(
      staleTime: staleTime, waitsForNetwork: waits, waitsInForce: waits && connectivity != nil,
      persisted: persisted)
    let entry = SharedLoader(
      key: key, registryKey: registryKey, now: now,
      settings: entrySettings(requested, triggers: triggers),
      engine: valueEngine(policy: policy), fetch: fetch)
    return register(entry, persisted: persisted, kind: "value")
  }

  /// The engine of a value entry made now with `policy`: the last value entry's when its
  /// value type is the same and both policies are plain (no steps) and keep a value on
  /// failure alike, a new one otherwise. A plain policy holds nothing else, so the engines
  /// would be the same; a policy with steps gets an engine of its own.
  func valueEngine<Value: Sendable>(policy: LoadPolicy<Value>) -> ValueEntryEngine<Value> {
    if policy.steps.isEmpty, let last = lastValueEngine as? ValueEntryEngine<Value>,
      last.isPlain, last.policy.keepsValueOnFailure == policy.keepsValueOnFailure
    {
      return last
    }
    let made = ValueEntryEngine(policy: policy)
    lastValueEngine = made
    return made
  }

  /// The settings of an entry made now: the last entry's when they are the same (entries of
  /// one kind, or made with the store's defaults, one after another), new ones otherwise.
  /// Triggers are not compared: settings with triggers are shared only when neither has any.
  func entrySettings(_ requested: RequestedSettings, triggers: [RefreshTrigger]) -> EntrySettings {
    if let last = lastEntrySettings, last.requested == requested, last.triggers.isEmpty,
      triggers.isEmpty
    {
      return last
    }
    let made = EntrySettings(
      requested: requested, triggers: triggers, clock: clock, store: self)
    lastEntrySettings = made
    return made
  }

  /// Keeps `entry`, just made, under its key: restores its saved value and saves what it
  /// writes (when `persisted`), lays the outbox's queued edits over it, and makes room.
  /// `kind` says what it is ("value", "paged") in its ``LoadEventKind/entryMade`` event.
  func register<Value: Sendable, State: SharedEntryState & Sendable>(
    _ entry: SharedEntry<Value, State>, persisted: Bool, kind: StaticString
  ) -> SharedEntry<Value, State> {
    entries[entry.registryKey] = entry
    if LoadEvents.isOn { reportMade(entry, kind: kind) }
    if let itemSync { itemSync.attach(entry) }
    if persisted, let persister { persister.attach(entry, in: self) }
    touch(entry)
    // The edits the outbox committed are laid over a value saved before their commit; its
    // queued edits over an entry made while they wait.
    outbox.layCommittedEdits(over: entry)
    if outbox.hasAppliedEdits { outbox.layEdits(over: entry) }
    scheduleSweep()
    evictIfNeeded()
    return entry
  }

  /// Reports that `entry` was made: its kind, the definition it is being made for, whether it
  /// is kept apart after a ``LoadKeyTypeMismatch``.
  private func reportMade(_ entry: any AnySharedEntry, kind: StaticString) {
    var detail = "\(kind)"
    if let makingDefinition { detail += ", defined by \(makingDefinition)" }
    if entry.registryKey != entry.key { detail += ", kept apart for \(entry.valueType)" }
    LoadEvents.report(.entryMade, .entry(entry.key), detail: detail, store: ObjectIdentifier(self))
  }

  /// The identity of `SharedLoader<Value>`, through ``lastLoaderType``.
  func loaderType<Value: Sendable>(_: Value.Type) -> ObjectIdentifier {
    let value = ObjectIdentifier(Value.self)
    if let last = lastLoaderType, last.value == value { return last.loader }
    let loader = ObjectIdentifier(SharedLoader<Value>.self)
    lastLoaderType = (value, loader)
    return loader
  }
}

// Diagnostics: what the store does when the app asks for a key in a way it cannot honour.
// A key asked for with a second value type gets an entry kept apart (reported, and asserted
// in debug builds); a later caller's setting that differs from the entry's is reported once.
// Never a trap in a shipped app.

extension LoaderStore {
  /// Reports `diagnostic` to ``onDiagnostic`` and keeps it in ``recentDiagnostics``.
  func report(_ diagnostic: StoreDiagnostic) {
    recentDiagnostics.append(diagnostic)
    if recentDiagnostics.count > 100 {
      recentDiagnostics.removeFirst(recentDiagnostics.count - 100)
    }
    onDiagnostic?(diagnostic)
  }

  /// The entry for `key` kept apart for a caller that asks for it as `asked` (a value type,
  /// or a paged list's state) while another type holds the key: made by `make`, given the
  /// key it is kept under, and the mismatch reported, the first time; found again after.
  /// One path for every kind of entry.
  func apartEntry<Value: Sendable, State: SharedEntryState & Sendable>(
    for key: LoadKey,
    asked: Any.Type,
    holding held: Any.Type,
    make: (_ registryKey: LoadKey) -> SharedEntry<Value, State>
  ) -> SharedEntry<Value, State> {
    let registryKey = key.appending(ApartTag(asked))
    if let apart = entries[registryKey] as? SharedEntry<Value, State> {
      touch(apart)
      return apart
    }
    // Made before it is reported, so an assertion handler that returns leaves a working
    // entry behind. The maker never persists it: both entries would save under one key.
    let entry = make(registryKey)
    reportMismatch(key, holding: held, asked: asked)
    return entry
  }

  /// Reports a key asked for with a second type, `asked`, after its entry for that type was
  /// made apart (see ``typeMismatchAssertion``).
  func reportMismatch(_ key: LoadKey, holding held: Any.Type, asked: Any.Type) {
    let mismatch = LoadKeyTypeMismatch(key: key, heldType: held, askedType: asked)
    report(.typeMismatch(mismatch))
    typeMismatchAssertion(mismatch)
  }

  /// The one rule for every caller that finds an entry already made (a key-based call, a
  /// definition of another type, another instance of the same definition type): each
  /// setting it states that differs from `entry`'s is not used, and is reported once per
  /// key and setting.
  func noteIgnored<Value: Sendable, State: SharedEntryState & Sendable>(
    _ entry: SharedEntry<Value, State>, staleTime: Duration?, waitsForNetwork: Bool?,
    persisted: Bool?
  ) {
    noteIgnored(
      entry.key, made: entry.requested, staleTime: staleTime, waitsForNetwork: waitsForNetwork,
      persisted: persisted)
  }

  /// ``noteIgnored(_:staleTime:waitsForNetwork:persisted:)`` on the entry's key and
  /// settings: plain values, so a read compares them without the entry's generic layout.
  func noteIgnored(
    _ key: LoadKey, made: RequestedSettings, staleTime: Duration?, waitsForNetwork: Bool?,
    persisted: Bool?
  ) {
    if let staleTime, staleTime != made.staleTime {
      noteIgnored(key, "staleTime", used: "\(made.staleTime)", asked: "\(staleTime)")
    }
    if let waitsForNetwork, waitsForNetwork != made.waitsForNetwork {
      noteIgnored(
        key, "waitsForNetwork", used: "\(made.waitsForNetwork)", asked: "\(waitsForNetwork)")
    }
    if let persisted, persisted != made.persisted {
      noteIgnored(key, "persisted", used: "\(made.persisted)", asked: "\(persisted)")
    }
  }

  private func noteIgnored(_ key: LoadKey, _ setting: String, used: String, asked: String) {
    guard reportedIgnored.insert(key.appending(setting)).inserted else { return }
    report(.settingsIgnored(key: key, setting: setting, used: used, asked: asked))
  }
}

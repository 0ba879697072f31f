/// The engine of a value's entry: each fetch runs the app's closure, which the entry's slot
/// holds (``EntryStateStorage/valueFetch``), under the entry's policy.
///
/// It holds the policy alone, so entries with the same plain policy (no steps: the store's
/// default) share one; see ``LoaderStore/valueEngine(policy:)``.
final class ValueEntryEngine<Value: Sendable>: EntryEngine<Value, LoadableState<Value>> {
  let policy: LoadPolicy<Value>
  /// Whether the policy has no steps, asked once: the engine's policy path asks it at each
  /// fetch, which in this unspecialised code looks up the metadata of the policy's step, of
  /// their array and of what a policy's start returns. Declared after the policy, in the
  /// bytes its layout leaves free.
  let isPlain: Bool

  init(policy: LoadPolicy<Value>) {
    self.policy = policy
    isPlain = policy.steps.isEmpty
    super.init()
  }

  override func startFetch(_ slot: Slot, silently: Bool, failure: (any Error)?) {
    // A value entry's slot always holds its fetch (the store makes them together); the
    // guard only spares an unwrap that could trap.
    guard let work = slot.valueFetch else { return }
    // The block holds the slot weakly, as the entry's task does: an entry gone before its
    // task runs fetches nothing.
    let block: @MainActor () async throws -> Value = { [weak slot] in
      guard slot != nil else { throw CancellationError() }
      if let failure { throw failure }
      return try await work()
    }
    if isPlain {
      slot.launchPlain(silently: silently, keepingValue: policy.keepsValueOnFailure, block: block)
    } else {
      _ = slot.launch((), silently: silently, priority: nil, policy: policy, block: block)
    }
  }

  override func cancel(_ slot: Slot) { slot.cancel() }
  override func reset(_ slot: Slot) { slot.reset() }
  override func fetch(_ slot: Slot) async throws -> Value {
    guard let work = slot.valueFetch else { throw CancellationError() }
    return try await work()
  }
  override var valueType: Any.Type { Value.self }
  override var policyDescription: String { policy.description }
}

extension EntryStateStorage where State == LoadableState<Value> {
  /// Starts a fetch with no policy steps: the plain path the policy's launch takes for an
  /// empty policy. A method of the slot, so that the slot's type, which the engine's calls
  /// take, is the slot's own rather than looked up from its generic arguments at each fetch.
  fileprivate func launchPlain(
    silently: Bool, keepingValue: Bool,
    block: @escaping @MainActor () async throws -> Value
  ) {
    _ = launch(
      (), silently: silently, keepingValue: keepingValue, priority: nil, interrupts: nil,
      work: .returning(block))
  }
}

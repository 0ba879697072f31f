/// The engine of a value's entry: each fetch runs the app's closure under the entry's
/// policy.
final class ValueEntryEngine<Value: Sendable>: EntryEngine<Value, LoadableState<Value>> {
  private let policy: LoadPolicy<Value>
  /// Whether the policy has no steps, asked once: the engine's policy path asks it at each
  /// fetch, which in this unspecialised code looks up the metadata of the policy's step, of
  /// their array and of what a policy's start returns. Declared after the policy, in the
  /// bytes its layout leaves free.
  private let isPlain: Bool
  private let work: @MainActor () async throws -> Value

  init(policy: LoadPolicy<Value>, fetch work: @escaping @MainActor () async throws -> Value) {
    self.policy = policy
    isPlain = policy.steps.isEmpty
    self.work = work
    super.init()
  }

  override func startFetch(_ slot: Slot, silently: Bool, failure: (any Error)?) {
    // The block holds the slot weakly, as the entry's task does: an entry gone before its
    // task runs fetches nothing.
    let work = self.work
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
  override func fetch() async throws -> Value { try await work() }
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

/// The engine of a value's entry: each fetch runs the app's closure under the entry's
/// policy.
final class ValueEntryEngine<Value: Sendable>: EntryEngine<Value, LoadableState<Value>> {
  private let policy: LoadPolicy<Value>
  private let work: @MainActor () async throws -> Value

  init(policy: LoadPolicy<Value>, fetch work: @escaping @MainActor () async throws -> Value) {
    self.policy = policy
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
    _ = slot.launch((), silently: silently, priority: nil, policy: policy, block: block)
  }

  override func cancel(_ slot: Slot) { slot.cancel() }
  override func reset(_ slot: Slot) { slot.reset() }
  override func fetch() async throws -> Value { try await work() }
  override var valueType: Any.Type { Value.self }
  override var policyDescription: String { policy.description }
}

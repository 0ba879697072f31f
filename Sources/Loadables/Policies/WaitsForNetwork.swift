extension LoadPolicy {
  /// Makes the load wait while `connectivity` says offline, instead of failing, and go on
  /// when the connection returns.
  ///
  /// Before each attempt of the block, while the source says offline, the load waits. The
  /// wait is observable as `isWaitingForNetwork` on every form (`$feed.isWaitingForNetwork`,
  /// `handle(\.feed).isWaitingForNetwork`, a loader's or a shared entry's `isWaitingForNetwork`),
  /// beside the state: a silent load keeps its value on screen while it waits, any other
  /// shows `.loading` as usual. When the source says online again the block runs.
  ///
  /// <!-- compile: context Model -->
  /// ```swift
  /// let connectivity = Connectivity.system
  /// $feed.load(policy: .retry(maxAttempts: 3).timeout(.seconds(10)).waitsForNetwork(connectivity)) {
  ///   try await api.feed()
  /// }
  /// ```
  ///
  /// and in the view:
  ///
  /// <!-- compile: context ModelView -->
  /// ```swift
  /// if $feed.isWaitingForNetwork { Text("Waiting for the network…") }
  /// ```
  ///
  /// The rules, wherever the step is written in the chain:
  ///
  /// | while the load waits | what happens |
  /// |---|---|
  /// | a ``retry(maxAttempts:backoff:when:retryAfter:showsFailedAttempts:clock:)-type.method`` | spends no attempt: the wait belongs to the attempt under way |
  /// | a ``timeout(_:clock:)-type.method`` | does not run down: its deadline moves on by the time spent waiting |
  /// | `cancel()`, `reset()`, a newer load, cancelling the caller | end the wait at once; an awaited load returns once it has ended |
  /// | an attempt fails while the source says offline | the network went away: the load waits for it and runs the attempt again, not counted as a retry |
  ///
  /// The wait wraps the block itself, inside every other step: `.waitsForNetwork(c).retry(…)`
  /// and `.retry(…).waitsForNetwork(c)` mean the same. A load that holds a
  /// ``limit(_:)-type.method`` permit keeps it while it waits. An attempt that fails while
  /// the source says online fails as usual; `CancellationError` and the control errors are
  /// never run again.
  ///
  /// While the source says online this costs a check per attempt: nothing waits, and no
  /// timer or task is added.
  ///
  /// A ``LoaderStore`` made with a `connectivity` applies this policy to its entries' fetches
  /// by default.
  ///
  /// - Parameter connectivity: The source that says whether the network is reachable.
  /// - Returns: A policy that waits for the network.
  @inlinable
  public static func waitsForNetwork(_ connectivity: Connectivity) -> LoadPolicy {
    LoadPolicy(steps: [networkStep(connectivity)], waitsForNetwork: true)
  }

  /// This policy, then ``waitsForNetwork(_:)-type.method`` (which wraps the block itself,
  /// wherever it is written).
  ///
  /// <!-- compile: context Policy -->
  /// ```swift
  /// .retry(maxAttempts: 3).waitsForNetwork(connectivity)
  /// ```
  ///
  /// - Parameter connectivity: The source that says whether the network is reachable.
  /// - Returns: The composed policy.
  @inlinable
  public func waitsForNetwork(_ connectivity: Connectivity) -> LoadPolicy {
    // `then(.waitsForNetwork(connectivity))`, without the one-step policy between.
    LoadPolicy(
      steps: steps + CollectionOfOne(Self.networkStep(connectivity)),
      waitsForNetwork: true,
      hasTimeout: hasTimeout,
      keepsValueOnFailure: keepsValueOnFailure,
      ignoresStartsWhileRunning: ignoresStartsWhileRunning)
  }

  /// The step ``waitsForNetwork(_:)-type.method`` adds: its source, a name in the
  /// description, and nothing to wrap (``wrap(_:)`` puts the wait around the block itself).
  @inlinable
  static func networkStep(_ connectivity: Connectivity) -> Step {
    Step(name: { "waitsForNetwork" }, wrap: nil, connectivity: connectivity)
  }

  /// `operation`, run once every source of `steps` says online: waits first while one says
  /// offline, and waits and runs it again when it fails while one does.
  ///
  /// While every source says online the gate checks them, calls `operation` and returns
  /// what it returns: the waiting and rerunning are in ``runningWhenOnline(_:on:)``,
  /// entered only offline.
  @inlinable
  static func waitingForNetwork(_ operation: @escaping Operation, on steps: [Step]) -> Operation {
    {
      if isOffline(steps) { return try await runningWhenOnline(operation, on: steps) }
      do {
        return try await operation()
      } catch {
        // Failed while offline: the network went away under it; wait and run again.
        guard !Task.isCancelled, isRetryable(error), isOffline(steps) else { throw error }
        return try await runningWhenOnline(operation, on: steps)
      }
    }
  }

  /// Whether a source of `steps` says offline now.
  @MainActor @inlinable
  static func isOffline(_ steps: [Step]) -> Bool {
    for step in steps {
      if let connectivity = step.connectivity, !connectivity.isOnlineNow { return true }
    }
    return false
  }

  /// Waits until every source of `steps` says online, then runs `operation`; when it fails
  /// while one says offline, waits and runs it again. The gate's slow path, entered only
  /// offline: not inlined, so the gate stays small.
  @MainActor @usableFromInline
  static func runningWhenOnline(
    _ operation: Operation, on steps: [Step]
  ) async throws -> Value {
    let connectivities = steps.compactMap { $0.connectivity }
    while true {
      if isOffline(steps) { try await waitForNetwork(connectivities) }
      do {
        return try await operation()
      } catch {
        guard !Task.isCancelled, isRetryable(error), isOffline(steps) else { throw error }
      }
    }
  }
}

/// Waits until every source says online, showing the wait on the load (and reporting it as a
/// ``LoadWait/network`` wait, to a load that reports its events) and pausing the timeouts
/// around it.
///
/// - Throws: `CancellationError` when the task is cancelled first.
@MainActor
func waitForNetwork(_ connectivities: [Connectivity]) async throws {
  let target = LoadScope.current.get()
  let pauses = NetworkPause.current.get()?.pauses ?? []
  target?.deliverWaitingForNetwork(true)
  reportWait(.network, began: true)
  for pause in pauses { pause.pause() }
  while !Task.isCancelled, let offline = connectivities.first(where: { !$0.isOnlineNow }) {
    await offline.untilOnline()
  }
  for pause in pauses { pause.resume() }
  reportWait(.network, began: false)
  target?.deliverWaitingForNetwork(false)
  try Task.checkCancellation()
}

/// Whether a chain of timeout pauses is bound already (a policy run inside another).
@usableFromInline
func hasPauseChain() -> Bool { NetworkPause.current.get() != nil }

/// Runs `operation` with an empty chain of timeout pauses bound, for the timeouts inside it.
@MainActor @usableFromInline
func withPauseChain<Value: Sendable>(_ operation: @MainActor () async throws -> Value)
  async throws -> Value
{
  try await NetworkPause.current.withValue(PauseChain(pauses: []), operation: operation)
}

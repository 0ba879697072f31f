// Loads started with a `LoadPolicy`. The policy wraps the block; the engine runs the wrapped
// block exactly as it runs any other, so every rule of the state machine holds unchanged.
// What the engine adds: the policy's prelude (a cached value shown as the load starts) and
// a `PolicyTarget` bound around the block, through which a retry shows its attempts.
//
// These paths are `@inlinable`, like the plain ones, and so are the forms' policy entry
// points: compiled once in the library for every state type, they would run unspecialised
// generic code that looks up generic metadata on every load (the Performance article has
// the figures). They are separate functions, so the plain loads' code is unchanged.

extension LoadMachine where State.Output: Sendable {
  /// Starts a load with `policy` in a new `Task` and returns that task. An empty policy
  /// takes the plain path, so a face never has to choose between the two.
  @inlinable
  func launch(
    _ context: State.Context,
    silently: Bool,
    priority: TaskPriority?,
    policy: LoadPolicy<State.Output>,
    block: @escaping @MainActor () async throws -> State.Output
  ) -> Task<Void, Never> {
    if policy.steps.isEmpty {
      return launch(
        context, silently: silently, keepingValue: policy.keepsValueOnFailure,
        priority: priority, interrupts: nil, work: .returning(block))
    }
    guard let (token, target) = startWithPolicy(context, silently: silently, policy: policy)
    else { return Task {} }
    let work = Work<State>.returning(policy.wrap(block))
    // The new task inherits the target bound around its creation.
    return LoadScope.current.withValue(target) {
      makeTask(token, context, priority: priority, interrupts: nil, work: work)
    }
  }

  /// Runs an awaited load with `policy` and returns the state once it has stopped, and
  /// whether that state is this load's own outcome: no newer load, `cancel()` or `reset()`
  /// came after it (each moves the generation on; a load's own end does not), and the
  /// caller was not cancelled.
  ///
  /// The shared object form (a loader) uses it. Like every awaited load, the load runs in a
  /// task of its own, never the caller's: stopping it never cancels the caller, and a caller
  /// going away cancels only the load it started. Without policy steps that task is a `Task`
  /// on the main actor, awaited with a cancellation handler; with them, the child task of
  /// every other awaited load.
  @inlinable
  func launchAndWait(
    _ context: State.Context,
    silently: Bool,
    policy: LoadPolicy<State.Output>,
    block: @escaping @MainActor () async throws -> State.Output
  ) async -> (state: State?, isOwn: Bool) {
    // Starting a load (or completing it from a fresh cache) moves the generation on by
    // exactly one; any later stop or newer load moves it on again.
    let own = generation &+ 1
    if policy.steps.isEmpty {
      // The block escapes here, so the load can run in a `Task` that starts on the main
      // actor, awaited with a cancellation handler: the same guarantee as the child task of
      // `perform` (stopping the load cancels that task, never the caller; cancelling the
      // caller cancels it), without the child's hop through the global executor.
      let task = launch(
        context, silently: silently, keepingValue: policy.keepsValueOnFailure, priority: nil,
        interrupts: nil, work: .returning(block))
      await withTaskCancellationHandler {
        await task.value
      } onCancel: {
        task.cancel()
      }
    } else {
      await runAwaited(context, silently: silently, policy: policy, block: block)
    }
    return (read(), generation == own && !Task.isCancelled)
  }

  /// Runs a load with `policy` in the caller's task and returns when it ends. An empty
  /// policy takes the plain path.
  @inlinable
  func runAwaited(
    _ context: State.Context,
    silently: Bool,
    policy: LoadPolicy<State.Output>,
    block: @escaping @MainActor () async throws -> State.Output
  ) async {
    if policy.steps.isEmpty {
      await runAwaited(
        context, silently: silently, keepingValue: policy.keepsValueOnFailure, interrupts: nil,
        returning: block)
      return
    }
    guard let (token, target) = startWithPolicy(context, silently: silently, policy: policy)
    else { return }
    let operation = policy.wrap(block)
    await inChild(token) {
      await runAndFinish(token, context) {
        .completed(try await LoadScope.current.withValue(target, operation: operation), context)
      }
    }
  }

  /// Starts a policy load: asks the policy's prelude what to show, supersedes the current
  /// load, and writes the start. Returns `nil` when no load is to run: a fresh cached value
  /// completed the load on the spot, or the policy ignores starts while a load runs and one
  /// does (``LoadPolicy/ignoreStartsWhileRunning()-type.method``). An ignored start touches
  /// nothing: the running load goes on, its generation stays (so an awaited caller's
  /// outcome is not its own), and nothing is written.
  @inlinable
  func startWithPolicy(
    _ context: State.Context,
    silently: Bool,
    policy: LoadPolicy<State.Output>
  ) -> (UInt64, PolicyTarget<Reference>)? {
    if policy.ignoresStartsWhileRunning, isBusy {
      reportIgnoredStart(silently: silently)
      return nil
    }
    switch policy.prelude() {
    case .complete(let value):
      assign(.completed(value, context))
      return nil
    case .show(let value):
      let token = start(context, silently: true, keepingValue: policy.keepsValueOnFailure)
      emit(.completed(value, context))
      return (token, PolicyTarget(reference, token, context, silently: true))
    case .fetch:
      let token = start(context, silently: silently, keepingValue: policy.keepsValueOnFailure)
      return (token, PolicyTarget(reference, token, context, silently: silently))
    }
  }
}

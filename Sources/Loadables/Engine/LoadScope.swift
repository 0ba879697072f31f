/// The running load, as code inside its block sees it: bound as a task-local value around
/// the block, so that progress reports and policies reach the load's slot from any depth of
/// the block's call tree and from the tasks it starts, with no callback threaded through.
@usableFromInline
enum LoadScope {
  @usableFromInline static let current = TaskLocal<(any LoadTarget)?>(wrappedValue: nil)
}

/// What code inside a load can tell the load's slot. Every call is dropped unless the load
/// is still the current one.
@usableFromInline
protocol LoadTarget: Sendable {
  /// Shows `progress` beside the state.
  @MainActor func deliver(_ progress: LoadingProgress)

  /// Shows which attempt of a retried load is running or waiting.
  @MainActor func deliver(_ attempt: RetryAttempt)

  /// Shows whether the load waits for the network (``LoadPolicy/waitsForNetwork(_:)``).
  @MainActor func deliverWaitingForNetwork(_ waiting: Bool)

  /// Reports that the load began (`began`) or ended a wait for `wait`, measured on `clock`
  /// (``LoadClock/current`` when `nil`), as ``LoadEventKind/waitBegan`` and
  /// ``LoadEventKind/waitEnded`` events. Only a load that reports its events does anything
  /// with it; callers check ``LoadEvents/isOn`` first (see `reportWait`), so that a wait
  /// nobody listens to costs one check.
  @MainActor func deliverWait(_ wait: LoadWait, began: Bool, clock: (any Clock<Duration>)?)

  /// Writes the failure state for `error` without ending the load: a retry that was asked
  /// to show its failed attempts.
  @MainActor func showFailure(_ error: any Error)

  /// Writes the started state again (unless the load is silent): the next attempt begins.
  @MainActor func showRestart()
}

/// A target that holds its load's slot and token: progress and attempts go to that slot
/// while the load is current.
@usableFromInline
protocol SlotTarget: LoadTarget {
  associatedtype Reference: SlotReference where Reference.Slot: LoadRuntime
  var slot: Reference { get }
  var token: UInt64 { get }
}

extension SlotTarget {
  @usableFromInline
  @MainActor func deliver(_ progress: LoadingProgress) {
    slot.value?.setProgress(progress, for: token)
  }

  @usableFromInline
  @MainActor func deliver(_ attempt: RetryAttempt) {
    slot.value?.setAttempt(attempt, for: token)
  }

  @usableFromInline
  @MainActor func deliverWaitingForNetwork(_ waiting: Bool) {
    slot.value?.setWaitingForNetwork(waiting, for: token)
  }

  @usableFromInline
  @MainActor func deliverWait(_ wait: LoadWait, began: Bool, clock: (any Clock<Duration>)?) {
    slot.value?.traceWait(wait, began: began, clock: clock, for: token)
  }
}

/// Reports that the running load (the one whose block calls it, if any) began or ended a wait
/// for `wait`, measured on `clock`: the one way a policy reports a wait. With nobody listening
/// to ``LoadEvents`` it is one check of a flag, before the task-local target is looked up.
@MainActor
func reportWait(_ wait: LoadWait, began: Bool, clock: (any Clock<Duration>)? = nil) {
  guard LoadEvents.isOn, let target = LoadScope.current.get() else { return }
  target.deliverWait(wait, began: began, clock: clock)
}

/// The target of a load whose progress someone reads: it carries progress and attempts.
@usableFromInline
struct SlotProgress<Reference: SlotReference>: SlotTarget where Reference.Slot: LoadRuntime {
  @usableFromInline let slot: Reference
  @usableFromInline let token: UInt64

  @inlinable init(_ slot: Reference, _ token: UInt64) {
    self.slot = slot
    self.token = token
  }

  // A plain load's block has no context to write states with; only policy loads do.
  @usableFromInline @MainActor func showFailure(_ error: any Error) {}
  @usableFromInline @MainActor func showRestart() {}
}

/// The target of a load started with a ``LoadPolicy``: it also lets a retry write the
/// states of its failed attempts, which needs the load's context.
@usableFromInline
struct PolicyTarget<Reference: SlotReference>: SlotTarget
where Reference.Slot: LoadMachine {
  @usableFromInline let slot: Reference
  @usableFromInline let token: UInt64
  /// The load's context (a job's kind), boxed on the main actor: the target crosses into the
  /// policy's tasks, the context is only read where the load writes, and it need not be
  /// `Sendable` (an app module's `enum Action: Equatable` cannot be both; see `StateStream`).
  @usableFromInline let context: MainActorBox<Reference.Slot.State.Context>
  @usableFromInline let silently: Bool

  @MainActor @inlinable init(
    _ slot: Reference, _ token: UInt64, _ context: Reference.Slot.State.Context, silently: Bool
  ) {
    self.slot = slot
    self.token = token
    self.context = MainActorBox(context)
    self.silently = silently
  }

  @usableFromInline
  @MainActor func showFailure(_ error: any Error) {
    guard let slot = slot.value, slot.accepts(token) else { return }
    slot.emit(.failed(error, context.value))
  }

  @usableFromInline
  @MainActor func showRestart() {
    guard !silently, let slot = slot.value, slot.accepts(token) else { return }
    if let current = slot.read(), current.isStarted(context.value) { return }
    slot.emit(.started(context.value))
  }
}

/// A value read only on the main actor, held by something that crosses isolation.
@MainActor @usableFromInline
final class MainActorBox<Value> {
  @usableFromInline let value: Value

  @inlinable init(_ value: Value) { self.value = value }
}

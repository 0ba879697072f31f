import Observation

/// What a slot shows beside its state — the running load's progress and retry attempt, and
/// the error of a failed refresh that kept its value — and the registrar through which
/// `isRunning`, `progress`, `attempt` and `refreshError` are observed; and the watchers (the
/// testing recorder) that see every state written, which only some slots have.
@MainActor
final class SlotActivity {
  let registrar = ObservationRegistrar()
  @exclusivity(unchecked) var watchers: [(id: Int, callback: @MainActor (Any) -> Void)] = []
  @exclusivity(unchecked) var nextWatcherID = 0
  @exclusivity(unchecked) var progress: LoadingProgress?
  @exclusivity(unchecked) var attempt: RetryAttempt?
  @exclusivity(unchecked) var isWaitingForNetwork = false
  @exclusivity(unchecked) var refreshError: (any Error)?
  /// Callers waiting for the running load to end (`untilIdle()`); made for the first.
  @exclusivity(unchecked) var idleWaiters: WakeList?
  /// The shared entry this slot follows, if any.
  @exclusivity(unchecked) var following: AnyObject?
  /// What the events of the current load need at its end, while it reports them.
  @exclusivity(unchecked) var trace: LoadTrace?
  /// What this slot's events name it by, once a load of it has reported one.
  @exclusivity(unchecked) var subject: LoadSubject?
  /// A shared entry's running fetch's own priority scope, when it started below the highest
  /// priority (`SharedEntry+Prefetch.swift`).
  @exclusivity(unchecked) var fetchPriority: LoadPriorityScope?
}

// The values a slot shows beside its state — the running load's progress, its retry attempt,
// whether it waits for the network, the error of a failed refresh that kept its value — and
// the shared entry a slot follows. Each is kept in the side object (`SlotActivity`) and
// observed under a marker key path of its own; a write tells observers only once someone
// read the value (its `is…Observed` flag).

extension LoadRuntime {
  /// Marks a value shown beside the state (`progress`, `attempt`, `isWaitingForNetwork`,
  /// `refreshError`) observed (`side`) and registers the current observer of its `marker`:
  /// its writes tell observers from then on.
  private final func observeSide(_ side: ObservedSides, _ marker: KeyPath<LoadRuntime, Int>) {
    observedSides.insert(side)
    observe(marker)
  }

  /// Writes a value shown beside the state into the side object, telling the observers of
  /// its `marker` if it has any.
  private final func writeSide(
    _ marker: @autoclosure () -> KeyPath<LoadRuntime, Int>, observed: Bool,
    _ write: (SlotActivity) -> Void
  ) {
    mutate(marker(), observed: observed) { write(activityObject()) }
  }

  // MARK: - Progress

  final var currentProgress: LoadingProgress? { activity?.progress }

  /// The progress the running load last reported; `nil` when it reported none or no load
  /// runs. Reading it under observation tracking registers the observer.
  @usableFromInline final var progress: LoadingProgress? {
    observeSide(.progress, \LoadRuntime.progressMarker)
    return currentProgress
  }

  /// The key that `progress` is observed under.
  nonisolated final var progressMarker: Int { 0 }

  /// Shows `progress` if the load holding `token` is still the running one.
  final func setProgress(_ progress: LoadingProgress?, for token: UInt64) {
    if isCurrent(token) { updateProgress(progress) }
  }

  final func updateProgress(_ progress: LoadingProgress?) {
    guard currentProgress != progress else { return }
    writeSide(\LoadRuntime.progressMarker, observed: observedSides.contains(.progress)) {
      $0.progress = progress
    }
  }

  // MARK: - Retry attempts

  final var currentAttempt: RetryAttempt? { activity?.attempt }

  /// The attempt a retry policy is running or waiting to run; `nil` when the running load
  /// has no retry policy or no load runs. Reading it under observation tracking registers
  /// the observer.
  @usableFromInline final var attempt: RetryAttempt? {
    observeSide(.attempt, \LoadRuntime.attemptMarker)
    return currentAttempt
  }

  /// The key that `attempt` is observed under.
  nonisolated final var attemptMarker: Int { 0 }

  /// Shows `attempt` if the load holding `token` is still the running one.
  final func setAttempt(_ attempt: RetryAttempt?, for token: UInt64) {
    if isCurrent(token) { updateAttempt(attempt) }
  }

  final func updateAttempt(_ attempt: RetryAttempt?) {
    if attempt == nil, currentAttempt == nil { return }
    writeSide(\LoadRuntime.attemptMarker, observed: observedSides.contains(.attempt)) {
      $0.attempt = attempt
    }
  }

  // MARK: - Waiting for the network

  final var currentlyWaitingForNetwork: Bool { activity?.isWaitingForNetwork ?? false }

  /// Whether the running load waits for the network (``LoadPolicy/waitsForNetwork(_:)``);
  /// `false` when no load runs. Reading it under observation tracking registers the
  /// observer.
  @usableFromInline final var isWaitingForNetwork: Bool {
    observeSide(.waiting, \LoadRuntime.waitingMarker)
    return currentlyWaitingForNetwork
  }

  /// The key that `isWaitingForNetwork` is observed under.
  nonisolated final var waitingMarker: Int { 0 }

  /// Shows whether the load holding `token` waits for the network, if it is still the
  /// running one.
  final func setWaitingForNetwork(_ waiting: Bool, for token: UInt64) {
    if isCurrent(token) { updateWaitingForNetwork(waiting) }
  }

  final func updateWaitingForNetwork(_ waiting: Bool) {
    guard currentlyWaitingForNetwork != waiting else { return }
    writeSide(\LoadRuntime.waitingMarker, observed: observedSides.contains(.waiting)) {
      $0.isWaitingForNetwork = waiting
    }
  }

  // MARK: - Refresh errors

  /// The refresh error on show, read without registering observation.
  @usableFromInline final var currentRefreshError: (any Error)? { activity?.refreshError }

  /// Whether a refresh error is on show; a key-path slot keeps its place in the table
  /// while one is.
  final var hasRefreshError: Bool { currentRefreshError != nil }

  /// The error of the last load that failed while a loaded value stayed on screen (a load
  /// with ``LoadPolicy/keepValueOnFailure()``); `nil` after a success, `reset()` or an
  /// assignment. Reading it under observation tracking registers the observer.
  @usableFromInline final var refreshError: (any Error)? {
    observeSide(.refreshError, \LoadRuntime.refreshErrorMarker)
    return currentRefreshError
  }

  /// The key that `refreshError` is observed under.
  nonisolated final var refreshErrorMarker: Int { 0 }

  /// Shows `error` beside the state, or clears it.
  @usableFromInline final func setRefreshError(_ error: (any Error)?) {
    if error == nil, currentRefreshError == nil { return }
    writeSide(\LoadRuntime.refreshErrorMarker, observed: observedSides.contains(.refreshError)) {
      $0.refreshError = error
    }
  }

  // MARK: - Following a shared entry

  /// The subscription through which this slot mirrors a shared entry's states (see
  /// `SharedLoader`); released — which ends it — when this slot starts or stops a load of
  /// its own, and with the slot. Kept in the side object: most slots never follow one.
  final var following: AnyObject? {
    get { activity?.following }
    set {
      if newValue == nil, activity?.following == nil { return }
      activityObject().following = newValue
      followedStatusChanged()
    }
  }

  /// The slot of the entry this slot follows, whose status its handle shows; `nil` when it
  /// follows none.
  final var followedRuntime: LoadRuntime? { (activity?.following as? SharedFollow)?.runtime }

  /// A handle shows the followed entry's status while its slot follows one: tells whoever
  /// observes this slot's status that what it shows may have changed.
  private final func followedStatusChanged() {
    if isRunningObserved { mutate(\LoadRuntime.runningMarker, observed: true) {} }
    if observedSides.contains(.progress) { mutate(\LoadRuntime.progressMarker, observed: true) {} }
    if observedSides.contains(.attempt) { mutate(\LoadRuntime.attemptMarker, observed: true) {} }
    if observedSides.contains(.waiting) { mutate(\LoadRuntime.waitingMarker, observed: true) {} }
    if observedSides.contains(.refreshError) {
      mutate(\LoadRuntime.refreshErrorMarker, observed: true) {}
    }
  }
}

extension LoadPolicy {
  /// Ignores a start while the slot's load (or job) runs, instead of cancelling that one: for
  /// a job that must not run twice, such as a checkout or a payment.
  ///
  /// Every other start cancels the running load and takes its place. A start under this
  /// policy that finds a load of its slot running (the same `@Process` property, key path of
  /// the same object, or loader) does nothing at all: the running load goes on uncancelled,
  /// nothing is written (no `.running`, no `.loading`, no cached value), and the block is not
  /// run, not even later. When nothing runs, the start is a start like any other.
  ///
  /// <!-- compile: context Model -->
  /// ```swift
  /// // A second tap while the first save runs does nothing: the first goes on.
  /// $saving.start(policy: .ignoreStartsWhileRunning()) { try await api.save(draft) }
  /// ```
  ///
  /// What an ignored start returns, in each shape of call:
  /// - A `Task`-returning `run` or `start` returns a task that has already finished, not the
  ///   running load's task: cancelling it cancels nothing, and awaiting it waits for nothing.
  /// - An awaited `run` or `load` returns at once, without waiting for the running load; the
  ///   state still shows it running. Code after the `await` therefore runs for the first tap
  ///   when its job has stopped, and for an ignored tap at once, while the job still runs: read
  ///   the state (`hasFinished`) there rather than assume the job ran. A loader's
  ///   ``Loader/load(silently:)`` returns the state as it is, and its
  ///   ``Loader/value(silently:)`` throws `CancellationError`, as it does for any load that
  ///   did not produce the value.
  ///
  /// It is the starting call's policy that decides: a start without it cancels the running
  /// load as usual, whatever that load's policy was. Give every call site of the job the same
  /// policy (a `static let`, say). `cancel()`, `reset()`, assigning the state, and the owner
  /// going away still stop the running load; after that, the next start runs.
  ///
  /// Where it stands in a chain does not matter: the engine asks it as the load starts,
  /// before the other policies run. The running load is running through all of them: while it
  /// waits in a `debounce`, for a permit of a `limit`, for the network, or between the
  /// attempts of a `retry`, further starts are ignored; once a `timeout` (or any failure)
  /// ends it, the next start runs. So with `debounce` the *first* start wins, not the last.
  ///
  /// With ``LoadEvents`` listening, an ignored start reports ``LoadEventKind/ignored`` (and
  /// no `started`); the running load's events go on as they would have.
  ///
  /// A shared entry's fetches do not take it: the store starts an entry's fetch to supersede
  /// one an invalidation or an edit made stale, and a load of an entry joins its running fetch
  /// already. A ``LoaderStore/edit(invalidating:_:perform:)`` or an outbox edit is no load of
  /// its own: run it inside a job with this policy to keep it from running twice.
  ///
  /// - Returns: A policy whose start is ignored while a load of its slot runs.
  public static func ignoreStartsWhileRunning() -> LoadPolicy {
    // A step with nothing to wrap, so the start takes the policy path, where the engine
    // asks the flag (an empty policy takes the plain path, which never does).
    LoadPolicy(
      steps: [Step(name: { "ignoreStartsWhileRunning" }, wrap: nil, ignoresStarts: true)],
      ignoresStartsWhileRunning: true)
  }

  /// This policy, and a start is ignored while a load of its slot runs; see
  /// ``ignoreStartsWhileRunning()-type.method``.
  ///
  /// - Returns: The policy, ignoring starts while a load runs.
  public func ignoreStartsWhileRunning() -> LoadPolicy {
    then(.ignoreStartsWhileRunning())
  }

  /// This policy without ``ignoreStartsWhileRunning()-type.method``: a shared entry's, whose
  /// fetches the store starts to supersede a stale one.
  var restartingWhileRunning: LoadPolicy {
    guard ignoresStartsWhileRunning else { return self }
    return LoadPolicy(
      steps: steps.filter { !$0.ignoresStarts },
      waitsForNetwork: waitsForNetwork, hasTimeout: hasTimeout,
      keepsValueOnFailure: keepsValueOnFailure)
  }
}

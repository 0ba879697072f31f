extension LoadPolicy {
  /// Runs the block again when it fails, waiting a backoff between attempts.
  ///
  /// The state stays `.loading` across the attempts (the failed ones do not flash `.error`
  /// unless `showsFailedAttempts` is `true`); only the last failure is written. Meanwhile
  /// observers see which attempt runs, or waits, through `attempt` (a ``RetryAttempt``) on
  /// every form.
  ///
  /// ```swift
  /// $feed.load(policy: .retry(maxAttempts: 4, when: { $0 is URLError })) {
  ///   try await api.feed()
  /// }
  /// ```
  ///
  /// Never retried: `CancellationError`, any error of a cancelled load, and the control
  /// errors (`CancelLoadable`, `ResetLoadable`, `CancelProcess`, `ResetProcess`), which end
  /// the load at once as usual.
  ///
  /// Timers: none while an attempt runs; one sleep on `clock` during each backoff, from the
  /// failure to the next attempt (none for a zero delay). A test on a `ManualClock` awaits
  /// one sleeper per backoff, or runs the clock through them all.
  ///
  /// - Parameters:
  ///   - maxAttempts: How many attempts to make in all, the first included; at least 1.
  ///   - backoff: The wait before each retry; exponential with full jitter by default.
  ///   - shouldRetry: Whether an error is worth another attempt; every error by default.
  ///   - retryAfter: The wait an error asks for, such as a server's `Retry-After`; when it
  ///     returns a duration, that wait replaces the backoff's (a negative one counts as zero).
  ///   - showsFailedAttempts: When `true`, each failed attempt writes its error, and the next
  ///     attempt writes `.loading` again (unless the load is silent).
  ///   - clock: The clock the waits are measured on; `nil` (the default) for
  ///     ``LoadClock/current``, read each time a load runs the policy.
  /// - Returns: A retrying policy.
  ///
  /// > Important: `maxAttempts` below 1 stops the program with a message naming it.
  public static func retry(
    maxAttempts: Int,
    backoff: Backoff = .exponential(),
    when shouldRetry: @escaping @Sendable (any Error) -> Bool = { _ in true },
    retryAfter: @escaping @Sendable (any Error) -> Duration? = { _ in nil },
    showsFailedAttempts: Bool = false,
    clock: (any Clock<Duration>)? = nil
  ) -> LoadPolicy {
    precondition(
      maxAttempts >= 1, "LoadPolicy.retry: maxAttempts must be at least 1, got \(maxAttempts)")
    return LoadPolicy("retry(maxAttempts: \(maxAttempts), backoff: \(backoff))") { next in
      {
        let clock = resolved(clock)
        let target = LoadScope.current.get()
        var number = 1
        target?.deliver(RetryAttempt(number: 1, maxAttempts: maxAttempts))
        while true {
          do {
            return try await next()
          } catch {
            guard number < maxAttempts, !Task.isCancelled, isRetryable(error), shouldRetry(error)
            else { throw error }
            let delay = Swift.max(retryAfter(error) ?? backoff.delay(forRetry: number), .zero)
            if showsFailedAttempts { target?.showFailure(error) }
            number += 1
            target?.deliver(
              RetryAttempt(number: number, maxAttempts: maxAttempts, lastError: error, delay: delay)
            )
            try await sleepBackoff(for: delay, on: clock)
            target?.deliver(
              RetryAttempt(number: number, maxAttempts: maxAttempts, lastError: error))
            if showsFailedAttempts { target?.showRestart() }
          }
        }
      }
    }
  }

  /// This policy, then
  /// ``retry(maxAttempts:backoff:when:retryAfter:showsFailedAttempts:clock:)-type.method``
  /// inside it.
  public func retry(
    maxAttempts: Int,
    backoff: Backoff = .exponential(),
    when shouldRetry: @escaping @Sendable (any Error) -> Bool = { _ in true },
    retryAfter: @escaping @Sendable (any Error) -> Duration? = { _ in nil },
    showsFailedAttempts: Bool = false,
    clock: (any Clock<Duration>)? = nil
  ) -> LoadPolicy {
    then(
      .retry(
        maxAttempts: maxAttempts, backoff: backoff, when: shouldRetry, retryAfter: retryAfter,
        showsFailedAttempts: showsFailedAttempts, clock: clock))
  }
}

/// Sleeps a retry's backoff on `clock`: a wait of the load, for the events, reported with the
/// attempt it waits to run and ended however the sleep ends. A function of its own, so that
/// the retry's closure (whose frame every attempt allocates) stays as small as it was.
@MainActor
func sleepBackoff(for delay: Duration, on clock: any Clock<Duration>) async throws {
  reportWait(.backoff, began: true, clock: clock)
  defer { reportWait(.backoff, began: false, clock: clock) }
  try await clock.sleep(for: delay)
}

/// Whether an error may be retried at all: cancellation and the control errors never are.
@usableFromInline
func isRetryable(_ error: any Error) -> Bool {
  !(error is CancellationError || error is CancelLoadable || error is ResetLoadable
    || error is CancelProcess || error is ResetProcess)
}

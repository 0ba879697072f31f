extension LoadPolicy {
  /// Ends the block with `TimeoutError` when it runs longer than `limit`.
  ///
  /// The block runs in a task of its own, raced against the clock. At the deadline the
  /// block's task is cancelled and the policy throws ``TimeoutError`` at once — even if the
  /// block ignores cancellation — so the state becomes `.error(TimeoutError())`. Whatever the
  /// block returns afterwards is dropped. The deadline is the one moment a load ends before
  /// its block has stopped: a load stopped while the timeout runs (a newer load, `cancel()`,
  /// `reset()`, its caller's cancellation) cancels the block and the timer, and an awaiting
  /// caller returns once the block has stopped.
  ///
  /// <!-- compile: context Model -->
  /// ```swift
  /// $report.load(policy: .timeout(.seconds(10))) { try await api.report() }
  /// ```
  ///
  /// Where it stands decides what it limits: `.timeout(.seconds(30)).retry(maxAttempts: 3)`
  /// limits all attempts together, `.retry(maxAttempts: 3).timeout(.seconds(10))` each one.
  /// To show "taking longer than expected" without ending the load, use the `interrupts:`
  /// overloads instead.
  ///
  /// Timers: one sleep on `clock` for as long as the work it limits runs, beside any the
  /// work itself starts; inside a retry one per attempt, outside one for all attempts.
  ///
  /// - Parameters:
  ///   - limit: The longest the block may run; more than zero.
  ///   - clock: The clock the limit is measured on; `nil` (the default) for
  ///     ``LoadClock/current``, read each time a load runs the policy.
  /// - Returns: A timing-out policy.
  ///
  /// > Important: A `limit` of zero or less stops the program with a message naming it.
  public static func timeout(_ limit: Duration, clock: (any Clock<Duration>)? = nil)
    -> LoadPolicy
  {
    precondition(limit > .zero, "LoadPolicy.timeout: limit must be more than zero, got \(limit)")
    return LoadPolicy("timeout(\(limit))", isTimeout: true) { next in
      {
        let clock = resolved(clock)
        // Inside a policy that waits for the network, the wait pauses this timeout.
        guard let chain = NetworkPause.current.get() else {
          return try await race(next, limit: limit, clock: clock)
        }
        let pause = TimerPause(clock: clock)
        return try await NetworkPause.current.withValue(chain.adding(pause)) {
          try await race(next, limit: limit, clock: clock, pause: pause)
        }
      }
    }
  }

  /// This policy, then ``timeout(_:clock:)-type.method`` inside it.
  public func timeout(_ limit: Duration, clock: (any Clock<Duration>)? = nil)
    -> LoadPolicy
  {
    then(.timeout(limit, clock: clock))
  }
}

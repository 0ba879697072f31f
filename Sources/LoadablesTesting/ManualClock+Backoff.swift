public import Loadables

extension ManualClock {
  /// Returns once a retry waits out its backoff before attempt `number` on this clock,
  /// however many other sleeps share it; returns the attempt, whose `delay` is the wait the
  /// retry drew.
  ///
  /// `sleepers(count: 1)` tells that *some* sleep waits, which is the backoff only when
  /// nothing else sleeps on the clock. A `.timeout` inside the retry sleeps while each
  /// attempt runs, a ``Loadables/LoaderStore`` sleeps until its next grace time is up, a
  /// debounce sleeps before the block. This waits for two things at once instead: the
  /// observed attempt says attempt `number` waits (``Loadables/RetryAttempt/isWaiting``), and
  /// a sleep of exactly that attempt's delay, begun since, waits on the clock. Then moving
  /// the clock by the delay ends the backoff:
  ///
  /// <!-- compile: context ModelTests -->
  /// ```swift
  /// model.refresh()  // .retry(maxAttempts: 3).timeout(.seconds(10)): two timers
  /// let attempt = try await clock.backoff(beforeAttempt: 2, of: model.$posts.attempt)
  /// XCTAssertTrue(attempt.lastError is URLError)
  /// clock.advance(by: try XCTUnwrap(attempt.delay))
  /// ```
  ///
  /// Pass what reads the attempt on any form: `model.$posts.attempt`,
  /// `model.handle(\.posts).attempt`, `loader.attempt`, `entry.attempt`. It is read each
  /// time other work has had a chance to run.
  ///
  /// A zero delay starts no sleep: the wait returns as soon as it sees attempt `number`
  /// waiting, which it may miss, as that wait ends at once. A backoff the clock has already
  /// been moved past cannot be seen either; wait for each backoff before moving the clock.
  ///
  /// - Parameters:
  ///   - number: The attempt whose backoff to wait for: 2 for the wait after the first
  ///     failure. At least 2.
  ///   - attempt: Reads the load's current attempt, such as `model.$posts.attempt`.
  ///   - timeout: How long, in real time, to wait before failing; must be positive.
  /// - Returns: The attempt seen waiting; its `delay` is not `nil`.
  /// - Throws: ``WaitTimeout`` naming every attempt seen and the sleepers on the clock, when
  ///   attempt `number` was not seen waiting on this clock in time, or for a `number` below
  ///   2; `CancellationError` when the waiting task is cancelled.
  @MainActor @discardableResult
  public func backoff(
    beforeAttempt number: Int,
    of attempt: @autoclosure @MainActor () -> RetryAttempt?,
    timeout: Duration = .seconds(5)
  ) async throws -> RetryAttempt {
    let what = "ManualClock.backoff(beforeAttempt: \(number))"
    guard number >= 2 else {
      throw WaitTimeout("\(what): attempt 1 runs at once, with no backoff; pass 2 or more")
    }
    guard timeout > .zero else {
      throw WaitTimeout("\(what): timeout must be positive, got \(timeout)")
    }
    var seen: [String] = []
    /// Sleeps with an id up to this one began before the attempt was seen waiting; `nil`
    /// when it was waiting already at the first look, so any sleep may be its backoff.
    var startedBefore: Int?
    var found: RetryAttempt?
    try await poll(
      timeout: timeout,
      failure: {
        let sleeps = waitingSleeps.map(\.deadline).sorted()
        var message =
          "\(what): waited \(timeout) for attempt \(number) to wait out its backoff on this "
          + "clock; attempts seen: [\(seen.joined(separator: ", "))]; "
          + "\(counted(sleeps.count, "sleeper")) (deadlines: \(Self.describe(sleeps))) at "
          + "\(now.offset)."
        if let last = attempt(), last.number == number, let delay = last.delay {
          message +=
            " No sleep of \(delay) begun since waits on this clock: does the retry wait on "
            + "another one?"
        } else {
          message +=
            " Did the load fail that often? A backoff the clock was moved past before this "
            + "call cannot be seen."
        }
        return message
      },
      condition: {
        let issued = lastIssuedID  // read first: a sleep begun after the attempt is seen is later
        let current = attempt()
        let description = current.map(String.init(describing:)) ?? "none"
        if seen.last != description { seen.append(description) }
        guard let current, current.number == number, let delay = current.delay else {
          startedBefore = issued
          return false
        }
        if delay <= .zero
          || waitingSleeps.contains(where: {
            $0.id > (startedBefore ?? 0) && $0.deadline - $0.start == delay
          })
        {
          found = current
          return true
        }
        return false
      })
    guard let found else { throw WaitTimeout("\(what): the wait ended without an attempt") }
    return found
  }
}

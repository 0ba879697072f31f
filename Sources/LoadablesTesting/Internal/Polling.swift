/// Checks `condition` each time other work has had a chance to run, until it returns `true`,
/// and throws a ``WaitTimeout`` with `failure()`'s message when it does not within `timeout`
/// of real time.
///
/// It yields between checks at first, then checks about every millisecond. `condition` may
/// throw to end the wait early with its own error.
func poll(
  timeout: Duration,
  isolation: isolated (any Actor)? = #isolation,
  failure: () -> String,
  condition: () throws -> Bool
) async throws {
  let clock = ContinuousClock()
  let start = clock.now
  var checks = 0
  while try !condition() {
    try Task.checkCancellation()
    if start.duration(to: clock.now) >= timeout { throw WaitTimeout(failure()) }
    checks += 1
    if checks < 1_000 {
      await Task.yield()
    } else {
      try await clock.sleep(for: .milliseconds(1))
    }
  }
}

/// Gives other work one turn: a yield on the caller's actor, then one on the global
/// executor, so work woken on either gets to run.
func takeTurn(isolation: isolated (any Actor)? = #isolation) async {
  await Task.yield()
  await Task.detached(priority: .low) { await Task.yield() }.value
}

/// `1 sleeper`, `2 sleepers`; `1 reply`, `2 replies` with `plural: "replies"`.
func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
  "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}

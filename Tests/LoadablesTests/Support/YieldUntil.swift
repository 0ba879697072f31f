/// Yields until `condition` holds, at most 10,000 times: long enough for every task that can
/// make progress to reach its next wait. The caller then checks what it expects, so that a
/// library that never gets there fails the test instead of hanging it.
///
/// Use it sparingly, for conditions that no gate or clock can signal (a waiter joining a
/// limiter's line, a block that should not have run).
@MainActor
func yieldUntil(_ condition: () -> Bool) async {
  for _ in 0..<10_000 where !condition() { await Task.yield() }
}

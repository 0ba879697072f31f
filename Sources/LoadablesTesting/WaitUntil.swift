/// Waits until `condition` holds, checking it each time other work has had a chance to run,
/// and throws when it does not hold within `timeout` of real time.
///
/// Use it for what no gate, clock or recorder signals: a stub that has been called, a
/// count that has grown.
///
/// <!-- compile: context ModelTests -->
/// ```swift
/// model.refresh()
/// try await waitUntil("the API to be called twice", seen: "calls: \(api.calls)") {
///   api.calls.count == 2
/// }
/// ```
///
/// It yields between checks at first, then checks about every millisecond, so it costs
/// little while it waits and returns soon after the condition holds.
///
/// - Parameters:
///   - what: What the test waits for, for the failure message.
///   - timeout: How long, in real time, to wait before failing; must be positive.
///   - seen: What the message should show of the state when the wait fails, read then.
///   - isolation: The actor to check `condition` on; the caller's by default.
///   - condition: The condition to wait for.
/// - Throws: ``WaitTimeout`` naming `what`, the time waited and `seen`; `CancellationError`
///   when the waiting task is cancelled.
public func waitUntil(
  _ what: String = "the condition",
  timeout: Duration = .seconds(5),
  seen: @autoclosure () -> String = "",
  isolation: isolated (any Actor)? = #isolation,
  _ condition: () -> Bool
) async throws {
  guard timeout > .zero else {
    throw WaitTimeout("waitUntil(\(what)): timeout must be positive, got \(timeout)")
  }
  try await poll(
    timeout: timeout,
    failure: {
      let saw = seen()
      return "waitUntil: waited \(timeout) for \(what); it never held"
        + (saw.isEmpty ? "" : "; saw \(saw)")
    }, condition: condition)
}

/// Waits until `condition`, which may suspend, holds, checking it each time other work has
/// had a chance to run, and throws when it does not hold within `timeout` of real time.
///
/// The form for state that only an `await` can read, such as an actor fake's: the
/// synchronous form's condition cannot hop onto the actor. The failure message shows what
/// `seen:` describes, read (with `await` too, if it must) when the wait fails:
///
/// <!-- compile: context ModelTests -->
/// ```swift
/// model.refresh()
/// try await waitUntil("the server to be asked twice", seen: "calls: \(await server.calls)") {
///   await server.calls.count == 2
/// }
/// ```
///
/// Each check awaits `condition` to its end before the next begins, so a condition that
/// suspends for long checks less often. A synchronous condition picks the other form, which
/// checks it on the caller's actor without suspending.
///
/// - Parameters:
///   - what: What the test waits for, for the failure message.
///   - timeout: How long, in real time, to wait before failing; must be positive.
///   - seen: What the message should show of the state when the wait fails, read then.
///   - isolation: The actor the wait runs on; the caller's by default.
///   - condition: The condition to wait for; an error it throws ends the wait with that error.
/// - Throws: ``WaitTimeout`` naming `what`, the time waited and `seen`; what `condition`
///   throws; `CancellationError` when the waiting task is cancelled.
public func waitUntil(
  _ what: String = "the condition",
  timeout: Duration = .seconds(5),
  seen: @autoclosure () async -> String = "",
  isolation: isolated (any Actor)? = #isolation,
  _ condition: () async throws -> Bool
) async throws {
  guard timeout > .zero else {
    throw WaitTimeout("waitUntil(\(what)): timeout must be positive, got \(timeout)")
  }
  let clock = ContinuousClock()
  let start = clock.now
  var checks = 0
  while try await !condition() {
    try Task.checkCancellation()
    if start.duration(to: clock.now) >= timeout {
      let saw = await seen()
      throw WaitTimeout(
        "waitUntil: waited \(timeout) for \(what); it never held"
          + (saw.isEmpty ? "" : "; saw \(saw)"))
    }
    checks += 1
    if checks < 1_000 {
      await Task.yield()
    } else {
      try await clock.sleep(for: .milliseconds(1))
    }
  }
}

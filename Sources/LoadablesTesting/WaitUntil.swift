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

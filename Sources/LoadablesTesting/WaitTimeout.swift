/// A bounded wait of `LoadablesTesting` ran out of time, or was called with input it cannot
/// use. Its description names what was awaited and what was seen instead.
///
/// ``ManualClock/sleepers(count:timeout:)``, ``ManualClock/sleeper(deadline:timeout:)``,
/// ``ManualClock/backoff(beforeAttempt:of:timeout:)``, the `run` methods of ``ManualClock``,
/// ``Gate/arrival(count:timeout:)``, the waits of ``EventGate`` and ``ScriptedFake``, both
/// forms of `waitUntil(_:timeout:seen:isolation:_:)` (a synchronous condition, or one that
/// awaits) and the waits of ``ObservationRecorder`` throw it, so a test that forgets a step
/// fails with a message within seconds instead of hanging:
///
/// ```text
/// ManualClock.sleepers(count: 2): waited 5.0 seconds for 2 sleepers; saw 1 (deadlines:
/// 2.0 seconds) at 0.0 seconds. Did the code reach its wait, or start fewer timers than that?
/// ```
public struct WaitTimeout: Error, CustomStringConvertible {
  /// The message for the test failure.
  public let description: String

  init(_ description: String) { self.description = description }
}

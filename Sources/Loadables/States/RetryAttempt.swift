/// Which attempt of a retried load is running, or waiting to run: shown beside the state
/// while a load with a
/// ``LoadPolicy/retry(maxAttempts:backoff:when:retryAfter:showsFailedAttempts:clock:)-type.method``
/// policy runs.
///
/// Read it from `$state.attempt`, `handle(\.state).attempt` or a loader's `attempt`; it is
/// observable and `nil` when no retrying load runs. A view can show "Retrying in 4 s
/// (attempt 2 of 3)" while the state itself stays `.loading`:
///
/// <!-- compile: context ModelView -->
/// ```swift
/// if let attempt = $feed.attempt, attempt.isRetry {
///   Text("Attempt \(attempt.number) of \(attempt.maxAttempts)")
/// }
/// ```
public struct RetryAttempt: Sendable, CustomStringConvertible {
  /// The attempt running or about to run, from 1 to ``maxAttempts``.
  public let number: Int

  /// How many attempts the policy makes at most.
  public let maxAttempts: Int

  /// The error the previous attempt failed with; `nil` for the first attempt.
  public let lastError: (any Error)?

  /// While the retry waits before this attempt: how long it waits. `nil` once the attempt
  /// runs.
  public let delay: Duration?

  /// Creates an attempt description.
  ///
  /// - Parameters:
  ///   - number: The attempt running or about to run, from 1.
  ///   - maxAttempts: How many attempts are made at most.
  ///   - lastError: The error of the previous attempt.
  ///   - delay: The wait before this attempt, while waiting; `nil` once it runs.
  public init(number: Int, maxAttempts: Int, lastError: (any Error)? = nil, delay: Duration? = nil)
  {
    self.number = number
    self.maxAttempts = maxAttempts
    self.lastError = lastError
    self.delay = delay
  }

  /// Whether the retry is waiting out its backoff before this attempt.
  public var isWaiting: Bool { delay != nil }

  /// Whether this is a second or later attempt.
  public var isRetry: Bool { number > 1 }

  /// `attempt 2 of 3`, or while waiting `attempt 2 of 3 starts in 1.5 seconds`.
  public var description: String {
    "attempt \(number) of \(maxAttempts)" + (delay.map { " starts in \($0)" } ?? "")
  }
}

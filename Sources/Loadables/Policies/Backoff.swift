/// How long a retry waits before each new attempt: constant, linear or exponential, with a
/// cap and jitter.
///
/// <!-- compile: context Policy -->
/// ```swift
/// .retry(maxAttempts: 5, backoff: .exponential(initial: .milliseconds(200), maxDelay: .seconds(5)))
/// .retry(maxAttempts: 3, backoff: .constant(.seconds(1)))
/// .retry(maxAttempts: 4, backoff: .linear(initial: .seconds(1), increment: .seconds(2)))
/// ```
///
/// Retry *n* is the wait before attempt *n* + 1: retry 1 follows the first failure.
///
/// > Important: Invalid values — a negative duration, a multiplier below 1, a jitter
/// > fraction outside `0...1` — stop the program with a message naming the parameter: they
/// > are programming errors, like an index out of range.
public struct Backoff: Sendable, Hashable, CustomStringConvertible {
  @usableFromInline
  enum Shape: Sendable, Hashable {
    case constant(Duration)
    case linear(initial: Duration, increment: Duration, maxDelay: Duration)
    case exponential(initial: Duration, multiplier: Double, maxDelay: Duration)
  }

  let shape: Shape

  /// How the delay is randomised.
  public let jitter: Jitter

  /// The same delay before every retry.
  ///
  /// - Parameters:
  ///   - delay: The wait before each retry; not negative.
  ///   - jitter: How the delay is randomised; none by default.
  /// - Returns: A constant backoff.
  public static func constant(_ delay: Duration, jitter: Jitter = .none) -> Backoff {
    checkNotNegative(delay, "Backoff.constant: delay")
    return Backoff(shape: .constant(delay), jitter: jitter.checked())
  }

  /// Retries at once, with no wait.
  public static var immediate: Backoff { .constant(.zero) }

  /// A delay that grows by `increment` with each retry, up to `maxDelay`.
  ///
  /// - Parameters:
  ///   - initial: The wait before the first retry; not negative.
  ///   - increment: What each later retry adds; `initial` when `nil`.
  ///   - maxDelay: The longest wait; not negative.
  ///   - jitter: How the delay is randomised; none by default.
  /// - Returns: A linear backoff.
  public static func linear(
    initial: Duration,
    increment: Duration? = nil,
    maxDelay: Duration = .seconds(60),
    jitter: Jitter = .none
  ) -> Backoff {
    checkNotNegative(initial, "Backoff.linear: initial")
    checkNotNegative(increment ?? initial, "Backoff.linear: increment")
    checkNotNegative(maxDelay, "Backoff.linear: maxDelay")
    return Backoff(
      shape: .linear(initial: initial, increment: increment ?? initial, maxDelay: maxDelay),
      jitter: jitter.checked())
  }

  /// A delay that multiplies by `multiplier` with each retry, up to `maxDelay`, with full
  /// jitter by default (a random wait between zero and the computed delay), which keeps
  /// many clients that failed together from retrying together.
  ///
  /// - Parameters:
  ///   - initial: The wait before the first retry, before jitter; not negative.
  ///   - multiplier: The growth per retry; at least 1.
  ///   - maxDelay: The longest wait, before jitter; not negative.
  ///   - jitter: How the delay is randomised; ``Jitter/full`` by default.
  /// - Returns: An exponential backoff.
  public static func exponential(
    initial: Duration = .seconds(1),
    multiplier: Double = 2,
    maxDelay: Duration = .seconds(30),
    jitter: Jitter = .full
  ) -> Backoff {
    checkNotNegative(initial, "Backoff.exponential: initial")
    checkNotNegative(maxDelay, "Backoff.exponential: maxDelay")
    precondition(
      multiplier >= 1 && multiplier.isFinite,
      "Backoff.exponential: multiplier must be at least 1, got \(multiplier)")
    return Backoff(
      shape: .exponential(initial: initial, multiplier: multiplier, maxDelay: maxDelay),
      jitter: jitter.checked())
  }

  /// The wait before retry `retry` (1 for the first), before jitter.
  ///
  /// Computed exactly, in whole attoseconds: `.exponential(initial: .milliseconds(200))`
  /// gives exactly 0.2, 0.4, 0.8 and 1.6 seconds, so a test that advances a manual clock by
  /// those amounts wakes each retry. A multiplier with up to six decimal places (`1.5`,
  /// `1.25`, `1.1`) is applied as the fraction it is written as; any other falls back to
  /// `Double` arithmetic. A delay that would pass `maxDelay` is `maxDelay`, however large the
  /// retry number or the multiplier.
  ///
  /// - Parameter retry: The retry's number, from 1.
  /// - Returns: The delay the shape gives, capped.
  public func baseDelay(forRetry retry: Int) -> Duration {
    precondition(retry >= 1, "Backoff.baseDelay(forRetry:): retry must be at least 1, got \(retry)")
    switch shape {
    case .constant(let delay):
      return delay
    case .linear(let initial, let increment, let maxDelay):
      return linearDelay(initial: initial, increment: increment, steps: retry - 1, cap: maxDelay)
    case .exponential(let initial, let multiplier, let maxDelay):
      return exponentialDelay(
        initial: initial, multiplier: multiplier, steps: retry - 1, cap: maxDelay)
    }
  }

  /// The longest delay this backoff gives before jitter, if it has a cap.
  var cap: Duration? {
    switch shape {
    case .constant: nil
    case .linear(_, _, let maxDelay), .exponential(_, _, let maxDelay): maxDelay
    }
  }

  /// The wait before retry `retry`, with jitter drawn from `generator`.
  ///
  /// - Parameters:
  ///   - retry: The retry's number, from 1.
  ///   - generator: The source of randomness.
  /// - Returns: The delay to wait.
  public func delay(forRetry retry: Int, using generator: inout some RandomNumberGenerator)
    -> Duration
  {
    jitter.apply(to: baseDelay(forRetry: retry), cap: cap, using: &generator)
  }

  /// The wait before retry `retry`, with jitter from the system's random generator.
  ///
  /// - Parameter retry: The retry's number, from 1.
  /// - Returns: The delay to wait.
  public func delay(forRetry retry: Int) -> Duration {
    var generator = SystemRandomNumberGenerator()
    return delay(forRetry: retry, using: &generator)
  }

  /// Such as `exponential(initial: 1.0 seconds, multiplier: 2.0, maxDelay: 30.0 seconds, jitter: full)`.
  public var description: String {
    let shape =
      switch shape {
      case .constant(let delay): "constant(\(delay)"
      case .linear(let initial, let increment, let maxDelay):
        "linear(initial: \(initial), increment: \(increment), maxDelay: \(maxDelay)"
      case .exponential(let initial, let multiplier, let maxDelay):
        "exponential(initial: \(initial), multiplier: \(multiplier), maxDelay: \(maxDelay)"
      }
    return shape + (jitter == .none ? ")" : ", jitter: \(jitter))")
  }
}

/// How a ``Backoff`` randomises its delay.
///
/// A jittered delay is never negative and never longer than the backoff's `maxDelay` (for
/// the linear and exponential shapes). The random part is drawn as a `Double` fraction, so
/// a jittered delay is exact only to about a nanosecond; with ``none`` the delay is exact.
public enum Jitter: Sendable, Hashable, CustomStringConvertible {
  /// The delay as computed.
  case none
  /// A random delay between zero and the computed delay ("full jitter").
  case full
  /// Half the computed delay plus a random part of the other half ("equal jitter").
  case equal
  /// The computed delay, moved up or down by a random part of it no larger than `fraction`
  /// (in `0...1`): `.proportional(0.2)` waits between 80 % and 120 %, but never longer than
  /// a linear or exponential backoff's `maxDelay`.
  case proportional(Double)

  /// The jitter, after checking its fraction.
  func checked() -> Jitter {
    if case .proportional(let fraction) = self {
      precondition(
        (0...1).contains(fraction),
        "Jitter.proportional: fraction must be in 0...1, got \(fraction)")
    }
    return self
  }

  /// Applies the jitter to `delay`: never below zero, and never above `cap` (when the
  /// backoff has one) or, for `full` and `equal`, above `delay`.
  func apply(
    to delay: Duration, cap: Duration?, using generator: inout some RandomNumberGenerator
  ) -> Duration {
    guard delay > .zero else { return .zero }
    let jittered: Duration
    switch self {
    case .none:
      return delay
    case .full:
      jittered = scaled(delay, by: Double.random(in: 0...1, using: &generator))
    case .equal:
      let half = delay / 2
      jittered = half + scaled(delay - half, by: Double.random(in: 0...1, using: &generator))
    case .proportional(let fraction):
      let change = scaled(delay, by: Double.random(in: 0...fraction, using: &generator))
      jittered = Bool.random(using: &generator) ? delay - change : delay + change
    }
    let ceiling: Duration =
      switch self {
      case .proportional: cap ?? jittered
      default: cap.map { Swift.min($0, delay) } ?? delay
      }
    return Swift.min(Swift.max(jittered, .zero), ceiling)
  }

  /// `none`, `full`, `equal` or `proportional(0.2)`.
  public var description: String {
    switch self {
    case .none: "none"
    case .full: "full"
    case .equal: "equal"
    case .proportional(let fraction): "proportional(\(fraction))"
    }
  }
}

extension Duration {
  /// The duration in seconds, as a `Double`.
  var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}

/// Stops with a message naming `name` when `duration` is negative.
func checkNotNegative(_ duration: Duration, _ name: @autoclosure () -> String) {
  precondition(duration >= .zero, "\(name()) must not be negative, got \(duration)")
}

/// `initial + increment × steps`, or `cap` once that passes it; never overflows.
private func linearDelay(initial: Duration, increment: Duration, steps: Int, cap: Duration)
  -> Duration
{
  guard initial < cap else { return cap }
  guard steps > 0, increment > .zero else { return initial }
  // `room / steps` rounds down, so an increment above it passes the cap and one at or below
  // it stays within it (and the product cannot overflow).
  let room = cap - initial
  guard increment <= room / steps else { return cap }
  return initial + increment * steps
}

/// `initial × multiplier^steps`, or `cap` once that passes it; never overflows.
private func exponentialDelay(
  initial: Duration, multiplier: Double, steps: Int, cap: Duration
) -> Duration {
  guard initial < cap else { return cap }
  guard steps > 0, initial > .zero, multiplier > 1 else { return initial }
  guard let (numerator, denominator) = decimalFraction(multiplier) else {
    let seconds = initial.seconds * pow(multiplier, steps)
    return seconds < cap.seconds ? .seconds(seconds) : cap
  }
  // Far beyond any sensible cap (about 290,000 years): a delay this long saturates.
  let limit = Duration.seconds(Int64.max)
  var delay = initial
  for step in 0..<steps {
    if step == 10_000 {
      // A multiplier this close to 1 with a retry number this large: finish in `Double`.
      let seconds = delay.seconds * pow(multiplier, steps - step)
      return seconds < cap.seconds ? .seconds(seconds) : cap
    }
    guard delay <= limit / numerator else { return cap }
    delay = delay * numerator / denominator
    guard delay < cap else { return cap }
  }
  return delay
}

/// `value` as `numerator / denominator` with a denominator of at most 10⁶, when it has at
/// most six decimal places (`1.5` is 15 / 10); `nil` otherwise.
private func decimalFraction(_ value: Double) -> (Int64, Int64)? {
  var denominator: Int64 = 1
  while denominator <= 1_000_000 {
    let scaled = value * Double(denominator)
    guard scaled < 1e15 else { return nil }
    let numerator = scaled.rounded()
    if numerator / Double(denominator) == value { return (Int64(numerator), denominator) }
    denominator *= 10
  }
  return nil
}

/// `duration × fraction` for a fraction in `0...1`, never more than `duration`.
private func scaled(_ duration: Duration, by fraction: Double) -> Duration {
  Swift.min(.seconds(duration.seconds * fraction), duration)
}

private func pow(_ base: Double, _ exponent: Int) -> Double {
  var result = 1.0
  var factor = base
  var remaining = exponent
  while remaining > 0 {
    if remaining & 1 == 1 { result *= factor }
    factor *= factor
    remaining >>= 1
  }
  return result
}

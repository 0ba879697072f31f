import Loadables
import XCTest

/// The delays a ``Backoff`` gives, before and after jitter. Jitter is drawn from a seeded
/// `SplitMix64`, so each bound is checked against the same draws on every run.
@MainActor
final class BackoffTests: XCTestCase {
  // MARK: - Base delays

  func testConstantGivesTheSameDelayBeforeEveryRetry() async {
    let backoff = Backoff.constant(.seconds(2))
    XCTAssertEqual(
      (1...5).map(backoff.baseDelay(forRetry:)), Array(repeating: .seconds(2), count: 5))
    XCTAssertEqual(Backoff.immediate.baseDelay(forRetry: 3), .zero)
  }

  func testLinearGrowsByTheIncrementUpToTheCap() async {
    let backoff = Backoff.linear(
      initial: .seconds(1), increment: .seconds(2), maxDelay: .seconds(6))
    assertSeconds((1...5).map(backoff.baseDelay(forRetry:)), [1, 3, 5, 6, 6])
  }

  func testLinearIncrementDefaultsToTheInitialDelay() async {
    let backoff = Backoff.linear(initial: .milliseconds(500))
    assertSeconds((1...4).map(backoff.baseDelay(forRetry:)), [0.5, 1, 1.5, 2])
  }

  func testExponentialMultipliesUpToTheCap() async {
    let backoff = Backoff.exponential(
      initial: .seconds(1), multiplier: 2, maxDelay: .seconds(30), jitter: .none)
    assertSeconds((1...7).map(backoff.baseDelay(forRetry:)), [1, 2, 4, 8, 16, 30, 30])
    let gentle = Backoff.exponential(
      initial: .milliseconds(200), multiplier: 1.5, maxDelay: .seconds(1), jitter: .none)
    assertSeconds((1...5).map(gentle.baseDelay(forRetry:)), [0.2, 0.3, 0.45, 0.675, 1])
  }

  func testAHugeRetryNumberStaysAtTheCap() async {
    let backoff = Backoff.exponential(initial: .seconds(1), maxDelay: .seconds(30))
    XCTAssertEqual(backoff.baseDelay(forRetry: 5_000), .seconds(30))
    let linear = Backoff.linear(initial: .seconds(1), maxDelay: .seconds(60))
    XCTAssertEqual(linear.baseDelay(forRetry: 1_000_000), .seconds(60))
  }

  // MARK: - Jitter

  func testExponentialUsesFullJitterByDefault() async {
    let backoff = Backoff.exponential(initial: .seconds(1))
    XCTAssertEqual(backoff.jitter, .full)
    // Retry 3 has a base delay of 4 s: full jitter draws from the whole of 0...4 s.
    let draws = delays(backoff, retry: 3)
    assertAll(draws, in: 0...4)
    XCTAssertLessThan(draws.min()!, 0.4, "full jitter never drew a short delay")
    XCTAssertGreaterThan(draws.max()!, 3.6, "full jitter never drew a long delay")
  }

  func testLinearAndConstantHaveNoJitterByDefault() async {
    var generator = SplitMix64(seed: 1)
    let linear = Backoff.linear(initial: .seconds(1))
    let constant = Backoff.constant(.seconds(3))
    XCTAssertEqual(linear.jitter, Jitter.none)
    XCTAssertEqual(constant.jitter, Jitter.none)
    for _ in 0..<20 {
      XCTAssertEqual(linear.delay(forRetry: 2, using: &generator), .seconds(2))
      XCTAssertEqual(constant.delay(forRetry: 2, using: &generator), .seconds(3))
    }
  }

  func testEqualJitterKeepsAtLeastHalfTheDelay() async {
    let draws = delays(.constant(.seconds(10), jitter: .equal), retry: 1)
    assertAll(draws, in: 5...10)
    XCTAssertLessThan(draws.min()!, 5.5)
    XCTAssertGreaterThan(draws.max()!, 9.5)
  }

  func testProportionalJitterMovesTheDelayBothWaysWithinTheFraction() async {
    let draws = delays(.constant(.seconds(10), jitter: .proportional(0.2)), retry: 1)
    assertAll(draws, in: 8...12)
    XCTAssertLessThan(draws.min()!, 8.5, "proportional jitter never shortened the delay")
    XCTAssertGreaterThan(draws.max()!, 11.5, "proportional jitter never lengthened the delay")
  }

  func testJitterAppliesAfterTheCapAndNeverPassesIt() async {
    let backoff = Backoff.exponential(
      initial: .seconds(1), maxDelay: .seconds(5), jitter: .proportional(0.1))
    let draws = delays(backoff, retry: 10)
    assertAll(draws, in: 4.5...5)
    XCTAssertLessThan(draws.min()!, 4.6, "proportional jitter never shortened the delay")
  }

  func testNoJitterEverGoesAboveTheCapOrBelowZero() async {
    var generator = SplitMix64(seed: 3)
    for jitter in [Jitter.full, .equal, .proportional(1), .proportional(0.5)] {
      let backoff = Backoff.linear(
        initial: .seconds(3), increment: .seconds(3), maxDelay: .seconds(7), jitter: jitter)
      for retry in 1...6 {
        for _ in 0..<200 {
          let delay = backoff.delay(forRetry: retry, using: &generator)
          XCTAssertGreaterThanOrEqual(delay, .zero, "\(jitter)")
          XCTAssertLessThanOrEqual(delay, .seconds(7), "\(jitter)")
        }
      }
    }
  }

  // MARK: - Exact durations

  func testExponentialDelaysAreExactlyTheDocumentedDurations() async {
    let backoff = Backoff.exponential(initial: .milliseconds(200), jitter: .none)
    XCTAssertEqual(
      (1...5).map(backoff.baseDelay(forRetry:)),
      [
        .milliseconds(200), .milliseconds(400), .milliseconds(800), .milliseconds(1600),
        .milliseconds(3200),
      ])
    let gentle = Backoff.exponential(
      initial: .milliseconds(200), multiplier: 1.5, maxDelay: .seconds(1), jitter: .none)
    XCTAssertEqual(
      (1...5).map(gentle.baseDelay(forRetry:)),
      [
        .milliseconds(200), .milliseconds(300), .milliseconds(450), .milliseconds(675),
        .seconds(1),
      ])
    let tenth = Backoff.exponential(
      initial: .seconds(1), multiplier: 1.1, maxDelay: .seconds(60), jitter: .none)
    XCTAssertEqual(tenth.baseDelay(forRetry: 3), .milliseconds(1210))
  }

  func testLinearDelaysAreExactlyTheDocumentedDurations() async {
    let backoff = Backoff.linear(initial: .milliseconds(100))
    XCTAssertEqual(
      (1...4).map(backoff.baseDelay(forRetry:)),
      [.milliseconds(100), .milliseconds(200), .milliseconds(300), .milliseconds(400)])
  }

  func testHugeRetryNumbersAndMultipliersSaturateAtTheCapWithoutTrapping() async {
    let steep = Backoff.exponential(
      initial: .seconds(1), multiplier: 1e300, maxDelay: .seconds(30), jitter: .none)
    XCTAssertEqual(steep.baseDelay(forRetry: 2), .seconds(30))
    XCTAssertEqual(steep.baseDelay(forRetry: .max), .seconds(30))
    let huge = Backoff.exponential(
      initial: .seconds(1), multiplier: 3, maxDelay: .seconds(Int64.max), jitter: .none)
    XCTAssertEqual(huge.baseDelay(forRetry: .max), .seconds(Int64.max))
    XCTAssertEqual(huge.baseDelay(forRetry: 4), .seconds(27))
    let slow = Backoff.exponential(
      initial: .seconds(1), multiplier: 1.000001, maxDelay: .seconds(60), jitter: .none)
    XCTAssertEqual(slow.baseDelay(forRetry: .max), .seconds(60))
    XCTAssertLessThan(slow.baseDelay(forRetry: 1_000), .seconds(2))
    let linear = Backoff.linear(
      initial: .seconds(1), increment: .seconds(Int64.max / 2), maxDelay: .seconds(Int64.max))
    XCTAssertEqual(linear.baseDelay(forRetry: .max), .seconds(Int64.max))
    XCTAssertEqual(linear.baseDelay(forRetry: 2), .seconds(1 + Int64.max / 2))
    let odd = Backoff.exponential(
      initial: .seconds(1), multiplier: .pi, maxDelay: .seconds(100), jitter: .none)
    XCTAssertEqual(seconds(odd.baseDelay(forRetry: 3)), .pi * .pi, accuracy: 1e-9)
    XCTAssertEqual(odd.baseDelay(forRetry: 9), .seconds(100))
  }

  func testAZeroDelayStaysZeroWhateverTheJitter() async {
    var generator = SplitMix64(seed: 2)
    for jitter in [Jitter.none, .full, .equal, .proportional(1)] {
      XCTAssertEqual(
        Backoff.constant(.zero, jitter: jitter).delay(forRetry: 1, using: &generator), .zero,
        "\(jitter)")
    }
  }

  func testTheSameSeedGivesTheSameDelays() async {
    let backoff = Backoff.exponential(initial: .seconds(1))
    XCTAssertEqual(delays(backoff, retry: 4, seed: 42), delays(backoff, retry: 4, seed: 42))
    XCTAssertNotEqual(delays(backoff, retry: 4, seed: 42), delays(backoff, retry: 4, seed: 43))
  }

  // MARK: - Description

  func testTheDescriptionNamesTheShapeAndTheJitter() async {
    XCTAssertEqual(
      Backoff.exponential().description,
      "exponential(initial: 1.0 seconds, multiplier: 2.0, maxDelay: 30.0 seconds, jitter: full)")
    XCTAssertEqual(Backoff.constant(.seconds(1)).description, "constant(1.0 seconds)")
    XCTAssertEqual(
      Backoff.linear(initial: .seconds(1), jitter: .proportional(0.2)).description,
      "linear(initial: 1.0 seconds, increment: 1.0 seconds, maxDelay: 60.0 seconds, "
        + "jitter: proportional(0.2))")
  }

  // MARK: - Helpers

  /// 500 jittered delays for `retry`, in seconds, drawn from a generator seeded with `seed`.
  private func delays(_ backoff: Backoff, retry: Int, seed: UInt64 = 7) -> [Double] {
    var generator = SplitMix64(seed: seed)
    return (0..<500).map { _ in seconds(backoff.delay(forRetry: retry, using: &generator)) }
  }

  private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  private func assertAll(
    _ draws: [Double], in range: ClosedRange<Double>, file: StaticString = #filePath,
    line: UInt = #line
  ) {
    let outside = draws.filter { $0 < range.lowerBound - 1e-9 || $0 > range.upperBound + 1e-9 }
    XCTAssertEqual(outside, [], "delays outside \(range)", file: file, line: line)
  }

  private func assertSeconds(
    _ delays: [Duration], _ expected: [Double], file: StaticString = #filePath,
    line: UInt = #line
  ) {
    let actual = delays.map(seconds)
    XCTAssertEqual(actual.count, expected.count, file: file, line: line)
    for (got, want) in zip(actual, expected) {
      XCTAssertEqual(
        got, want, accuracy: 1e-9, "\(actual) is not \(expected)", file: file, line: line)
    }
  }
}

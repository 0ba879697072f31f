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

  func testJitterAppliesAfterTheCap() async {
    let backoff = Backoff.exponential(
      initial: .seconds(1), maxDelay: .seconds(5), jitter: .proportional(0.1))
    assertAll(delays(backoff, retry: 10), in: 4.5...5.5)
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

import Loadables
import LoadablesTesting
import XCTest

/// Out-of-range input to a public entry point stops the program with a message naming the
/// parameter and the value. These are exit tests: each runs its bad call in a child process
/// (`stopMessage`), and the test checks that it stopped and what it printed.
final class BadInputTests: XCTestCase {
  /// A negative interrupt delay is rejected with a message naming it.
  func testNegativeInterrupt() async throws {
    let message = try await stopMessage {
      await MainActor.run {
        @Loadable var numbers: LoadableState<[Int]>
        $numbers.load(
          interrupts: [.seconds(1), .seconds(-2)], block: { [1] }, onInterrupt: { _ in })
      }
    }
    XCTAssertTrue(message.contains("Loadables: interrupts must not be negative, got -2.0 seconds"))
  }
}

extension BadInputTests {
  /// A negative interrupt delay on a process is rejected the same way.
  func testNegativeProcessInterrupt() async throws {
    let message = try await stopMessage {
      await MainActor.run {
        @LoadableProcess var saving: SingleProcessState
        $saving.run(interrupts: [.milliseconds(-1)], block: {}, onInterrupt: { _ in })
      }
    }
    XCTAssertTrue(
      message.contains("Loadables: interrupts must not be negative, got -0.001 seconds"))
  }

  /// Advancing a manual clock by a negative duration is rejected with a message.
  func testNegativeClockAdvance() async throws {
    let message = try await stopMessage {
      ManualClock().advance(by: .seconds(-1))
    }
    XCTAssertTrue(
      message.contains(
        "ManualClock.advance(by:): duration must not be negative, got -1.0 seconds"))
  }

  /// Running a manual clock for a negative duration is rejected with a message.
  func testNegativeClockRun() async throws {
    let message = try await stopMessage {
      try? await ManualClock().run(for: .seconds(-1))
    }
    XCTAssertTrue(
      message.contains("ManualClock.run(for:): duration must not be negative, got -1.0 seconds"))
  }
}

// Progress is only shown, so an out-of-range value is clamped instead of stopping the
// program: a fraction computed from byte counts lands at 1.000001.
extension BadInputTests {
  /// A progress fraction outside 0...1, infinite or not a number is clamped into 0...1.
  func testFractionIsClamped() {
    let cases: [(given: Double, expected: Double)] = [
      (1.000001, 1.0), (-0.1, 0.0), (Double.nan, 0.0), (Double.infinity, 1.0),
      (-Double.infinity, 0.0), (1.5, 1.0), (0.25, 0.25), (0.0, 0.0), (1.0, 1.0),
    ]
    for (given, expected) in cases {
      let progress = LoadingProgress(fraction: given, message: "bytes")
      XCTAssertEqual(progress.fraction, expected, "fraction \(given)")
      XCTAssertEqual(progress.message, "bytes")
    }
  }

  /// An unknown fraction stays unknown.
  func testUnknownFractionStaysNil() {
    XCTAssertNil(LoadingProgress(fraction: nil).fraction)
    XCTAssertNil(LoadingProgress(fraction: nil).percent)
  }

  /// A progress percentage outside 0...100, infinite or not a number is clamped into 0...100.
  func testPercentIsClamped() {
    let cases: [(given: Double, expected: Double)] = [
      (100.0001, 100.0), (-5.0, 0.0), (Double.nan, 0.0), (Double.infinity, 100.0),
      (-Double.infinity, 0.0), (25.0, 25.0), (0.0, 0.0), (100.0, 100.0),
    ]
    for (given, expected) in cases {
      let progress = LoadingProgress(percent: given)
      XCTAssertEqual(progress.percent, expected, "percent \(given)")
      XCTAssertEqual(progress.fraction, expected / 100, "percent \(given)")
    }
  }
}

// MARK: - Retry and backoff

extension BadInputTests {
  /// A retry of zero attempts is rejected with a message naming maxAttempts.
  func testRetryZeroAttempts() async throws {
    let message = try await stopMessage {
      _ = LoadPolicy<Int>.retry(maxAttempts: 0)
    }
    XCTAssertTrue(
      message.contains("LoadPolicy.retry: maxAttempts must be at least 1, got 0"), "\(message)")
  }

  /// A negative constant backoff is rejected with a message naming it.
  func testNegativeConstantBackoff() async throws {
    let message = try await stopMessage {
      _ = Backoff.constant(.seconds(-1))
    }
    XCTAssertTrue(
      message.contains("Backoff.constant: delay must not be negative, got -1.0 seconds"),
      "\(message)")
  }

  /// A negative initial linear delay is rejected with a message naming it.
  func testNegativeLinearInitial() async throws {
    let message = try await stopMessage {
      _ = Backoff.linear(initial: .seconds(-1))
    }
    XCTAssertTrue(
      message.contains("Backoff.linear: initial must not be negative, got -1.0 seconds"),
      "\(message)")
  }

  /// A negative linear increment is rejected with a message naming it.
  func testNegativeLinearIncrement() async throws {
    let message = try await stopMessage {
      _ = Backoff.linear(initial: .seconds(1), increment: .milliseconds(-500))
    }
    XCTAssertTrue(
      message.contains("Backoff.linear: increment must not be negative, got -0.5 seconds"),
      "\(message)")
  }

  /// A negative linear cap is rejected with a message naming it.
  func testNegativeLinearCap() async throws {
    let message = try await stopMessage {
      _ = Backoff.linear(initial: .seconds(1), maxDelay: .seconds(-60))
    }
    XCTAssertTrue(
      message.contains("Backoff.linear: maxDelay must not be negative, got -60.0 seconds"),
      "\(message)")
  }

  /// A negative initial exponential delay is rejected with a message naming it.
  func testNegativeExponentialInitial() async throws {
    let message = try await stopMessage {
      _ = Backoff.exponential(initial: .seconds(-2))
    }
    XCTAssertTrue(
      message.contains("Backoff.exponential: initial must not be negative, got -2.0 seconds"),
      "\(message)")
  }

  /// A negative exponential cap is rejected with a message naming it.
  func testNegativeExponentialCap() async throws {
    let message = try await stopMessage {
      _ = Backoff.exponential(maxDelay: .seconds(-1))
    }
    XCTAssertTrue(
      message.contains("Backoff.exponential: maxDelay must not be negative, got -1.0 seconds"),
      "\(message)")
  }

  /// An exponential multiplier below 1 is rejected with a message naming it.
  func testMultiplierBelowOne() async throws {
    let message = try await stopMessage {
      _ = Backoff.exponential(multiplier: 0.5)
    }
    XCTAssertTrue(
      message.contains("Backoff.exponential: multiplier must be at least 1, got 0.5"),
      "\(message)")
  }

  /// A jitter fraction above 1 is rejected with a message naming it.
  func testJitterFractionAboveOne() async throws {
    let message = try await stopMessage {
      _ = Backoff.constant(.seconds(1), jitter: .proportional(1.5))
    }
    XCTAssertTrue(
      message.contains("Jitter.proportional: fraction must be in 0...1, got 1.5"), "\(message)")
  }

  /// A negative jitter fraction is rejected with a message naming it.
  func testNegativeJitterFraction() async throws {
    let message = try await stopMessage {
      _ = Backoff.exponential(jitter: .proportional(-0.1))
    }
    XCTAssertTrue(
      message.contains("Jitter.proportional: fraction must be in 0...1, got -0.1"), "\(message)")
  }

  /// Asking for the delay of retry 0 is rejected with a message naming it.
  func testRetryNumberZero() async throws {
    let message = try await stopMessage {
      _ = Backoff.constant(.seconds(1)).baseDelay(forRetry: 0)
    }
    XCTAssertTrue(
      message.contains("Backoff.baseDelay(forRetry:): retry must be at least 1, got 0"),
      "\(message)")
  }
}

// MARK: - Timeout

extension BadInputTests {
  /// A timeout of zero is rejected with a message naming the limit.
  func testZeroTimeout() async throws {
    let message = try await stopMessage {
      _ = LoadPolicy<Int>.timeout(.zero)
    }
    XCTAssertTrue(
      message.contains("LoadPolicy.timeout: limit must be more than zero, got 0.0 seconds"),
      "\(message)")
  }

  /// A negative timeout is rejected with a message naming the limit.
  func testNegativeTimeout() async throws {
    let message = try await stopMessage {
      _ = LoadPolicy<Int>.retry(maxAttempts: 2).timeout(.seconds(-3))
    }
    XCTAssertTrue(
      message.contains("LoadPolicy.timeout: limit must be more than zero, got -3.0 seconds"),
      "\(message)")
  }
}

// MARK: - Debounce

extension BadInputTests {
  /// A negative debounce interval is rejected with a message naming it.
  func testNegativeDebounce() async throws {
    let message = try await stopMessage {
      _ = LoadPolicy<Int>.debounce(for: .milliseconds(-300))
    }
    XCTAssertTrue(
      message.contains("LoadPolicy.debounce: interval must not be negative, got -0.3 seconds"),
      "\(message)")
  }

  /// A Debouncer with a negative interval is rejected with a message naming it.
  func testNegativeDebouncer() async throws {
    let message = try await stopMessage {
      await MainActor.run { _ = Debouncer(for: .seconds(-1), leading: true) }
    }
    XCTAssertTrue(
      message.contains("Debouncer: interval must not be negative, got -1.0 seconds"), "\(message)"
    )
  }
}

// MARK: - Concurrency limit

extension BadInputTests {
  /// A concurrency limit of zero is rejected with a message naming it.
  func testZeroLimit() async throws {
    let message = try await stopMessage {
      _ = ConcurrencyLimiter(limit: 0)
    }
    XCTAssertTrue(
      message.contains("ConcurrencyLimiter: limit must be at least 1, got 0"), "\(message)")
  }
}

// MARK: - Cache

extension BadInputTests {
  /// A negative time to live is rejected with a message naming it.
  func testNegativeTimeToLive() async throws {
    let message = try await stopMessage {
      await MainActor.run { _ = LoadCache<Int, Int>(timeToLive: .seconds(-1)) }
    }
    XCTAssertTrue(
      message.contains("LoadCache: timeToLive must not be negative, got -1.0 seconds"),
      "\(message)")
  }

  /// A negative stale window is rejected with a message naming it.
  func testNegativeStaleWindow() async throws {
    let message = try await stopMessage {
      await MainActor.run {
        _ = LoadCache<Int, Int>(timeToLive: .seconds(1), staleWhileRevalidate: .seconds(-1))
      }
    }
    XCTAssertTrue(
      message.contains("LoadCache: staleWhileRevalidate must not be negative, got -1.0 seconds"),
      "\(message)")
  }

  /// A cache of zero entries is rejected with a message naming maxEntries.
  func testZeroCacheEntries() async throws {
    let message = try await stopMessage {
      await MainActor.run { _ = LoadCache<Int, Int>(timeToLive: .seconds(1), maxEntries: 0) }
    }
    XCTAssertTrue(message.contains("LoadCache: maxEntries must be at least 1, got 0"), "\(message)")
  }
}

// MARK: - Loaders

extension BadInputTests {
  /// A loader that does not override fetch() stops with a message naming its class.
  func testFetchNotOverridden() async throws {
    let message = try await stopMessage {
      await MainActor.run { () -> Task<Void, Never> in
        let loader = UnfinishedLoader()
        return Task { @MainActor in await loader.load() }
      }.value
    }
    XCTAssertTrue(
      message.contains("UnfinishedLoader must override fetch() (BaseLoader.fetch() was called)"),
      "\(message)")
  }
}

/// A loader whose subclass forgot to override `fetch()`.
final class UnfinishedLoader: BaseLoader<Int> {}

extension BadInputTests {
  /// An empty shared key is rejected with a message.
  func testEmptyKey() async throws {
    let message = try await stopMessage {
      _ = LoadKey([])
    }
    XCTAssertTrue(message.contains("LoadKey: a key needs at least one part, got []"))
  }

  /// A negative grace time is rejected with a message naming it.
  func testNegativeGraceTime() async throws {
    let message = try await stopMessage {
      _ = await MainActor.run { LoaderStore(graceTime: .seconds(-1)) }
    }
    XCTAssertTrue(message.contains("LoaderStore: graceTime must not be negative, got -1.0 seconds"))
  }

  /// A bound below one entry is rejected with a message naming it.
  func testStoreBoundBelowOne() async throws {
    let message = try await stopMessage {
      _ = await MainActor.run { LoaderStore(maxEntries: 0) }
    }
    XCTAssertTrue(message.contains("LoaderStore: maxEntries must be at least 1, got 0"))
  }

  /// A negative stale time is rejected with a message naming it and the key.
  func testNegativeStaleTime() async throws {
    let message = try await stopMessage {
      await MainActor.run {
        _ = LoaderStore().loader(for: ["posts"], staleTime: .seconds(-5)) { 1 }
      }
    }
    XCTAssertTrue(
      message.contains(
        #"LoaderStore.loader(for: ["posts"]): staleTime must not be negative, got -5.0 seconds"#
      ))
  }

  /// A polling interval of zero is rejected with a message naming it.
  func testZeroPollingInterval() async throws {
    let message = try await stopMessage {
      _ = RefreshTrigger.every(.zero)
    }
    XCTAssertTrue(
      message.contains("RefreshTrigger.every: interval must be more than zero, got 0.0 seconds"))
  }

  /// A paged entry with maxPages below one is rejected with a message naming it.
  func testPagedLoaderMaxPagesBelowOne() async throws {
    let message = try await stopMessage {
      await MainActor.run {
        let source = PagedSource<Int, Int>(first: 1) { _ in Page(items: [], next: nil) }
        _ = LoaderStore().pagedLoader(for: ["feed"], maxPages: 0, source: source)
      }
    }
    XCTAssertTrue(
      message.contains(
        #"LoaderStore.pagedLoader(for: ["feed"]): maxPages must be at least 1, got 0"#))
  }

  /// A paged source with maxPages below one is rejected with a message naming it.
  func testPagedSourceMaxPagesBelowOne() async throws {
    let message = try await stopMessage {
      _ = PagedSource<Int, Int>(first: 1, maxPages: -1) { _ in Page(items: [], next: nil) }
    }
    XCTAssertTrue(message.contains("Loadables: PagedSource(maxPages:) must be at least 1, got -1"))
  }

  /// A numbered paged source with a page size below one is rejected with a message.
  func testPageSizeBelowOne() async throws {
    let message = try await stopMessage {
      _ = PagedSource<Int, Int>.numbered(pageSize: 0) { _, _ in [] }
    }
    XCTAssertTrue(
      message.contains("Loadables: PagedSource.numbered(pageSize:) must be at least 1, got 0"))
  }
}

extension BadInputTests {
  /// Store defaults with a negative stale time are rejected with a message naming it.
  func testNegativeDefaultStaleTime() async throws {
    let message = try await stopMessage {
      await MainActor.run {
        _ = LoaderStore(defaults: LoadDefaults(staleTime: .seconds(-1)))
      }
    }
    XCTAssertTrue(
      message.contains("LoaderStore: defaults.staleTime must not be negative, got -1.0 seconds"))
  }

  /// Store defaults with fewer than one attempt are rejected with a message naming it.
  func testZeroDefaultAttempts() async throws {
    let message = try await stopMessage {
      await MainActor.run {
        _ = LoaderStore(defaults: LoadDefaults(maxAttempts: 0))
      }
    }
    XCTAssertTrue(message.contains("LoaderStore: defaults.maxAttempts must be at least 1, got 0"))
  }

  /// A definition with a negative stale time is rejected, naming its key.
  func testNegativeDefinitionStaleTime() async throws {
    let message = try await stopMessage {
      await MainActor.run {
        struct Broken: LoadDefinition {
          var key: LoadKey { ["broken"] }
          var staleTime: Duration? { .seconds(-5) }
          func fetch() async throws -> Int { 1 }
        }
        _ = LoaderStore().loader(for: Broken())
      }
    }
    XCTAssertTrue(
      message.contains(
        #"LoaderStore.loader(for: ["broken"]): staleTime must not be negative, got -5.0 seconds"#
      ))
  }
}

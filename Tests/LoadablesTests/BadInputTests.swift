import Loadables
import LoadablesTesting
import Testing

/// Out-of-range input to a public entry point stops the program with a message naming the
/// parameter and the value. These are exit tests: each runs in a child process, and the
/// test checks how it ended and what it printed.
@Suite("Bad input")
struct BadInputTests {
  @Test("A negative interrupt delay is rejected with a message naming it")
  func negativeInterrupt() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        @Loadable var numbers: LoadableState<[Int]>
        $numbers.load(
          interrupts: [.seconds(1), .seconds(-2)], block: { [1] }, onInterrupt: { _ in })
      }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("Loadables: interrupts must not be negative, got -2.0 seconds"))
    }
  }
}

extension BadInputTests {
  @Test("A negative interrupt delay on a process is rejected the same way")
  func negativeProcessInterrupt() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        @LoadableProcess var saving: SingleProcessState
        $saving.run(interrupts: [.milliseconds(-1)], block: {}, onInterrupt: { _ in })
      }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("Loadables: interrupts must not be negative, got -0.001 seconds"))
    }
  }

  @Test("Advancing a manual clock by a negative duration is rejected with a message")
  func negativeClockAdvance() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      ManualClock().advance(by: .seconds(-1))
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains(
          "ManualClock.advance(by:): duration must not be negative, got -1.0 seconds"))
    }
  }

  @Test("Running a manual clock for a negative duration is rejected with a message")
  func negativeClockRun() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try? await ManualClock().run(for: .seconds(-1))
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("ManualClock.run(for:): duration must not be negative, got -1.0 seconds"))
    }
  }
}

// Progress is only shown, so an out-of-range value is clamped instead of stopping the
// program: a fraction computed from byte counts lands at 1.000001.
extension BadInputTests {
  @Test(
    "A progress fraction outside 0...1, infinite or not a number is clamped into 0...1",
    arguments: [
      (1.000001, 1.0), (-0.1, 0.0), (Double.nan, 0.0), (Double.infinity, 1.0),
      (-Double.infinity, 0.0), (1.5, 1.0), (0.25, 0.25), (0.0, 0.0), (1.0, 1.0),
    ])
  func fractionIsClamped(given: Double, expected: Double) {
    let progress = LoadingProgress(fraction: given, message: "bytes")
    #expect(progress.fraction == expected, "fraction \(given)")
    #expect(progress.message == "bytes")
  }

  @Test("An unknown fraction stays unknown")
  func unknownFractionStaysNil() {
    #expect(LoadingProgress(fraction: nil).fraction == nil)
    #expect(LoadingProgress(fraction: nil).percent == nil)
  }

  @Test(
    "A progress percentage outside 0...100, infinite or not a number is clamped into 0...100",
    arguments: [
      (100.0001, 100.0), (-5.0, 0.0), (Double.nan, 0.0), (Double.infinity, 100.0),
      (-Double.infinity, 0.0), (25.0, 25.0), (0.0, 0.0), (100.0, 100.0),
    ])
  func percentIsClamped(given: Double, expected: Double) {
    let progress = LoadingProgress(percent: given)
    #expect(progress.percent == expected, "percent \(given)")
    #expect(progress.fraction == expected / 100, "percent \(given)")
  }
}

// MARK: - Retry and backoff

extension BadInputTests {
  @Test("A retry of zero attempts is rejected with a message naming maxAttempts")
  func retryZeroAttempts() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = LoadPolicy<Int>.retry(maxAttempts: 0)
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("LoadPolicy.retry: maxAttempts must be at least 1, got 0"), "\(message)")
    }
  }

  @Test("A negative constant backoff is rejected with a message naming it")
  func negativeConstantBackoff() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Backoff.constant(.seconds(-1))
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("Backoff.constant: delay must not be negative, got -1.0 seconds"),
        "\(message)")
    }
  }

  @Test("A negative initial linear delay is rejected with a message naming it")
  func negativeLinearInitial() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Backoff.linear(initial: .seconds(-1))
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("Backoff.linear: initial must not be negative, got -1.0 seconds"),
        "\(message)")
    }
  }

  @Test("A negative linear increment is rejected with a message naming it")
  func negativeLinearIncrement() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Backoff.linear(initial: .seconds(1), increment: .milliseconds(-500))
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("Backoff.linear: increment must not be negative, got -0.5 seconds"),
        "\(message)")
    }
  }

  @Test("A negative linear cap is rejected with a message naming it")
  func negativeLinearCap() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Backoff.linear(initial: .seconds(1), maxDelay: .seconds(-60))
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("Backoff.linear: maxDelay must not be negative, got -60.0 seconds"),
        "\(message)")
    }
  }

  @Test("A negative initial exponential delay is rejected with a message naming it")
  func negativeExponentialInitial() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Backoff.exponential(initial: .seconds(-2))
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("Backoff.exponential: initial must not be negative, got -2.0 seconds"),
        "\(message)")
    }
  }

  @Test("A negative exponential cap is rejected with a message naming it")
  func negativeExponentialCap() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Backoff.exponential(maxDelay: .seconds(-1))
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("Backoff.exponential: maxDelay must not be negative, got -1.0 seconds"),
        "\(message)")
    }
  }

  @Test("An exponential multiplier below 1 is rejected with a message naming it")
  func multiplierBelowOne() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Backoff.exponential(multiplier: 0.5)
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("Backoff.exponential: multiplier must be at least 1, got 0.5"),
        "\(message)")
    }
  }

  @Test("A jitter fraction above 1 is rejected with a message naming it")
  func jitterFractionAboveOne() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Backoff.constant(.seconds(1), jitter: .proportional(1.5))
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("Jitter.proportional: fraction must be in 0...1, got 1.5"), "\(message)")
    }
  }

  @Test("A negative jitter fraction is rejected with a message naming it")
  func negativeJitterFraction() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Backoff.exponential(jitter: .proportional(-0.1))
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("Jitter.proportional: fraction must be in 0...1, got -0.1"), "\(message)")
    }
  }

  @Test("Asking for the delay of retry 0 is rejected with a message naming it")
  func retryNumberZero() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Backoff.constant(.seconds(1)).baseDelay(forRetry: 0)
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("Backoff.baseDelay(forRetry:): retry must be at least 1, got 0"),
        "\(message)")
    }
  }
}

// MARK: - Timeout

extension BadInputTests {
  @Test("A timeout of zero is rejected with a message naming the limit")
  func zeroTimeout() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = LoadPolicy<Int>.timeout(.zero)
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("LoadPolicy.timeout: limit must be more than zero, got 0.0 seconds"),
        "\(message)")
    }
  }

  @Test("A negative timeout is rejected with a message naming the limit")
  func negativeTimeout() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = LoadPolicy<Int>.retry(maxAttempts: 2).timeout(.seconds(-3))
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("LoadPolicy.timeout: limit must be more than zero, got -3.0 seconds"),
        "\(message)")
    }
  }
}

// MARK: - Debounce

extension BadInputTests {
  @Test("A negative debounce interval is rejected with a message naming it")
  func negativeDebounce() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = LoadPolicy<Int>.debounce(for: .milliseconds(-300))
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("LoadPolicy.debounce: interval must not be negative, got -0.3 seconds"),
        "\(message)")
    }
  }

  @Test("A Debouncer with a negative interval is rejected with a message naming it")
  func negativeDebouncer() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run { _ = Debouncer(for: .seconds(-1), leading: true) }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("Debouncer: interval must not be negative, got -1.0 seconds"), "\(message)"
      )
    }
  }
}

// MARK: - Concurrency limit

extension BadInputTests {
  @Test("A concurrency limit of zero is rejected with a message naming it")
  func zeroLimit() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = ConcurrencyLimiter(limit: 0)
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("ConcurrencyLimiter: limit must be at least 1, got 0"), "\(message)")
    }
  }
}

// MARK: - Cache

extension BadInputTests {
  @Test("A negative time to live is rejected with a message naming it")
  func negativeTimeToLive() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run { _ = LoadCache<Int, Int>(timeToLive: .seconds(-1)) }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("LoadCache: timeToLive must not be negative, got -1.0 seconds"),
        "\(message)")
    }
  }

  @Test("A negative stale window is rejected with a message naming it")
  func negativeStaleWindow() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        _ = LoadCache<Int, Int>(timeToLive: .seconds(1), staleWhileRevalidate: .seconds(-1))
      }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("LoadCache: staleWhileRevalidate must not be negative, got -1.0 seconds"),
        "\(message)")
    }
  }

  @Test("A cache of zero entries is rejected with a message naming maxEntries")
  func zeroCacheEntries() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run { _ = LoadCache<Int, Int>(timeToLive: .seconds(1), maxEntries: 0) }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("LoadCache: maxEntries must be at least 1, got 0"), "\(message)")
    }
  }
}

// MARK: - Loaders

extension BadInputTests {
  @Test("A loader that does not override fetch() stops with a message naming its class")
  func fetchNotOverridden() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run { () -> Task<Void, Never> in
        let loader = UnfinishedLoader()
        return Task { @MainActor in await loader.load() }
      }.value
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("UnfinishedLoader must override fetch() (BaseLoader.fetch() was called)"),
        "\(message)")
    }
  }
}

/// A loader whose subclass forgot to override `fetch()`.
final class UnfinishedLoader: BaseLoader<Int> {}

extension BadInputTests {
  @Test("An empty shared key is rejected with a message")
  func emptyKey() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = LoadKey([])
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("LoadKey: a key needs at least one part, got []"))
    }
  }

  @Test("A negative grace time is rejected with a message naming it")
  func negativeGraceTime() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = await MainActor.run { LoaderStore(graceTime: .seconds(-1)) }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("LoaderStore: graceTime must not be negative, got -1.0 seconds"))
    }
  }

  @Test("A bound below one entry is rejected with a message naming it")
  func storeBoundBelowOne() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = await MainActor.run { LoaderStore(maxEntries: 0) }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("LoaderStore: maxEntries must be at least 1, got 0"))
    }
  }

  @Test("A negative stale time is rejected with a message naming it and the key")
  func negativeStaleTime() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        _ = LoaderStore().loader(for: ["posts"], staleTime: .seconds(-5)) { 1 }
      }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains(
          #"LoaderStore.loader(for: ["posts"]): staleTime must not be negative, got -5.0 seconds"#
        ))
    }
  }

  @Test("A polling interval of zero is rejected with a message naming it")
  func zeroPollingInterval() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = RefreshTrigger.every(.zero)
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("RefreshTrigger.every: interval must be more than zero, got 0.0 seconds"))
    }
  }

  @Test("A paged entry with maxPages below one is rejected with a message naming it")
  func pagedLoaderMaxPagesBelowOne() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        let source = PagedSource<Int, Int>(first: 1) { _ in Page(items: [], next: nil) }
        _ = LoaderStore().pagedLoader(for: ["feed"], maxPages: 0, source: source)
      }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains(
          #"LoaderStore.pagedLoader(for: ["feed"]): maxPages must be at least 1, got 0"#))
    }
  }

  @Test("A paged source with maxPages below one is rejected with a message naming it")
  func pagedSourceMaxPagesBelowOne() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = PagedSource<Int, Int>(first: 1, maxPages: -1) { _ in Page(items: [], next: nil) }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("Loadables: PagedSource(maxPages:) must be at least 1, got -1"))
    }
  }

  @Test("A numbered paged source with a page size below one is rejected with a message")
  func pageSizeBelowOne() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = PagedSource<Int, Int>.numbered(pageSize: 0) { _, _ in [] }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("Loadables: PagedSource.numbered(pageSize:) must be at least 1, got 0"))
    }
  }
}

extension BadInputTests {
  @Test("Store defaults with a negative stale time are rejected with a message naming it")
  func negativeDefaultStaleTime() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        _ = LoaderStore(defaults: LoadDefaults(staleTime: .seconds(-1)))
      }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("LoaderStore: defaults.staleTime must not be negative, got -1.0 seconds"))
    }
  }

  @Test("Store defaults with fewer than one attempt are rejected with a message naming it")
  func zeroDefaultAttempts() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        _ = LoaderStore(defaults: LoadDefaults(maxAttempts: 0))
      }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("LoaderStore: defaults.maxAttempts must be at least 1, got 0"))
    }
  }

  @Test("A definition with a negative stale time is rejected, naming its key")
  func negativeDefinitionStaleTime() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        struct Broken: LoadDefinition {
          var key: LoadKey { ["broken"] }
          var staleTime: Duration? { .seconds(-5) }
          func fetch() async throws -> Int { 1 }
        }
        _ = LoaderStore().loader(for: Broken())
      }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains(
          #"LoaderStore.loader(for: ["broken"]): staleTime must not be negative, got -5.0 seconds"#
        ))
    }
  }
}

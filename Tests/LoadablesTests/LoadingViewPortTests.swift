import Loadables
import LoadablesTesting
import XCTest

// LoadingView 1.0.4 ported: its Demo's spellings that Loadables keeps, and the behaviours its
// own tests (Sources/Tests of janodevorg/LoadingView) check, each test naming the LoadingView
// test or Demo file it covers. Where Loadables differs by design, the test says so and checks
// what happens here instead. LoadingView's tests wait with real sleeps; these use gates and a
// ManualClock.

/// SwiftUI's `State` as its SDK declares it: a property wrapper that is not isolated, so a
/// stored property's initial value is evaluated outside the main actor.
@propertyWrapper
private struct ViewState<Value> {
  var wrappedValue: Value
}

/// A view as LoadingView's Demo declares one (`BasicLoadingDemo.swift`,
/// `MultipleLoadersDemo.swift`): `@State private var loader = BlockLoadable { ... }`, its
/// closure awaiting. A main-actor `BlockLoader.init` failed here in Swift 6 with "default
/// argument cannot be both main actor-isolated and nonisolated".
@MainActor
private struct FruitScreen {
  @ViewState var loader = BlockLoader {
    await Task.yield()
    return ["Apple", "Banana"]
  }
  @ViewState var counted = BlockLoader(policy: .retry(maxAttempts: 2)) {
    await Task.yield()
    return 3
  }
}

@MainActor
final class LoadingViewPortTests: XCTestCase {
  // Demo: BasicLoadingDemo.swift's `@State private var loader = BlockLoadable { ... }`.
  func testABlockLoaderIsAViewsStoredPropertysInitialValue() async {
    let screen = FruitScreen()

    let fruit = await screen.loader.load()
    let count = await screen.counted.load()

    XCTAssertEqual(fruit, .loaded(["Apple", "Banana"]))
    XCTAssertEqual(count, .loaded(3))
  }
}

/// A loader whose fetches run the steps of a script in turn (the last one again once the
/// script is spent), counting them: LoadingView's tests' `MockLoader` / `FailingLoader`.
@MainActor
private final class ScriptedLoader: BaseLoader<String> {
  private let steps: [@MainActor () async throws -> String]
  private(set) var fetches = 0

  init(_ steps: [@MainActor () async throws -> String]) {
    self.steps = steps
    super.init()
  }

  override func fetch() async throws -> String {
    let step = steps[min(fetches, steps.count - 1)]
    fetches += 1
    return try await step()
  }
}

@MainActor
final class LoadingViewBehaviourPortTests: XCTestCase {
  // RetryableLoaderTests.testRetryAfterOneFailure_succeedsOnSecondTry.
  func testARetryingLoaderSucceedsOnItsSecondAttempt() async throws {
    let clock = ManualClock()
    let base = ScriptedLoader([{ throw TestError(code: 1) }, { "ok" }])
    let loader = base.with(.retry(maxAttempts: 3, backoff: .constant(.seconds(1)), clock: clock))

    let load = Task { await loader.load() }
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(1))

    let state = await load.value
    XCTAssertEqual(state, .loaded("ok"))
    XCTAssertEqual(base.fetches, 2)
  }

  // RetryableLoaderTests.testExceedMaxAttempts_fails.
  func testARetryingLoaderFailsWithTheLastErrorAfterItsLastAttempt() async throws {
    let clock = ManualClock()
    let base = ScriptedLoader([{ throw TestError(code: 1) }, { throw TestError(code: 2) }])
    let loader = base.with(.retry(maxAttempts: 2, backoff: .constant(.seconds(1)), clock: clock))

    let load = Task { await loader.load() }
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(1))

    let state = await load.value
    XCTAssertEqual(state, .error(TestError(code: 2)))
    XCTAssertEqual(base.fetches, 2)
  }

  // DebouncingLoadableTests.testDebounceEffect and testImmediateExecutionFalse.
  func testADebouncedLoaderFetchesOnceForABurstOfLoads() async throws {
    let clock = ManualClock()
    let base = ScriptedLoader([{ "fetched" }])
    let loader = base.with(.debounce(for: .milliseconds(300), clock: clock))

    // `start()` supersedes the load before it at once, so the one sleeper is the new load's.
    var loads: [Task<Void, Never>] = []
    for _ in 0..<3 {
      loads.append(loader.start())
      try await clock.sleepers(count: 1)
      clock.advance(by: .milliseconds(100))
    }
    XCTAssertEqual(base.fetches, 0, "a debounced load fetched before the interval")
    clock.advance(by: .milliseconds(200))
    for load in loads { await load.value }

    XCTAssertEqual(base.fetches, 1)
    XCTAssertEqual(loader.state, .loaded("fetched"))
  }

  // DebouncingLoadableTests.testImmediateExecutionTrue (`executeFirstImmediately: true`).
  func testALeadingDebouncedLoaderFetchesTheFirstLoadAtOnce() async {
    let clock = ManualClock()
    let base = ScriptedLoader([{ "first" }])
    let loader = base.with(.debounce(Debouncer(for: .seconds(1), leading: true, clock: clock)))

    let state = await loader.load()

    XCTAssertEqual(state, .loaded("first"))
    XCTAssertEqual(base.fetches, 1)
  }

  // DebouncingLoadableWrappingTests.testResetCallsWrappedReset and
  // testCancelCallsWrappedCancel; ComposableLoadersTests.testResetPropagation. Differs by
  // design: LoadingView's wrappers forwarded `reset()` and `cancel()` to the wrapped loader.
  // A PolicyLoader has its own state and runs the wrapped loader's `fetch()`: its `reset()`
  // and `cancel()` stop that fetch and leave the wrapped loader's state as it was.
  func testAWrappersResetStopsTheWrappedFetchAndLeavesTheWrappedLoadersState() async throws {
    let gate = Gate<String>()
    let base = ScriptedLoader([{ try await gate.pass() }])
    let baseLoad = base.start()
    await gate.arrival()
    let wrapper = base.with(.retry(maxAttempts: 2))
    XCTAssertEqual(base.state, .loading)

    let load = Task { await wrapper.load() }
    await gate.arrival(count: 2)
    wrapper.reset()
    _ = await load.value

    XCTAssertEqual(wrapper.state, .absent)
    XCTAssertFalse(wrapper.isRunning)
    XCTAssertEqual(base.state, .loading, "the wrapper's reset() reached the wrapped loader")
    XCTAssertTrue(base.isRunning)
    base.cancel()
    await baseLoad.value
  }

  // ComposableLoadersTests.testCancellationPropagation.
  func testCancellingAComposedLoaderCancelsTheWrappedFetch() async {
    let gate = Gate<String>()
    let base = ScriptedLoader([{ try await gate.pass() }])
    let limiter = ConcurrencyLimiter(limit: 1)
    let loader = base.with(.retry(maxAttempts: 3).limit(limiter))

    let load = Task { await loader.load() }
    await gate.arrival()
    loader.cancel()
    let state = await load.value

    XCTAssertEqual(state, .absent, "a cancelled load left its spinner")
    XCTAssertEqual(gate.waiting, 0, "the wrapped fetch was not cancelled")
    XCTAssertEqual(limiter.runningCount, 0, "the cancelled load kept its permit")
  }

  // ComposableLoadersTests.testErrorPropagation and ConcurrencyLimitingLoadableTests
  // .testErrorPropagation.
  func testTheWrappedFetchsErrorIsTheComposedLoadersError() async {
    let base = ScriptedLoader([{ throw TestError(code: 7) }])
    let loader = base.with(.limit(ConcurrencyLimiter(limit: 2)))

    let state = await loader.load()

    XCTAssertEqual(state, .error(TestError(code: 7)))
  }

  // ConcurrencyLimitingLoadableTests.testConcurrencyLimit and testRapidLoads.
  func testLoadersSharingALimiterNeverRunMoreFetchesThanItsLimit() async {
    let gate = Gate<String>()
    let limiter = ConcurrencyLimiter(limit: 2)
    let loaders = (0..<4).map { _ in
      ScriptedLoader([{ try await gate.pass() }]).with(.limit(limiter))
    }

    let loads = loaders.map { loader in Task { await loader.load() } }
    await gate.arrival(count: 2)
    await yieldUntil { limiter.waitingCount == 2 }
    XCTAssertEqual(gate.waiting, 2, "more fetches ran than the limit")
    XCTAssertEqual(limiter.waitingCount, 2)
    gate.open("done")
    for load in loads { _ = await load.value }

    XCTAssertEqual(loaders.map(\.state), Array(repeating: .loaded("done"), count: 4))
    XCTAssertEqual(limiter.runningCount, 0)
  }

  // ConcurrencyLimitingLoadableTests.testCancellationReleasesTokens and
  // testTokenBucketCancellation (LoadingView's bucket lost the token: its next load waited
  // forever).
  func testACancelledLimitedLoadHandsItsPermitOnAndACancelledWaiterLeavesTheLine() async {
    let gate = Gate<String>()
    let limiter = ConcurrencyLimiter(limit: 1)
    let running = ScriptedLoader([{ try await gate.pass() }]).with(.limit(limiter))
    let waiting = ScriptedLoader([{ "second" }]).with(.limit(limiter))
    let next = ScriptedLoader([{ "third" }]).with(.limit(limiter))

    let first = Task { await running.load() }
    await gate.arrival()
    let second = Task { await waiting.load() }
    await yieldUntil { limiter.waitingCount == 1 }
    waiting.cancel()
    _ = await second.value
    XCTAssertEqual(limiter.waitingCount, 0, "the cancelled waiter stayed in the line")
    running.cancel()
    _ = await first.value

    let third = await next.load()
    XCTAssertEqual(third, .loaded("third"), "the permit was lost")
    XCTAssertEqual(waiting.state, .absent)
  }

  // ComposableLoadersTests.testRapidResetLoad.
  func testRapidResetsAndLoadsEndOnTheLastLoadsValue() async {
    var count = 0
    let loader = BlockLoader {
      count += 1
      await Task.yield()
      return count
    }
    for _ in 0..<20 {
      loader.start()
      loader.reset()
    }
    let state = await loader.load()

    XCTAssertEqual(state, .loaded(count))
    XCTAssertEqual(loader.state, .loaded(count))
  }

  // LoadingProgressTests.testPercentValidation.
  func testAPercentageIsClampedToZeroThroughAHundred() {
    XCTAssertEqual(LoadingProgress(percent: 150).percent, 100)
    XCTAssertEqual(LoadingProgress(percent: -5).percent, 0)
    XCTAssertEqual(LoadingProgress(percent: 50).percent, 50)
  }

  // LoadingStateTests.testErrorStateOutputsLocalizedDescription. Differs by design: a state
  // prints its error with `String(reflecting:)` (ComingFromProcessed.md, "How states and
  // errors print"), not its `localizedDescription`; the error itself is kept whole.
  func testAnErrorStateKeepsItsErrorAndPrintsItsType() {
    let state = LoadableState<Int>.error(TestError(code: 3))

    XCTAssertEqual(state.error as? TestError, TestError(code: 3))
    XCTAssertTrue(String(describing: state).contains("TestError"), String(describing: state))
  }
}

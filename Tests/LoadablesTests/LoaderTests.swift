import Loadables
import LoadablesTesting
import XCTest

@MainActor
final class LoaderTests: XCTestCase {
  final class NumbersLoader: BaseLoader<[Int]> {
    let gate = Gate<[Int]>()
    var fetches = 0
    override func fetch() async throws -> [Int] {
      fetches += 1
      return try await gate.pass()
    }
  }

  func testEveryObserverGetsTheLatestStateFirstThenEveryWriteInOrder() async throws {
    let loader = NumbersLoader()
    // Each `states` access subscribes at once; the tasks only read what was delivered.
    let early = collect(loader.states)
    let load = Task { @MainActor in await loader.load() }
    await loader.gate.arrival()
    let late = collect(loader.states)
    loader.gate.open([1, 2])
    let final = await load.value
    XCTAssertEqual(final, .loaded([1, 2]))
    let earlySeen = await early.value
    let lateSeen = await late.value
    XCTAssertEqual(earlySeen, [.absent, .loading, .loaded([1, 2])])
    XCTAssertEqual(lateSeen, [.loading, .loaded([1, 2])])
  }

  /// The states a stream delivers, up to the first loaded one.
  private func collect(_ states: StateStream<LoadableState<[Int]>>) -> Task<
    [LoadableState<[Int]>], Never
  > {
    Task {
      var seen: [LoadableState<[Int]>] = []
      for await state in states {
        seen.append(state)
        if state.isLoaded { break }
      }
      return seen
    }
  }

  func testANewLoadSupersedesTheOldOne() async {
    let loader = BlockLoader<Int> { 1 }
    let gate = Gate<Int>()
    var first = true
    let slow = BlockLoader<Int> {
      if first {
        first = false
        return try await gate.passIgnoringCancellation()
      }
      return 2
    }
    let one = Task { @MainActor in await slow.load() }
    await gate.arrival()
    let two = await slow.load()
    XCTAssertEqual(two, .loaded(2))
    gate.open(99)
    _ = await one.value
    XCTAssertEqual(slow.state, .loaded(2), "the superseded load wrote")
    await loader.load()
    XCTAssertEqual(loader.state, .loaded(1))
  }

  func testCancellingTheAwaitingTaskCancelsTheLoad() async {
    let loader = NumbersLoader()
    let load = Task { @MainActor in await loader.load() }
    await loader.gate.arrival()
    load.cancel()
    let state = await load.value
    XCTAssertEqual(state, .absent, "a cancelled load must bring back what .loading replaced")
    XCTAssertFalse(loader.isRunning)
  }

  func testValueThrowsCancellationWhenASilentLoadIsCancelledInsteadOfTheOldValue() async {
    let loader = NumbersLoader(state: .loaded([0]))
    let value = Task { @MainActor in try await loader.value(silently: true) }
    await loader.gate.arrival()
    loader.cancel()
    do {
      let stale = try await value.value
      XCTFail("value() returned \(stale), the state from before its load")
    } catch {
      XCTAssertTrue(error is CancellationError, "\(error)")
    }
    XCTAssertEqual(loader.state, .loaded([0]))
  }

  func testValueReturnsTheFreshCachedValueWithoutFetching() async throws {
    let cache = LoadCache<Int, [Int]>(timeToLive: .seconds(60), clock: ManualClock())
    cache.insert([7], for: 1)
    let loader = NumbersLoader(policy: .cache(cache, key: 1))
    let value = try await loader.value()
    XCTAssertEqual(value, [7])
    XCTAssertEqual(loader.fetches, 0)
  }

  func testCompositionAwaitsTwoLoadersInParallel() async throws {
    final class PairLoader: BaseLoader<[String]> {
      let names = BlockLoader<String> { "Ada" }
      let roles = BlockLoader<String> { "admin" }
      override func fetch() async throws -> [String] {
        async let name = names.value()
        async let role = roles.value()
        return try await [name, role]
      }
    }
    let pair = PairLoader()
    await pair.load()
    XCTAssertEqual(pair.state, .loaded(["Ada", "admin"]))
    XCTAssertEqual(pair.names.state, .loaded("Ada"), "the child's own observers see its load")
  }

  func testAWrappingLoaderChangesBehaviourWithoutTouchingTheWrappedState() async {
    var calls = 0
    let flaky = BlockLoader<Int> {
      calls += 1
      if calls < 3 { throw TestError(code: calls) }
      return calls
    }
    let patient = flaky.with(.retry(maxAttempts: 3, backoff: .immediate))
    await patient.load()
    XCTAssertEqual(patient.state, .loaded(3))
    XCTAssertEqual(flaky.state, .absent)
  }

  func testLoadIfNotRunningJoinsNothingWhenALoadRuns() async {
    let loader = NumbersLoader()
    let load = Task { @MainActor in await loader.load() }
    await loader.gate.arrival()
    var second: LoadableState<[Int]>?
    let joiner = Task { @MainActor in second = await loader.loadIfNotRunning() }
    await yieldUntil { second != nil }
    XCTAssertEqual(second, .loading, "loadIfNotRunning did not return at once")
    XCTAssertEqual(loader.fetches, 1)
    loader.gate.open([1])
    _ = await load.value
    await joiner.value
  }

  func testAReleasedLoaderCancelsItsLoad() async {
    final class Probe: BaseLoader<Int> {
      let gate: Gate<Int>
      init(gate: Gate<Int>) {
        self.gate = gate
        super.init()
      }
      override func fetch() async throws -> Int { try await gate.pass() }
    }
    let gate = Gate<Int>()
    weak var weakLoader: Probe?
    do {
      let loader = Probe(gate: gate)
      weakLoader = loader
      loader.reset()
    }
    XCTAssertNil(weakLoader, "the library kept a loader alive")
  }

  // MARK: - States

  func testEveryStreamObserverSeesTheFailedAttemptsErrorThenLoadingAgain() async {
    var calls = 0
    let loader = BlockLoader<Int>(
      policy: .retry(
        maxAttempts: 3, backoff: .immediate, showsFailedAttempts: true, clock: ManualClock())
    ) {
      calls += 1
      if calls < 3 { throw TestError(code: calls) }
      return calls
    }
    let observers = (0..<3).map { _ in
      let stream = loader.states
      return Task { @MainActor in
        var seen: [LoadableState<Int>] = []
        for await state in stream {
          seen.append(state)
          if state.isLoaded { break }
        }
        return seen
      }
    }
    let recorder = StateRecorder(loader)
    await loader.load()
    let expected: [LoadableState<Int>] = [
      .absent, .loading, .error(TestError(code: 1)), .loading, .error(TestError(code: 2)),
      .loading, .loaded(3),
    ]
    for observer in observers {
      let seen = await observer.value
      XCTAssertEqual(seen, expected, "a stream observer missed or merged a state")
    }
    XCTAssertEqual(recorder.states, expected)
    recorder.stop()
  }

  func testAnObserverArrivingAfterTheLoadGetsTheLatestStateFirst() async {
    let loader = BlockLoader<Int> { 5 }
    await loader.load()
    var iterator = loader.states.makeAsyncIterator()
    let first = await iterator.next()
    XCTAssertEqual(first, .loaded(5))
  }

  // MARK: - Cancel, reset, running

  func testCancelBringsBackTheReplacedStateAndResetWritesAbsent() async {
    let loader = NumbersLoader()
    XCTAssertFalse(loader.isRunning)
    let first = Task { @MainActor in await loader.load() }
    await loader.gate.arrival()
    XCTAssertTrue(loader.isRunning)
    loader.cancel()
    XCTAssertFalse(loader.isRunning)
    let afterCancel = await first.value
    XCTAssertEqual(afterCancel, .absent)
    XCTAssertEqual(loader.state, .absent)

    let second = Task { @MainActor in await loader.load() }
    await loader.gate.arrival(count: 2)
    loader.reset()
    XCTAssertFalse(loader.isRunning)
    let afterReset = await second.value
    XCTAssertEqual(afterReset, .absent)
    loader.gate.open([1])  // nothing waits any more; nothing may be written
    await Task.yield()
    XCTAssertEqual(loader.state, .absent)
  }

  func testASilentLoadKeepsTheOldValueUntilTheNewOneArrives() async {
    var next = 1
    let loader = BlockLoader<Int> {
      defer { next += 1 }
      return next
    }
    await loader.load()
    let recorder = StateRecorder(loader)
    let state = await loader.load(silently: true)
    XCTAssertEqual(state, .loaded(2))
    XCTAssertEqual(recorder.states, [.loaded(1), .loaded(2)])
    recorder.stop()
  }

  func testLoadIfNotRunningLoadsWhenIdle() async {
    var fetches = 0
    let loader = BlockLoader<Int> {
      fetches += 1
      return fetches
    }
    let first = await loader.loadIfNotRunning()
    let second = await loader.loadIfNotRunning()
    XCTAssertEqual(first, .loaded(1))
    XCTAssertEqual(second, .loaded(2))
  }

  // MARK: - Progress and attempts

  func testProgressReportedFromInsideFetchShowsOnTheLoader() async {
    final class Downloader: BaseLoader<String> {
      let gate = Gate<Void>()
      override func fetch() async throws -> String {
        try await step(of: 4)
        return "done"
      }
      /// Reports from a call nested inside fetch(), not from fetch() itself.
      private func step(of count: Int) async throws {
        LoadingProgress.report(fraction: 1 / Double(count), message: "1 of \(count)")
        try await gate.pass()
      }
    }
    let loader = Downloader()
    XCTAssertNil(loader.progress)  // a view shows it
    let load = Task { @MainActor in await loader.load() }
    await loader.gate.arrival()
    XCTAssertEqual(loader.progress, LoadingProgress(fraction: 0.25, message: "1 of 4"))
    XCTAssertEqual(loader.state, .loading)
    loader.gate.open()
    _ = await load.value
    XCTAssertNil(loader.progress)
    XCTAssertEqual(loader.state, .loaded("done"))
  }

  func testTheAttemptOfALoaderWithARetryPolicyIsVisible() async throws {
    final class Flaky: BaseLoader<Int> {
      var calls = 0
      init(clock: ManualClock) {
        super.init(policy: .retry(maxAttempts: 3, backoff: .constant(.seconds(2)), clock: clock))
      }
      override func fetch() async throws -> Int {
        calls += 1
        if calls < 3 { throw TestError(code: calls) }
        return calls
      }
    }
    let clock = ManualClock()
    let loader = Flaky(clock: clock)
    XCTAssertNil(loader.attempt)
    let load = Task { @MainActor in await loader.load() }
    for number in 2...3 {
      try await clock.sleepers(count: 1)
      let attempt = try XCTUnwrap(loader.attempt)
      XCTAssertEqual(attempt.number, number)
      XCTAssertEqual(attempt.maxAttempts, 3)
      XCTAssertEqual(attempt.delay, .seconds(2))
      XCTAssertEqual(loader.state, .loading, "a failed attempt flashed on the loader")
      clock.advance(by: .seconds(2))
    }
    let final = await load.value
    XCTAssertEqual(final, .loaded(3))
    XCTAssertNil(loader.attempt)
  }

  // MARK: - value()

  func testValueReturnsTheValueOrThrowsTheLoadsError() async throws {
    let good = BlockLoader<Int> { 3 }
    let value = try await good.value()
    XCTAssertEqual(value, 3)
    let bad = BlockLoader<Int> { throw TestError(code: 4) }
    do {
      _ = try await bad.value()
      XCTFail("value() did not throw the load's error")
    } catch {
      XCTAssertEqual(error as? TestError, TestError(code: 4))
    }
    XCTAssertEqual(bad.state, .error(TestError(code: 4)))
  }

  func testValueThrowsCancellationWhenTheLoadIsStopped() async {
    let loader = NumbersLoader()
    let caller = Task { @MainActor in try await loader.value() }
    await loader.gate.arrival()
    loader.reset()
    do {
      _ = try await caller.value
      XCTFail("value() returned though its load was reset")
    } catch {
      XCTAssertTrue(error is CancellationError, "\(error)")
    }
  }

  func testACompositionFailsWithTheFailingChildsError() async {
    final class PairLoader: BaseLoader<[String]> {
      let names = BlockLoader<String> { "Ada" }
      let roles = BlockLoader<String> { throw TestError(code: 6) }
      override func fetch() async throws -> [String] {
        async let name = names.value()
        async let role = roles.value()
        return try await [name, role]
      }
    }
    let pair = PairLoader()
    await pair.load()
    XCTAssertEqual(pair.state, .error(TestError(code: 6)))
    XCTAssertEqual(pair.roles.state, .error(TestError(code: 6)))
  }

  // MARK: - Wrapping loaders

  func testAWrappingLoaderRunsTheWrappedFetchWithoutTheWrappedPolicy() async {
    final class Strict: BaseLoader<Int> {
      var calls = 0
      init() {
        super.init(policy: .retry(maxAttempts: 3, backoff: .immediate, clock: ManualClock()))
      }
      override func fetch() async throws -> Int {
        calls += 1
        throw TestError(code: calls)
      }
    }
    let inner = Strict()
    let outer = inner.with(.timeout(.seconds(5), clock: ManualClock()))
    XCTAssertTrue(outer.wrapped === inner)
    await outer.load()
    XCTAssertEqual(inner.calls, 1, "the wrapper ran the wrapped loader's own policy")
    XCTAssertEqual(outer.state, .error(TestError(code: 1)))
    XCTAssertEqual(inner.state, .absent)
    await inner.load()
    XCTAssertEqual(inner.calls, 4, "the wrapped loader's own load uses its policy")
  }

  func testAWrappingLoaderWithATimeoutEndsAFetchThatHangs() async throws {
    let gate = Gate<Int>()
    let slow = BlockLoader<Int> { try await gate.passIgnoringCancellation() }
    let clock = ManualClock()
    let bounded = PolicyLoader(wrapping: slow, policy: .timeout(.seconds(2), clock: clock))
    let load = Task { @MainActor in await bounded.load() }
    await gate.arrival()
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(2))
    let state = await load.value
    XCTAssertEqual(state, .error(TimeoutError()))
    gate.open(1)
  }

  // MARK: - Lifetimes

  func testALoaderIsReleasedAfterItsLoadsWhateverObservedIt() async {
    weak var weakLoader: NumbersLoader?
    weak var weakWrapper: PolicyLoader<NumbersLoader>?
    var observer: Task<Void, Never>?
    do {
      let loader = NumbersLoader()
      let wrapper = loader.with(.retry(maxAttempts: 2, backoff: .immediate, clock: ManualClock()))
      weakLoader = loader
      weakWrapper = wrapper
      _ = wrapper.progress  // a view shows progress and attempts
      _ = wrapper.attempt
      let stream = wrapper.states
      observer = Task { @MainActor in for await _ in stream {} }
      loader.gate.open([1])
      await wrapper.load()
      await loader.load()
      XCTAssertEqual(wrapper.state, .loaded([1]))
      let cancelled = Task { @MainActor in await wrapper.load() }
      cancelled.cancel()
      _ = await cancelled.value
    }
    XCTAssertNil(weakWrapper, "the library kept a wrapping loader alive")
    XCTAssertNil(weakLoader, "the library kept a loader alive")
    observer?.cancel()
  }

  // MARK: - Starting a load without waiting

  func testStartLoadReturnsAtOnceWithTheLoadAlreadyShowingLoading() async {
    let loader = NumbersLoader()
    let task = loader.start()  // not async: a button's action can call it
    XCTAssertEqual(loader.state, .loading, "the load had not started when start returned")
    XCTAssertTrue(loader.isRunning)
    await loader.gate.arrival()
    loader.gate.open([1, 2])
    await task.value
    XCTAssertEqual(loader.state, .loaded([1, 2]))
    XCTAssertFalse(loader.isRunning)
  }

  func testStartLoadSilentlyKeepsTheOldValueAndANewLoadSupersedesIt() async {
    let loader = NumbersLoader(state: .loaded([0]))
    let first = loader.start(silently: true)
    XCTAssertEqual(loader.state, .loaded([0]), "a silent load replaced the value")
    XCTAssertTrue(loader.isRunning)
    await loader.gate.arrival()
    let second = loader.start(silently: true)
    await first.value  // the superseded load stopped
    await loader.gate.arrival(count: 2)
    loader.gate.open([3])
    await second.value
    XCTAssertEqual(loader.state, .loaded([3]))
    XCTAssertEqual(loader.fetches, 2)
  }

  func testCancellingTheStartedTaskCancelsTheLoad() async {
    let loader = NumbersLoader()
    let task = loader.start()
    await loader.gate.arrival()
    task.cancel()
    await task.value
    XCTAssertFalse(loader.isRunning, "the load went on after its task was cancelled")
    loader.gate.open([9])
    XCTAssertNotEqual(loader.state, .loaded([9]), "a cancelled load wrote")
  }

  func testAnyLoaderCanStartALoadWithoutWaiting() async {
    let loader = ForwardingLoader(NumbersLoader())
    let task = loader.start()
    await loader.inner.gate.arrival()
    XCTAssertEqual(loader.state, .loading)
    loader.inner.gate.open([4])
    await task.value
    XCTAssertEqual(loader.state, .loaded([4]))

    // Through the protocol, a BaseLoader still takes its own path: `.loading` at once.
    let base: any Loader = NumbersLoader()
    let started = base.start(silently: false)
    XCTAssertEqual(base.isRunning, true, "a BaseLoader behind `any Loader` started late")
    started.cancel()
    await started.value
  }
}

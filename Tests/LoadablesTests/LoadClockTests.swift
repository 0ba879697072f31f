import Loadables
import LoadablesTesting
import XCTest

/// A policy built once, outside any test: it must still wait on the clock of the test that
/// runs it.
private let sharedRetry = LoadPolicy<Int>.retry(
  maxAttempts: 2, backoff: .constant(.seconds(2)))

/// Every wait of the library takes its clock from `LoadClock` unless given one.
@MainActor
final class LoadClockTests: XCTestCase {
  func testAPolicyBuiltOutsideTheScopeWaitsOnTheScopesClock() async throws {
    @Loadable var value: LoadableState<Int>
    let clock = ManualClock()
    var calls = 0
    let task: Task<Void, Never> = withLoadClock(clock) {
      $value.load(policy: sharedRetry) {
        calls += 1
        if calls == 1 { throw TestError(code: 1) }
        return calls
      }
    }
    try await clock.sleepers(count: 1, timeout: .seconds(2))
    XCTAssertEqual(clock.sleeperDeadlines, [.seconds(2)])
    clock.advance(by: .seconds(2))
    await task.value
    XCTAssertEqual(value, .loaded(2))
  }

  func testAnAwaitedLoadInsideTheScopeWaitsOnItsClock() async throws {
    @Loadable var value: LoadableState<Int>
    let clock = ManualClock()
    let load = Task {
      await withLoadClock(clock) {
        await $value.load(policy: .debounce(for: .milliseconds(300))) { 7 }
      }
    }
    try await clock.sleepers(count: 1, timeout: .seconds(2))
    clock.advance(by: .milliseconds(300))
    await load.value
    XCTAssertEqual(value, .loaded(7))
  }

  func testATimeoutWithoutAClockEndsOnTheScopesClock() async throws {
    @Loadable var value: LoadableState<Int>
    let clock = ManualClock()
    let gate = Gate<Int>()
    let task: Task<Void, Never> = withLoadClock(clock) {
      $value.load(policy: .timeout(.seconds(10))) { try await gate.passIgnoringCancellation() }
    }
    try await clock.sleepers(count: 1, timeout: .seconds(2))
    clock.advance(by: .seconds(10))
    await task.value
    XCTAssertEqual(value, .error(TimeoutError()))
    gate.open(1)
  }

  func testADebouncerAndACacheMadeOutsideTheScopeTakeTheClockOfTheirFirstUse() async throws {
    @Loadable var value: LoadableState<Int>
    let debouncer = Debouncer(for: .seconds(1))
    let cache = LoadCache<String, Int>(timeToLive: .seconds(60))
    let clock = ManualClock()
    var calls = 0
    let policy = LoadPolicy<Int>.debounce(debouncer).cache(cache, key: "k")
    let first: Task<Void, Never> = withLoadClock(clock) {
      $value.load(policy: policy) {
        calls += 1
        return calls
      }
    }
    try await clock.sleepers(count: 1, timeout: .seconds(2))
    clock.advance(by: .seconds(1))
    await first.value
    XCTAssertEqual(value, .loaded(1))
    // The cache measured its first age on the manual clock: 59 s later it is still fresh,
    // a minute later it is stale, whatever the real time.
    clock.advance(by: .seconds(59))
    XCTAssertEqual(cache.entry(for: "k")?.freshness, .fresh)
    clock.advance(by: .seconds(1))
    XCTAssertEqual(cache.entry(for: "k")?.freshness, .stale)
  }

  func testInterruptsFireOnTheScopesManualClock() async throws {
    @Loadable var value: LoadableState<Int>
    let clock = ManualClock()
    let gate = Gate<Int>()
    var interrupts: [Duration] = []
    let task: Task<Void, Never> = withLoadClock(clock) {
      $value.load(interrupts: [.seconds(1), .seconds(2)]) {
        try await gate.pass()
      } onInterrupt: {
        interrupts.append($0)
      }
    }
    try await clock.sleepers(count: 1, timeout: .seconds(2))
    XCTAssertEqual(interrupts, [])
    clock.advance(by: .seconds(1))
    try await waitUntil("the first interrupt", seen: "\(interrupts)") { interrupts.count == 1 }
    try await clock.sleepers(count: 1, timeout: .seconds(2))
    clock.advance(by: .seconds(2))
    try await waitUntil("the second interrupt", seen: "\(interrupts)") { interrupts.count == 2 }
    XCTAssertEqual(interrupts, [.seconds(1), .seconds(3)])
    gate.open(5)
    await task.value
    XCTAssertEqual(value, .loaded(5))
  }

  func testAnInterruptThatThrowsEndsAnAwaitedLoadOnTheScopesClock() async throws {
    @Loadables.Process var saving: ProcessState<String>
    let clock = ManualClock()
    let gate = Gate<Void>()
    let run = Task {
      await withLoadClock(clock) {
        await $saving.run("save", interrupts: [.seconds(5)]) {
          try await gate.pass()
        } onInterrupt: { _ in
          throw TimeoutError()
        }
      }
    }
    try await clock.sleepers(count: 1, timeout: .seconds(2))
    clock.advance(by: .seconds(5))
    await run.value
    XCTAssertEqual(saving, .failed(process: "save", error: TimeoutError()))
  }

  func testTheAppWideDefaultServesLoadsOutsideEveryScope() async throws {
    @Loadable var value: LoadableState<Int>
    let clock = ManualClock()
    LoadClock.default = clock
    defer { LoadClock.default = ContinuousClock() }
    let task: Task<Void, Never> = $value.load(policy: .debounce(for: .seconds(1))) { 3 }
    try await clock.sleepers(count: 1, timeout: .seconds(2))
    clock.advance(by: .seconds(1))
    await task.value
    XCTAssertEqual(value, .loaded(3))
  }

  func testAnInnerScopeWinsAndAnExplicitClockWinsOverBoth() async throws {
    let outer = ManualClock()
    let inner = ManualClock()
    let explicit = ManualClock()
    LoadClock.default = ManualClock()
    defer { LoadClock.default = ContinuousClock() }
    XCTAssertTrue(LoadClock.current is ManualClock)
    withLoadClock(outer) {
      XCTAssertTrue((LoadClock.current as? ManualClock) === outer)
      withLoadClock(inner) {
        XCTAssertTrue((LoadClock.current as? ManualClock) === inner)
      }
    }
    @Loadable var value: LoadableState<Int>
    let task: Task<Void, Never> = withLoadClock(inner) {
      $value.load(policy: .debounce(for: .seconds(1), clock: explicit)) { 1 }
    }
    try await explicit.sleepers(count: 1, timeout: .seconds(2))
    XCTAssertEqual(inner.sleeperCount, 0)
    explicit.advance(by: .seconds(1))
    await task.value
    XCTAssertEqual(value, .loaded(1))
  }

  func testOutsideEveryScopeTheDefaultIsAContinuousClock() {
    XCTAssertTrue(LoadClock.current is ContinuousClock)
  }
}

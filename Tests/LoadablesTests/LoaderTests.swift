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
    XCTAssertEqual(state, .loading, "cancel leaves the state as it is")
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
    let second = await loader.loadIfNotRunning()
    XCTAssertEqual(second, .loading)
    XCTAssertEqual(loader.fetches, 1)
    loader.gate.open([1])
    _ = await load.value
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
}

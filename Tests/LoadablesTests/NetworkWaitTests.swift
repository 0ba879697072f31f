import Loadables
import LoadablesTesting
import XCTest

/// Loads that wait for the network (issue 19): `LoadPolicy.waitsForNetwork`, the store-wide
/// default, polling while offline, and the testing helpers of `Connectivity`.
@MainActor
final class NetworkWaitTests: XCTestCase {
  // MARK: - Waiting and resuming

  func testAnOfflineLoadWaitsShowsItAndResumesWhenTheConnectionReturns() async throws {
    let connectivity = Connectivity(isOnline: false)
    let holder = NetworkHolder()
    var calls = 0
    let task: Task<Void, Never> = holder.$value.load(policy: .waitsForNetwork(connectivity)) {
      calls += 1
      return 5
    }
    try await connectivity.waiters(count: 1)
    XCTAssertTrue(holder.$value.isWaitingForNetwork)
    XCTAssertEqual(holder.value, .loading)
    XCTAssertTrue(holder.$value.isRunning)
    XCTAssertEqual(calls, 0, "the block ran while offline")
    connectivity.goOnline()
    await task.value
    XCTAssertEqual(holder.value, .loaded(5))
    XCTAssertEqual(calls, 1)
    XCTAssertFalse(holder.$value.isWaitingForNetwork)
    XCTAssertEqual(connectivity.waitingCount, 0)
  }

  func testALoadWithTwoSourcesWaitsUntilBothSayOnline() async throws {
    let first = Connectivity(isOnline: false)
    let second = Connectivity(isOnline: false)
    let holder = NetworkHolder()
    var calls = 0
    let policy = LoadPolicy<Int>.waitsForNetwork(first).retry(maxAttempts: 2)
      .keepValueOnFailure().waitsForNetwork(second)
    XCTAssertEqual(
      policy.description.replacingOccurrences(
        of: #"\(.*\)"#, with: "", options: .regularExpression),
      "waitsForNetwork → retry → waitsForNetwork → keepValueOnFailure")
    let task: Task<Void, Never> = holder.$value.load(policy: policy) {
      calls += 1
      return 6
    }
    try await first.waiters(count: 1)
    first.goOnline()
    try await second.waiters(count: 1)
    XCTAssertTrue(holder.$value.isWaitingForNetwork)
    XCTAssertEqual(calls, 0, "the block ran while one source said offline")
    second.goOnline()
    await task.value
    XCTAssertEqual(holder.value, .loaded(6))
    XCTAssertEqual(calls, 1)
    XCTAssertFalse(holder.$value.isWaitingForNetwork)
  }

  func testEveryFormShowsTheWait() async throws {
    let connectivity = Connectivity(isOnline: false)
    let policy = LoadPolicy<Int>.waitsForNetwork(connectivity)
    let holder = NetworkHolder()
    let model = NetworkModel()
    let loader = BlockLoader(policy: policy) { 3 }
    let store = LoaderStore(connectivity: connectivity)
    let entry = store.loader(for: ["count"]) { 4 }
    let tasks: [Task<Void, Never>] = [
      holder.$value.load(policy: policy) { 1 },
      model.load(\.value, policy: policy) { 2 },
      holder.$job.run(1, policy: .waitsForNetwork(connectivity)) {},
      Task { await loader.load() },
      Task { await entry.load() },
    ]
    try await connectivity.waiters(count: 5)
    XCTAssertTrue(holder.$value.isWaitingForNetwork, "@Loadable")
    XCTAssertTrue(model.handle(\.value).isWaitingForNetwork, "LoadableSupport")
    XCTAssertTrue(holder.$job.isWaitingForNetwork, "@LoadableProcess")
    XCTAssertTrue(loader.isWaitingForNetwork, "BlockLoader")
    XCTAssertTrue(entry.isWaitingForNetwork, "SharedLoader")
    connectivity.goOnline()
    for task in tasks { await task.value }
    XCTAssertEqual(holder.value, .loaded(1))
    XCTAssertEqual(model.value, .loaded(2))
    XCTAssertEqual(holder.job, .finished(1))
    XCTAssertEqual(loader.state, .loaded(3))
    XCTAssertEqual(entry.state, .loaded(4))
    XCTAssertFalse(holder.$value.isWaitingForNetwork || model.handle(\.value).isWaitingForNetwork)
    XCTAssertFalse(holder.$job.isWaitingForNetwork || loader.isWaitingForNetwork)
    XCTAssertFalse(entry.isWaitingForNetwork)
  }

  func testASilentRefreshKeepsItsValueOnScreenWhileItWaits() async throws {
    let connectivity = Connectivity(isOnline: false)
    let holder = NetworkHolder()
    holder.value = .loaded(1)
    let task: Task<Void, Never> = holder.$value.load(
      silently: true, policy: .waitsForNetwork(connectivity)
    ) { 2 }
    try await connectivity.waiters(count: 1)
    XCTAssertEqual(holder.value, .loaded(1))
    XCTAssertTrue(holder.$value.isWaitingForNetwork)
    connectivity.goOnline()
    await task.value
    XCTAssertEqual(holder.value, .loaded(2))
  }

  func testOnlineNothingWaits() async throws {
    let connectivity = Connectivity(isOnline: true)
    let clock = ManualClock()
    let holder = NetworkHolder()
    var sawWaiting = false
    await holder.$value.load(
      policy: .retry(maxAttempts: 2, clock: clock).timeout(.seconds(5), clock: clock)
        .waitsForNetwork(connectivity)
    ) {
      sawWaiting = holder.$value.isWaitingForNetwork || connectivity.waitingCount > 0
      return 1
    }
    XCTAssertEqual(holder.value, .loaded(1))
    XCTAssertFalse(sawWaiting)
    XCTAssertEqual(clock.sleeperCount, 0)
  }

  // MARK: - Retries and timeouts

  func testAFailureWhileOfflineWaitsAndRunsTheAttemptAgainWithoutSpendingARetry() async throws {
    let connectivity = Connectivity(isOnline: true)
    let clock = ManualClock()
    let holder = NetworkHolder()
    var calls = 0
    let task: Task<Void, Never> = holder.$value.load(
      policy: .retry(maxAttempts: 2, backoff: .constant(.seconds(1)), clock: clock)
        .waitsForNetwork(connectivity)
    ) {
      calls += 1
      if calls == 1 {
        connectivity.goOffline()  // the network goes away under the request
        throw NetworkDown()
      }
      return 7
    }
    try await connectivity.waiters(count: 1)
    XCTAssertTrue(holder.$value.isWaitingForNetwork)
    XCTAssertEqual(holder.$value.attempt?.number, 1, "the failure while offline spent a retry")
    XCTAssertEqual(holder.value, .loading)
    connectivity.goOnline()
    await task.value
    XCTAssertEqual(holder.value, .loaded(7))
    XCTAssertEqual(calls, 2)
  }

  func testARetryThatFindsTheNetworkGoneWaitsWithoutSpendingAnAttempt() async throws {
    let connectivity = Connectivity(isOnline: true)
    let clock = ManualClock()
    let holder = NetworkHolder()
    var calls = 0
    let task: Task<Void, Never> = holder.$value.load(
      policy: .waitsForNetwork(connectivity)
        .retry(maxAttempts: 2, backoff: .constant(.seconds(1)), clock: clock)
    ) {
      calls += 1
      if calls == 1 { throw NetworkDown() }  // online: an ordinary failure, retried
      return 8
    }
    let backoff = try await clock.backoff(beforeAttempt: 2, of: holder.$value.attempt)
    connectivity.goOffline()
    clock.advance(by: try XCTUnwrap(backoff.delay))
    try await connectivity.waiters(count: 1)
    XCTAssertEqual(holder.$value.attempt?.number, 2)
    XCTAssertTrue(holder.$value.isWaitingForNetwork)
    XCTAssertEqual(calls, 1, "the attempt ran while offline")
    connectivity.goOnline()
    await task.value
    XCTAssertEqual(holder.value, .loaded(8), "the last attempt was spent waiting")
    XCTAssertEqual(calls, 2)
  }

  func testATimeoutDoesNotRunDownWhileTheLoadWaitsInEitherOrder() async throws {
    for order in ["timeout first", "wait first"] {
      let connectivity = Connectivity(isOnline: false)
      let clock = ManualClock()
      let gate = LoadablesTesting.Gate<Int>()
      let holder = NetworkHolder()
      let policy: LoadPolicy<Int> =
        order == "timeout first"
        ? .timeout(.seconds(10), clock: clock).waitsForNetwork(connectivity)
        : .waitsForNetwork(connectivity).timeout(.seconds(10), clock: clock)
      let task: Task<Void, Never> = holder.$value.load(policy: policy) { try await gate.pass() }
      try await connectivity.waiters(count: 1)
      try await clock.sleepers(count: 1)
      clock.advance(by: .seconds(30))  // offline three times longer than the limit
      await yieldUntil { clock.sleeperCount == 0 }
      XCTAssertEqual(holder.value, .loading, "\(order): the timeout ran down while waiting")
      connectivity.goOnline()
      try await gate.arrival()
      // The deadline moved on by the thirty seconds waited: ten seconds are left.
      try await clock.sleepers(count: 1)
      XCTAssertEqual(clock.sleeperDeadlines, [.seconds(40)], order)
      clock.advance(by: .seconds(9))
      for _ in 0..<50 { await Task.yield() }
      XCTAssertEqual(holder.value, .loading, "\(order): timed out early")
      clock.advance(by: .seconds(1))
      await task.value
      XCTAssertTrue(holder.value.error is TimeoutError, "\(order): \(holder.value)")
    }
  }

  func testATimeoutStillLimitsTheBlockOnceOnline() async throws {
    let connectivity = Connectivity(isOnline: true)
    let clock = ManualClock()
    let holder = NetworkHolder()
    let task: Task<Void, Never> = holder.$value.load(
      policy: .timeout(.seconds(10), clock: clock).waitsForNetwork(connectivity)
    ) { try await LoadablesTesting.Gate<Int>().pass() }
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(10))
    await task.value
    XCTAssertTrue(holder.value.error is TimeoutError, "\(holder.value)")
  }

  // MARK: - Stopping the wait

  func testCancelResetANewerLoadAndTheCallerStopTheWait() async throws {
    for stop in [Stop.cancel, .reset, .newer, .caller] {
      let connectivity = Connectivity(isOnline: false)
      let clock = ManualClock()
      let holder = StopHolder()
      var waitersWhenReturned = -1
      var calls = 0
      let caller = Task { @MainActor in
        await holder.$value.load(
          policy: .retry(maxAttempts: 3, clock: clock).timeout(.seconds(5), clock: clock)
            .waitsForNetwork(connectivity)
        ) {
          calls += 1
          return 1
        }
        waitersWhenReturned = connectivity.waitingCount
      }
      try await connectivity.waiters(count: 1)
      stop.apply(to: holder, caller: caller)
      await caller.value
      XCTAssertEqual(waitersWhenReturned, 0, "\(stop): returned while the load still waited")
      XCTAssertEqual(calls, 0, "\(stop)")
      XCTAssertFalse(holder.$value.isWaitingForNetwork, "\(stop)")
      await yieldUntil { clock.sleeperCount == 0 }
      XCTAssertEqual(clock.sleeperCount, 0, "\(stop): the timeout's timer outlived the load")
      XCTAssertEqual(holder.value, stop == .newer ? .loaded(2) : .absent, "\(stop)")
    }
  }

  func testCancellingAWaiterLeavesTheSourceAtOnce() async throws {
    let connectivity = Connectivity(isOnline: false)
    let waiter = Task { @MainActor in await connectivity.untilOnline() }
    try await connectivity.waiters(count: 1)
    waiter.cancel()
    XCTAssertEqual(connectivity.waitingCount, 0, "the cancelled waiter is still waiting")
    await waiter.value
  }

  // MARK: - The store

  func testAStoreWaitsForTheNetworkByDefaultAndAnEntryCanOptOut() async throws {
    let connectivity = Connectivity(isOnline: false)
    let store = LoaderStore(connectivity: connectivity)
    let remote = store.loader(for: ["remote"]) { 1 }
    let local = store.loader(for: ["local"], waitsForNetwork: false) { 2 }
    let loading = Task { await remote.load() }
    try await connectivity.waiters(count: 1)
    XCTAssertTrue(remote.isWaitingForNetwork)
    XCTAssertEqual(remote.state, .loading)
    let localState = await local.load()
    XCTAssertEqual(localState, .loaded(2), "the entry that opted out waited")
    XCTAssertFalse(local.isWaitingForNetwork)
    connectivity.goOnline()
    _ = await loading.value
    XCTAssertEqual(remote.state, .loaded(1))
  }

  func testAStoreWithoutConnectivityNeverWaits() async {
    let store = LoaderStore()
    let entry = store.loader(for: ["a"]) { 1 }
    let state = await entry.load()
    XCTAssertEqual(state, .loaded(1))
  }

  func testPollingSkipsWhileOffline() async throws {
    let clock = ManualClock()
    let connectivity = Connectivity(isOnline: true)
    let store = LoaderStore(graceTime: .seconds(3600), clock: clock, connectivity: connectivity)
    var calls = 0
    let feed = store.loader(
      for: ["feed"], staleTime: .seconds(3600), refreshing: [.every(.seconds(10))]
    ) {
      calls += 1
      return calls
    }
    await feed.load()
    let token = feed.observe()
    defer { token.end() }
    // Sleepers: the grace sweeper, the stale timer and the poll.
    try await clock.sleepers(count: 3)
    connectivity.goOffline()
    clock.advance(by: .seconds(10))
    await yieldUntil { clock.sleeperCount == 3 && !feed.isRunning }
    XCTAssertEqual(calls, 1, "polling fetched while offline")
    XCTAssertFalse(feed.isRunning, "polling started a fetch while offline")
    XCTAssertEqual(connectivity.waitingCount, 0)
    connectivity.goOnline()
    clock.advance(by: .seconds(10))
    await yieldUntil { calls == 2 && !feed.isRunning }
    XCTAssertEqual(calls, 2, "polling did not resume online")
    XCTAssertEqual(feed.state, .loaded(2))
  }

  // MARK: - The testing helpers and the description

  func testWaitingForWaitersWhileOnlineFailsWithAMessage() async {
    let connectivity = Connectivity(isOnline: true)
    do {
      try await connectivity.waiters(count: 1, timeout: .milliseconds(20))
      XCTFail("no wait failed")
    } catch {
      XCTAssertTrue("\(error)".contains("goOffline()"), "\(error)")
    }
  }

  func testThePolicyNamesTheWait() {
    let connectivity = Connectivity()
    let policy = LoadPolicy<Int>.retry(maxAttempts: 2).waitsForNetwork(connectivity)
    XCTAssertTrue(policy.description.hasSuffix("→ waitsForNetwork"), policy.description)
  }

  func testTheSystemSourceIsOnlineOnLinux() {
    #if !canImport(Network)
      XCTAssertTrue(Connectivity.system.isOnline)
    #endif
  }
}

private struct NetworkDown: Error {}

@MainActor
private final class NetworkHolder {
  @Loadable var value: LoadableState<Int>
  @LoadableProcess var job: ProcessState<Int>
}

@MainActor
private final class NetworkModel: LoadableSupport {
  var value: LoadableState<Int> = .absent
}

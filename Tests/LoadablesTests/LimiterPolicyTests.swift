import Loadables
import LoadablesTesting
import XCTest

@MainActor
final class LimiterPolicyTests: XCTestCase {
  /// The peer's token bucket lost its count after one contended hand-off: with limit 1 the
  /// next load then waited forever, and with three contenders four loads ran at once.
  func testAContendedHandOffKeepsTheCount() async throws {
    let limiter = ConcurrencyLimiter(limit: 1)
    @Loadable var a: LoadableState<Int>
    @Loadable var b: LoadableState<Int>
    @Loadable var c: LoadableState<Int>
    let gateA = Gate<Void>()
    let gateB = Gate<Void>()
    var running = 0
    var peak = 0
    func tracked(_ gate: Gate<Void>, _ value: Int) async throws -> Int {
      running += 1
      peak = max(peak, running)
      defer { running -= 1 }
      try await gate.pass()
      return value
    }
    let taskA: Task<Void, Never> = $a.load(policy: .limit(limiter)) { try await tracked(gateA, 1) }
    await gateA.arrival()
    let taskB: Task<Void, Never> = $b.load(policy: .limit(limiter)) { try await tracked(gateB, 2) }
    while limiter.waitingCount < 1 { await Task.yield() }
    gateA.open()  // a contended hand-off: A's permit goes straight to B
    await taskA.value
    await gateB.arrival()
    XCTAssertEqual(limiter.runningCount, 1)
    gateB.open()
    await taskB.value
    XCTAssertEqual(limiter.runningCount, 0)
    // After the hand-off, the next load must get a permit at once.
    await $c.load(policy: .limit(limiter)) { 3 }
    XCTAssertEqual(c, .loaded(3))
    XCTAssertEqual(peak, 1)
  }

  func testNeverMoreThanTheLimitRunAndWaitersAreServedInOrder() async throws {
    let limiter = ConcurrencyLimiter(limit: 2)
    let count = 40
    let gates = (0..<count).map { _ in Gate<Void>() }
    var order: [Int] = []
    var running = 0
    var peak = 0
    var tasks: [Task<Void, Never>] = []
    var states: [Loadable<Int>] = []
    for index in 0..<count {
      let state = Loadable<Int>()
      states.append(state)
      tasks.append(
        state.projectedValue.load(policy: .limit(limiter)) {
          order.append(index)
          running += 1
          peak = max(peak, running)
          defer { running -= 1 }
          try await gates[index].pass()
          return index
        })
    }
    while limiter.waitingCount < count - 2 { await Task.yield() }
    XCTAssertEqual(limiter.runningCount, 2)
    // Finish the loads in the order they got their permits; a permit handed out of turn
    // shows in `order` (the loads were started 0, 1, 2, ... on the main actor).
    for step in 0..<count {
      while order.count <= step { await Task.yield() }
      let index = order[step]
      await gates[index].arrival()
      gates[index].open()
      await tasks[index].value
    }
    XCTAssertEqual(order, Array(0..<count), "waiters were not served first in, first out")
    XCTAssertEqual(peak, 2)
    XCTAssertEqual(limiter.runningCount, 0)
    XCTAssertEqual(states.map(\.wrappedValue), (0..<count).map { .loaded($0) })
  }

  func testACancelledWaiterLeavesTheQueueWithoutRunning() async {
    let limiter = ConcurrencyLimiter(limit: 1)
    @Loadable var a: LoadableState<Int>
    @Loadable var b: LoadableState<Int>
    @Loadable var c: LoadableState<Int>
    let gate = Gate<Void>()
    var bRan = false
    let taskA: Task<Void, Never> = $a.load(policy: .limit(limiter)) {
      try await gate.pass()
      return 1
    }
    await gate.arrival()
    let taskB: Task<Void, Never> = $b.load(policy: .limit(limiter)) {
      bRan = true
      return 2
    }
    while limiter.waitingCount < 1 { await Task.yield() }
    $b.cancel()
    await taskB.value
    XCTAssertEqual(limiter.waitingCount, 0)
    let taskC: Task<Void, Never> = $c.load(policy: .limit(limiter)) { 3 }
    while limiter.waitingCount < 1 { await Task.yield() }
    gate.open()
    await taskA.value
    await taskC.value
    XCTAssertFalse(bRan)
    XCTAssertEqual(c, .loaded(3))
    XCTAssertEqual(limiter.runningCount, 0)
  }
}

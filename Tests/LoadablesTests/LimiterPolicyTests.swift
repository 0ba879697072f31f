import Foundation
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
    // shows in `order` (the loads were started 0, 1, 2, ... on the main actor). Before each
    // release, both permit holders have started their blocks: so at most one load is ever
    // granted and not yet running, and two granted loads cannot swap places on their way
    // back to the main actor (which, on a loaded machine, made `order` differ from the
    // order of the grants in about 1 run in 5).
    for step in 0..<count {
      let started = min(step + 2, count)
      for _ in 0..<100_000 where order.count < started { await Task.yield() }
      guard order.count >= started else {
        XCTFail("after \(step) releases only \(order.count) loads started: \(order)")
        for gate in gates { gate.open() }
        for task in tasks { await task.value }
        return
      }
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

  /// The sequence the peer's token bucket failed: A runs, B and C wait, A hands its permit
  /// to B, B hands it to C, and a fourth load must then wait while C runs.
  func testThreeContendersHandTheOnePermitOnInOrder() async throws {
    let limiter = ConcurrencyLimiter(limit: 1)
    @Loadable var a: LoadableState<String>
    @Loadable var b: LoadableState<String>
    @Loadable var c: LoadableState<String>
    @Loadable var d: LoadableState<String>
    let gates = ["a": Gate<Void>(), "b": Gate<Void>(), "c": Gate<Void>(), "d": Gate<Void>()]
    var running: [String] = []
    var peak = 0
    var order: [String] = []
    func tracked(_ name: String) -> @MainActor () async throws -> String {
      {
        running.append(name)
        order.append(name)
        peak = max(peak, running.count)
        defer { running.removeAll { $0 == name } }
        try await gates[name]!.pass()
        return name
      }
    }
    var tasks: [Task<Void, Never>] = []
    /// Waits until exactly `expected` run; if they never do, lets every load finish and
    /// returns `false`, so that a broken limiter fails the test instead of hanging it.
    func expectRunning(_ expected: [String], line: UInt = #line) async -> Bool {
      await yieldUntil { running == expected }
      XCTAssertEqual(running, expected, "the loads running", line: line)
      guard running != expected else { return true }
      for gate in gates.values { gate.open() }
      for task in tasks { await task.value }
      return false
    }
    tasks.append($a.load(policy: .limit(limiter), block: tracked("a")))
    guard await expectRunning(["a"]) else { return }
    tasks.append($b.load(policy: .limit(limiter), block: tracked("b")))
    tasks.append($c.load(policy: .limit(limiter), block: tracked("c")))
    await yieldUntil { limiter.waitingCount == 2 }
    XCTAssertEqual(limiter.waitingCount, 2)
    XCTAssertEqual(b, .loading, "a waiting load shows .loading")
    XCTAssertTrue($c.isRunning, "a waiting load is running")

    gates["a"]!.open()  // A hands to B
    guard await expectRunning(["b"]) else { return }
    XCTAssertEqual(limiter.runningCount, 1)
    XCTAssertEqual(limiter.waitingCount, 1)

    gates["b"]!.open()  // B hands to C
    guard await expectRunning(["c"]) else { return }
    XCTAssertEqual(limiter.runningCount, 1)
    XCTAssertEqual(limiter.waitingCount, 0)

    // While C runs, a fourth load must wait: the count survived both hand-offs.
    tasks.append($d.load(policy: .limit(limiter), block: tracked("d")))
    await yieldUntil { limiter.waitingCount == 1 || running.count > 1 }
    XCTAssertEqual(limiter.waitingCount, 1)
    guard await expectRunning(["c"]) else { return }

    gates["c"]!.open()
    guard await expectRunning(["d"]) else { return }
    gates["d"]!.open()
    for task in tasks { await task.value }

    XCTAssertEqual(order, ["a", "b", "c", "d"])
    XCTAssertEqual(peak, 1)
    XCTAssertEqual([a, b, c, d], [.loaded("a"), .loaded("b"), .loaded("c"), .loaded("d")])
    XCTAssertEqual(limiter.runningCount, 0)
    XCTAssertEqual(limiter.waitingCount, 0)
  }

  func testLoadsHoldingAPermitAreCancelledOutOfItToo() async throws {
    let limiter = ConcurrencyLimiter(limit: 1)
    @Loadable var a: LoadableState<Int>
    @Loadable var b: LoadableState<Int>
    let gate = Gate<Void>()
    let taskA: Task<Void, Never> = $a.load(policy: .limit(limiter)) {
      try await gate.pass()
      return 1
    }
    await gate.arrival()
    let taskB: Task<Void, Never> = $b.load(policy: .limit(limiter)) { 2 }
    await yieldUntil { limiter.waitingCount == 1 }
    $a.reset()  // the running load goes: its permit goes to B
    await taskA.value
    await taskB.value
    XCTAssertEqual(a, .absent)
    XCTAssertEqual(b, .loaded(2))
    XCTAssertEqual(limiter.runningCount, 0)
  }

  /// A waiter handed the permit but cancelled before it could run gives the permit back.
  func testAWaiterCancelledRightAfterTheHandOffGivesThePermitBack() async throws {
    let limiter = ConcurrencyLimiter(limit: 1)
    @Loadable var b: LoadableState<Int>
    @Loadable var c: LoadableState<Int>
    var bRan = false
    var taskB: Task<Void, Never>?
    try await limiter.withPermit {
      taskB = $b.load(policy: .limit(limiter)) {
        bRan = true
        return 2
      }
      await yieldUntil { limiter.waitingCount == 1 }
      XCTAssertEqual(limiter.waitingCount, 1)
    }
    // The permit has just gone to B, whose task has not run yet: cancel it now.
    $b.cancel()
    await taskB?.value
    XCTAssertFalse(bRan, "a load cancelled before it ran ran anyway")
    XCTAssertEqual(limiter.runningCount, 0, "the cancelled waiter kept the permit")
    let taskC: Task<Void, Never> = $c.load(policy: .limit(limiter)) { 3 }
    await yieldUntil { !$c.isRunning }
    XCTAssertEqual(c, .loaded(3), "the permit was lost")
    $c.cancel()
    await taskC.value
  }

  /// Many loads under a limit of 2 or 3, started, cancelled (waiting or running) and finished
  /// in an order drawn from a seed. After every step the limiter and the blocks that run
  /// match a model of a FIFO line; at the end every load that was not cancelled has its
  /// value and the limiter is empty. A failure names its seed.
  func testRandomLoadsCancellationsAndCompletionsKeepToTheLimit() async throws {
    for seed: UInt64 in [1, 2, 3, 4, 5, 6] {
      try await runLimiterScript(seed: seed)
    }
  }

  private enum Step {
    case start
    case finish(Int)
    case cancel(Int)
  }

  private func runLimiterScript(seed: UInt64) async throws {
    var rng = SplitMix64(seed: seed)
    let limit = 2 + rng.below(2)
    let count = 30
    let limiter = ConcurrencyLimiter(limit: limit)
    let states = (0..<count).map { _ in Loadable<Int>() }
    let gates = (0..<count).map { _ in Gate<Void>() }
    var tasks: [Task<Void, Never>] = []
    // What the blocks do.
    var entered: [Int] = []
    var inFlight = 0
    var peak = 0
    // The model: who holds a permit, who waits in line, in order.
    var holders: [Int] = []
    var line: [Int] = []
    var granted: [Int] = []
    var outcome: [Int: LoadableState<Int>] = [:]
    let label = "seed \(seed), limit \(limit)"

    func grant() async {
      while holders.count < limit, !line.isEmpty {
        let next = line.removeFirst()
        holders.append(next)
        granted.append(next)
        await yieldUntil { gates[next].arrived > 0 }
      }
    }

    while tasks.count < count || !holders.isEmpty || !line.isEmpty {
      var steps: [Step] = tasks.count < count ? [.start, .start, .start] : []
      steps += holders.map(Step.finish) + holders.map(Step.finish)
      steps += (holders + line).map(Step.cancel)
      switch rng.pick(steps) {
      case .start:
        let index = tasks.count
        tasks.append(
          states[index].projectedValue.load(policy: .limit(limiter)) {
            entered.append(index)
            inFlight += 1
            peak = max(peak, inFlight)
            defer { inFlight -= 1 }
            try await gates[index].pass()
            return index
          })
        line.append(index)
        if holders.count < limit, line.count == 1 {
          await grant()
        } else {
          await yieldUntil { limiter.waitingCount == line.count }
        }
      case .finish(let index):
        gates[index].open()
        await tasks[index].value
        holders.removeAll { $0 == index }
        outcome[index] = .loaded(index)
        await grant()
      case .cancel(let index):
        let resets = rng.percent(50)
        if resets {
          states[index].projectedValue.reset()
        } else {
          states[index].projectedValue.cancel()
        }
        await tasks[index].value
        holders.removeAll { $0 == index }
        line.removeAll { $0 == index }
        // cancel() brings back what .loading replaced: .absent, as reset() writes.
        outcome[index] = .absent
        await grant()
      }
      XCTAssertEqual(entered, granted, "blocks ran out of FIFO order (\(label))")
      XCTAssertEqual(inFlight, holders.count, label)
      XCTAssertEqual(limiter.runningCount, holders.count, label)
      XCTAssertEqual(limiter.waitingCount, line.count, label)
      if entered != granted || limiter.runningCount != holders.count {
        // Let every load end, so that a broken limiter fails the test instead of hanging it.
        for gate in gates { gate.open() }
        for task in tasks { await task.value }
        return
      }
    }
    XCTAssertLessThanOrEqual(peak, limit, label)
    XCTAssertEqual(peak, limit, "the script never filled the limit (\(label))")
    XCTAssertEqual(limiter.runningCount, 0, label)
    XCTAssertEqual(limiter.waitingCount, 0, label)
    for index in 0..<count {
      XCTAssertEqual(states[index].wrappedValue, outcome[index], "load \(index), \(label)")
    }
  }

  /// Loads started one after another on the main actor are served in that order, even
  /// when they start while permits are being handed back. (The limiter once took a load's
  /// place in line on the global executor, so loads that started together raced for it.)
  func testLoadsStartedTogetherAreServedInTheOrderTheyStarted() async {
    for round in 0..<100 {
      let limiter = ConcurrencyLimiter(limit: 1)
      var order: [Int] = []
      var tasks: [Task<Void, Never>] = []
      let states = (0..<8).map { _ in Loadable<Int>() }
      for index in 0..<8 {
        tasks.append(
          states[index].projectedValue.load(policy: .limit(limiter)) {
            order.append(index)
            await Task.yield()
            return index
          })
      }
      for task in tasks { await task.value }
      XCTAssertEqual(order, Array(0..<8), "round \(round)")
      if order != Array(0..<8) { return }
    }
  }

  // MARK: - Priority

  /// Starts a load of `state` under `limiter` at `priority`; its block appends `name` to
  /// `order` when it gets its permit.
  private func start(
    _ name: String, at priority: LoadPriority, _ limiter: ConcurrencyLimiter,
    order: @escaping @MainActor (String) -> Void
  ) -> (Loadable<String>, Task<Void, Never>) {
    let state = Loadable<String>()
    let task = withLoadPriority(priority) {
      state.projectedValue.load(policy: .limit(limiter)) {
        order(name)
        return name
      }
    }
    return (state, task)
  }

  func testWaitersAreServedHighestPriorityFirstAndInOrderWithinAPriority() async throws {
    let limiter = ConcurrencyLimiter(limit: 1)
    let gate = Gate<Void>()
    @Loadable var holder: LoadableState<Int>
    let holding: Task<Void, Never> = $holder.load(policy: .limit(limiter)) {
      try await gate.pass()
      return 0
    }
    await gate.arrival()
    var order: [String] = []
    let record: @MainActor (String) -> Void = { order.append($0) }
    let waiting: [(String, LoadPriority)] = [
      ("prefetch 1", .prefetch), ("visible 1", .visible), ("user 1", .userInitiated),
      ("prefetch 2", .prefetch), ("user 2", .userInitiated), ("visible 2", .visible),
      ("prefetch 3", .prefetch),
    ]
    var loads: [(Loadable<String>, Task<Void, Never>)] = []
    for (name, priority) in waiting {
      loads.append(start(name, at: priority, limiter, order: record))
      // Each takes its place before the next starts: the order within a priority is known.
      await yieldUntil { limiter.waitingCount == loads.count }
    }
    XCTAssertEqual(limiter.waitingCount, waiting.count)
    gate.open()
    await holding.value
    for (_, task) in loads { await task.value }
    XCTAssertEqual(
      order,
      ["user 1", "user 2", "visible 1", "visible 2", "prefetch 1", "prefetch 2", "prefetch 3"])
    XCTAssertEqual(loads.map(\.0.wrappedValue), waiting.map { .loaded($0.0) })
    XCTAssertEqual(limiter.runningCount, 0)
  }

  /// Without any scope every load is `userInitiated`: the line stays first in, first out.
  func testLoadsOutsideAnyScopeAreUserInitiated() async {
    XCTAssertEqual(LoadPriority.current, .userInitiated)
    withLoadPriority(.visible) {
      XCTAssertEqual(LoadPriority.current, .visible)
      withLoadPriority(.prefetch) { XCTAssertEqual(LoadPriority.current, .prefetch) }
      XCTAssertEqual(LoadPriority.current, .visible)
    }
    await withLoadPriority(.prefetch) {
      await Task.yield()
      XCTAssertEqual(LoadPriority.current, .prefetch)
    }
    XCTAssertEqual(LoadPriority.current, .userInitiated)
    XCTAssertLessThan(LoadPriority.prefetch, .visible)
    XCTAssertLessThan(LoadPriority.visible, .userInitiated)
  }

  /// A load on screen loads a shared entry whose prefetch waits for a permit: the prefetch's
  /// wait is raised to the load's priority and goes to the end of that priority's line,
  /// ahead of every lower priority and behind the loads of its new priority already waiting.
  func testARaisedWaiterMovesToTheEndOfItsNewPriority() async throws {
    let limiter = ConcurrencyLimiter(limit: 1)
    let store = LoaderStore()
    let gate = Gate<Void>()
    @Loadable var holder: LoadableState<Int>
    let holding: Task<Void, Never> = $holder.load(policy: .limit(limiter)) {
      try await gate.pass()
      return 0
    }
    await gate.arrival()
    var order: [String] = []
    let record: @MainActor (String) -> Void = { order.append($0) }
    let post = store.loader(for: ["post", 1], policy: .limit(limiter)) { () -> String in
      order.append("post")
      return "post"
    }
    let visible = start("visible", at: .visible, limiter, order: record)
    await yieldUntil { limiter.waitingCount == 1 }
    XCTAssertTrue(post.prefetch())
    await yieldUntil { limiter.waitingCount == 2 }
    let user = start("user", at: .userInitiated, limiter, order: record)
    await yieldUntil { limiter.waitingCount == 3 }
    XCTAssertEqual(limiter.waitingCount, 3)
    // The screen joins the prefetch: the prefetch's wait becomes userInitiated, after "user".
    var joined = false
    let screen = Task {
      joined = true  // then, with no suspension in between, the load joins the prefetch
      return await post.load()
    }
    await yieldUntil { joined }
    XCTAssertEqual(limiter.waitingCount, 3, "the screen's load joins; it does not wait again")
    gate.open()
    await holding.value
    let shown = await screen.value
    await visible.1.value
    await user.1.value
    XCTAssertEqual(shown, .loaded("post"))
    XCTAssertEqual(order, ["user", "post", "visible"])
    XCTAssertEqual(limiter.runningCount, 0)
  }

  /// A waiter cancelled while it waits at any priority leaves the line, takes no permit and
  /// never runs; the permit goes to the next waiter by priority, and none is lost.
  func testCancellingPrioritisedWaitersLeaksNoPermit() async throws {
    let limiter = ConcurrencyLimiter(limit: 1)
    let gate = Gate<Void>()
    @Loadable var holder: LoadableState<Int>
    let holding: Task<Void, Never> = $holder.load(policy: .limit(limiter)) {
      try await gate.pass()
      return 0
    }
    await gate.arrival()
    var order: [String] = []
    let record: @MainActor (String) -> Void = { order.append($0) }
    let prefetch = start("prefetch", at: .prefetch, limiter, order: record)
    let visible = start("visible", at: .visible, limiter, order: record)
    let user = start("user", at: .userInitiated, limiter, order: record)
    await yieldUntil { limiter.waitingCount == 3 }
    XCTAssertEqual(limiter.waitingCount, 3)
    user.0.projectedValue.cancel()  // the first in line goes
    await user.1.value
    visible.0.projectedValue.reset()
    await visible.1.value
    XCTAssertEqual(limiter.waitingCount, 1)
    XCTAssertEqual(limiter.runningCount, 1)
    gate.open()
    await holding.value
    await prefetch.1.value
    XCTAssertEqual(order, ["prefetch"])
    XCTAssertEqual(user.0.wrappedValue, .absent)
    XCTAssertEqual(visible.0.wrappedValue, .absent)
    XCTAssertEqual(prefetch.0.wrappedValue, .loaded("prefetch"))
    XCTAssertEqual(limiter.runningCount, 0)
    XCTAssertEqual(limiter.waitingCount, 0)
    // The permit was not lost: a new load runs at once.
    @Loadable var after: LoadableState<Int>
    await $after.load(policy: .limit(limiter)) { 1 }
    XCTAssertEqual(after, .loaded(1))
  }

  // MARK: - withPermit

  func testWithPermitFromTasksOffTheMainActorWaitsInLineAndCanBeCancelledOut() async throws {
    let limiter = ConcurrencyLimiter(limit: 1)
    let gate = Gate<Void>()
    let ran = Gate<String>()
    let first = Task.detached {
      try await limiter.withPermit {
        try await gate.pass()
        return "first"
      }
    }
    await gate.arrival()
    let second = Task.detached {
      try await limiter.withPermit { () -> String in
        ran.open("second ran")
        return "second"
      }
    }
    await yieldUntil { limiter.waitingCount == 1 }
    XCTAssertEqual(limiter.waitingCount, 1)
    let cancelled = Task.detached {
      try await limiter.withPermit { () -> String in
        ran.open("the cancelled waiter ran")
        return "cancelled"
      }
    }
    await yieldUntil { limiter.waitingCount == 2 }
    XCTAssertEqual(limiter.waitingCount, 2)
    cancelled.cancel()
    do {
      _ = try await cancelled.value
      XCTFail("a waiter cancelled in line did not throw")
    } catch {
      XCTAssertTrue(error is CancellationError, "\(error)")
    }
    XCTAssertEqual(limiter.waitingCount, 1)
    XCTAssertEqual(ran.arrived, 0)
    gate.open()
    let firstValue = try await first.value
    let secondValue = try await second.value
    XCTAssertEqual(firstValue, "first")
    XCTAssertEqual(secondValue, "second")
    let whoRan = try await ran.pass()
    XCTAssertEqual(whoRan, "second ran")
    XCTAssertEqual(limiter.runningCount, 0)
  }

  func testWithPermitRethrowsAndFreesThePermit() async throws {
    let limiter = ConcurrencyLimiter(limit: 1)
    let failing = Task.detached {
      try await limiter.withPermit { () -> Int in throw TestError(code: 5) }
    }
    do {
      _ = try await failing.value
      XCTFail("the operation's error was swallowed")
    } catch {
      XCTAssertEqual(error as? TestError, TestError(code: 5))
    }
    XCTAssertEqual(limiter.runningCount, 0)
    let value = try await Task.detached { try await limiter.withPermit { 6 } }.value
    XCTAssertEqual(value, 6)
  }

  func testAnAlreadyCancelledTaskDoesNotRunTheOperation() async throws {
    let limiter = ConcurrencyLimiter(limit: 3)
    let task = Task.detached {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await limiter.withPermit { true }
    }
    do {
      _ = try await task.value
      XCTFail("a cancelled task ran the operation")
    } catch {
      XCTAssertTrue(error is CancellationError)
    }
    XCTAssertEqual(limiter.runningCount, 0)
  }

  /// Tasks off the main actor hammer a limiter of one. A waiter must never be left in line
  /// while no permit is held: the limiter once lost a permit freed while a waiter was on its
  /// way into the line, and every later caller then waited forever. That race needs the two
  /// threads to meet in a window of a few hundred nanoseconds, so this test catches it on most
  /// runs but not on every one; it never fails a correct limiter.
  func testWithPermitOffTheMainActorUnderContentionNeverStrandsAWaiter() async {
    let limiter = ConcurrencyLimiter(limit: 1)
    let total = 300_000
    let progress = Tally()
    for _ in 0..<2 {
      Task.detached {
        for _ in 0..<(total / 2) {
          try? await limiter.withPermit { progress.enter() }
        }
      }
    }
    // Yields while the workers make progress; stops once they are done, or once the limiter
    // has stood still with waiters in line and no permit held.
    var stalled = 0
    var last = -1
    while progress.finished < total, stalled < 200 {
      for _ in 0..<500 { await Task.yield() }
      let now = progress.finished
      let stranded = limiter.runningCount == 0 && limiter.waitingCount > 0
      stalled = now == last && stranded ? stalled + 1 : 0
      last = now
    }
    XCTAssertEqual(
      progress.finished, total,
      "stranded: \(limiter.waitingCount) waiting, \(limiter.runningCount) running")
    XCTAssertEqual(progress.peak, 1)
  }

}

/// Counts operations run under a limiter from any thread, and the most that ran at once.
private final class Tally: @unchecked Sendable {
  // Safe to share: every stored property is read and written only while holding `lock`.
  private let lock = NSLock()
  private var count = 0
  private var inside = 0
  private var highest = 0

  func enter() {
    lock.withLock {
      inside += 1
      highest = max(highest, inside)
    }
    lock.withLock {
      inside -= 1
      count += 1
    }
  }

  var finished: Int { lock.withLock { count } }
  var peak: Int { lock.withLock { highest } }
}

import Loadables
import LoadablesTesting
import XCTest

@MainActor
final class DedupePolicyTests: XCTestCase {
  func testConcurrentLoadsOfOneKeyShareOneFetch() async {
    let requests = Deduplicator<Int, String>()
    @Loadable var first: LoadableState<String>
    @Loadable var second: LoadableState<String>
    let gate = Gate<String>()
    var fetches = 0
    let a: Task<Void, Never> = $first.load(policy: .dedupe(requests, key: 7)) {
      fetches += 1
      return try await gate.pass()
    }
    await gate.arrival()
    let b: Task<Void, Never> = $second.load(policy: .dedupe(requests, key: 7)) {
      fetches += 1
      return "second fetch"
    }
    while requests.callerCount(for: 7) < 2 { await Task.yield() }
    gate.open("shared")
    await a.value
    await b.value
    XCTAssertEqual(fetches, 1)
    XCTAssertEqual(first, .loaded("shared"))
    XCTAssertEqual(second, .loaded("shared"))
    XCTAssertEqual(requests.inFlightCount, 0)
  }

  func testCancellingOneCallerLeavesTheFetchForTheOthers() async {
    let requests = Deduplicator<Int, String>()
    @Loadable var first: LoadableState<String>
    @Loadable var second: LoadableState<String>
    let gate = Gate<String>()
    let a: Task<Void, Never> = $first.load(policy: .dedupe(requests, key: 7)) {
      try await gate.pass()
    }
    await gate.arrival()
    let b: Task<Void, Never> = $second.load(policy: .dedupe(requests, key: 7)) { "unused" }
    while requests.callerCount(for: 7) < 2 { await Task.yield() }
    $first.cancel()
    await a.value
    XCTAssertEqual(requests.callerCount(for: 7), 1)
    gate.open("shared")
    await b.value
    XCTAssertEqual(second, .loaded("shared"))
    XCTAssertEqual(first, .absent, "the cancelled caller wrote")
  }

  func testCancellingEveryCallerCancelsTheFetch() async {
    let requests = Deduplicator<Int, String>()
    @Loadable var first: LoadableState<String>
    let gate = Gate<String>()
    let fetchEnded = Gate<Void>()
    let a: Task<Void, Never> = $first.load(policy: .dedupe(requests, key: 7)) {
      do {
        return try await gate.pass()
      } catch {
        fetchEnded.open()
        throw error
      }
    }
    await gate.arrival()
    $first.cancel()
    await a.value
    _ = try? await fetchEnded.pass()  // returns once the shared fetch saw its cancellation
    XCTAssertEqual(requests.inFlightCount, 0)
  }

  func testThreeCallersOfOneKeyShareOneFetch() async {
    let requests = Deduplicator<Int, String>()
    let callers = (0..<3).map { _ in Loadable<String>() }
    let gate = Gate<String>()
    var fetches = 0
    let tasks = callers.map { caller in
      caller.projectedValue.load(policy: .dedupe(requests, key: 7)) {
        fetches += 1
        return try await gate.pass()
      }
    }
    await gate.arrival()
    for _ in 0..<1_000 where requests.callerCount(for: 7) < 3 { await Task.yield() }
    XCTAssertEqual(requests.callerCount(for: 7), 3)
    XCTAssertTrue(requests.isInFlight(7))
    XCTAssertEqual(requests.inFlightCount, 1)
    gate.open("shared")
    for task in tasks { await task.value }
    XCTAssertEqual(fetches, 1)
    XCTAssertEqual(callers.map(\.wrappedValue), Array(repeating: .loaded("shared"), count: 3))
    XCTAssertFalse(requests.isInFlight(7))
    XCTAssertEqual(requests.callerCount(for: 7), 0)
  }

  func testLoadsOfDifferentKeysDoNotShare() async {
    let requests = Deduplicator<Int, String>()
    @Loadable var one: LoadableState<String>
    @Loadable var two: LoadableState<String>
    let gates = [1: Gate<String>(), 2: Gate<String>()]
    var fetched: [Int] = []
    func load(_ state: Loadable<String>.Binding, _ key: Int) -> Task<Void, Never> {
      state.load(policy: .dedupe(requests, key: key)) {
        fetched.append(key)
        return try await gates[key]!.pass()
      }
    }
    let a = load($one, 1)
    let b = load($two, 2)
    await gates[1]!.arrival()
    await gates[2]!.arrival()
    XCTAssertEqual(requests.inFlightCount, 2)
    gates[2]!.open("two")
    gates[1]!.open("one")
    await a.value
    await b.value
    XCTAssertEqual(fetched, [1, 2])
    XCTAssertEqual(one, .loaded("one"))
    XCTAssertEqual(two, .loaded("two"))
  }

  func testCancellingOneOfThreeCallersLeavesTheFetchForTheOtherTwo() async {
    let requests = Deduplicator<Int, String>()
    let callers = (0..<3).map { _ in Loadable<String>() }
    let gate = Gate<String>()
    var fetchSaw: (any Error)?
    let tasks = callers.map { caller in
      caller.projectedValue.load(policy: .dedupe(requests, key: 7)) {
        do {
          return try await gate.pass()
        } catch {
          fetchSaw = error
          throw error
        }
      }
    }
    await gate.arrival()
    for _ in 0..<1_000 where requests.callerCount(for: 7) < 3 { await Task.yield() }
    callers[1].projectedValue.cancel()
    await tasks[1].value
    XCTAssertEqual(requests.callerCount(for: 7), 2)
    for _ in 0..<100 { await Task.yield() }  // a wrongly cancelled fetch would see it now
    XCTAssertNil(fetchSaw, "the shared fetch was cancelled with callers still waiting")
    XCTAssertEqual(gate.waiting, 1)
    gate.open("shared")
    for task in tasks { await task.value }
    XCTAssertEqual(callers[0].wrappedValue, .loaded("shared"))
    XCTAssertEqual(callers[1].wrappedValue, .absent, "the cancelled caller wrote")
    XCTAssertEqual(callers[2].wrappedValue, .loaded("shared"))
  }

  func testCancellingAllThreeCallersCancelsTheFetch() async {
    let requests = Deduplicator<Int, String>()
    let callers = (0..<3).map { _ in Loadable<String>() }
    let gate = Gate<String>()
    let fetchEnded = Gate<Void>()
    var fetchSaw: (any Error)?
    let tasks = callers.map { caller in
      caller.projectedValue.load(policy: .dedupe(requests, key: 7)) {
        do {
          return try await gate.pass()
        } catch {
          fetchSaw = error
          fetchEnded.open()
          throw error
        }
      }
    }
    await gate.arrival()
    for _ in 0..<1_000 where requests.callerCount(for: 7) < 3 { await Task.yield() }
    callers[0].projectedValue.cancel()
    callers[1].projectedValue.reset()
    await tasks[0].value
    await tasks[1].value
    XCTAssertNil(fetchSaw, "the fetch was cancelled while a caller still waited")
    let superseding: Task<Void, Never> = callers[2].projectedValue.load { "unrelated" }
    await tasks[2].value
    await superseding.value
    _ = try? await fetchEnded.pass()  // returns once the fetch saw its cancellation
    XCTAssertTrue(fetchSaw is CancellationError, "\(String(describing: fetchSaw))")
    for _ in 0..<1_000 where requests.isInFlight(7) { await Task.yield() }
    XCTAssertEqual(requests.inFlightCount, 0)
    XCTAssertEqual(
      callers.map(\.wrappedValue), [.absent, .absent, .loaded("unrelated")])
  }

  /// A load that joins a fetch just as its only other caller is cancelled (a reused row: the
  /// old load cancelled, a new one started for the same key) must still end with a value,
  /// whether it shares that fetch or starts its own.
  func testACallerJoiningAsTheLastOneLeavesStillGetsAValue() async {
    for round in 0..<20 {
      let requests = Deduplicator<Int, String>()
      let old = Loadable<String>()
      let new = Loadable<String>()
      let gate = Gate<String>()
      let oldTask: Task<Void, Never> = old.projectedValue.load(
        policy: .dedupe(requests, key: 1)
      ) { try await gate.pass() }
      await gate.arrival()
      let newTask: Task<Void, Never> = new.projectedValue.load(
        policy: .dedupe(requests, key: 1)
      ) { try await gate.pass() }
      old.projectedValue.cancel()
      await oldTask.value
      for _ in 0..<100 { await Task.yield() }  // the deduplicator tidies up on the main actor
      gate.open("shared")
      await newTask.value
      XCTAssertEqual(
        new.wrappedValue, .loaded("shared"), "round \(round): the new load ended without a value")
      if new.wrappedValue != .loaded("shared") { return }
    }
  }

  func testAnErrorReachesEveryCaller() async {
    let requests = Deduplicator<Int, String>()
    let callers = (0..<3).map { _ in Loadable<String>() }
    let gate = Gate<String>()
    let tasks = callers.map { caller in
      caller.projectedValue.load(policy: .dedupe(requests, key: 7)) { try await gate.pass() }
    }
    await gate.arrival()
    for _ in 0..<1_000 where requests.callerCount(for: 7) < 3 { await Task.yield() }
    gate.fail(TestError(code: 9))
    for task in tasks { await task.value }
    XCTAssertEqual(
      callers.map(\.wrappedValue), Array(repeating: .error(TestError(code: 9)), count: 3))
    XCTAssertEqual(requests.inFlightCount, 0)
  }

  func testOnceTheFetchEndsTheNextLoadFetchesAgain() async {
    let requests = Deduplicator<Int, String>()
    @Loadable var value: LoadableState<String>
    var fetches = 0
    await $value.load(policy: .dedupe(requests, key: 1)) {
      fetches += 1
      throw TestError(code: fetches)
    }
    XCTAssertEqual(value, .error(TestError(code: 1)))
    for expected in 2...3 {
      await $value.load(policy: .dedupe(requests, key: 1)) {
        fetches += 1
        return "fetch \(fetches)"
      }
      XCTAssertEqual(value, .loaded("fetch \(expected)"))
    }
    XCTAssertEqual(fetches, 3)
  }

  func testDedupeWorksThroughTheKeyPathForm() async {
    @MainActor final class Row: LoadableSupport {
      var avatar: LoadableState<String> = .absent
      func show(_ user: Int, from requests: Deduplicator<Int, String>, gate: Gate<String>)
        -> Task<Void, Never>
      {
        load(\.avatar, policy: .dedupe(requests, key: user)) { try await gate.pass() }
      }
    }
    let requests = Deduplicator<Int, String>()
    let gate = Gate<String>()
    let rows = (0..<3).map { _ in Row() }
    let tasks = rows.map { $0.show(42, from: requests, gate: gate) }
    await gate.arrival()
    for _ in 0..<1_000 where requests.callerCount(for: 42) < 3 { await Task.yield() }
    XCTAssertEqual(requests.callerCount(for: 42), 3)
    gate.open("avatar 42")
    for task in tasks { await task.value }
    XCTAssertEqual(gate.arrived, 1, "the rows made more than one request")
    XCTAssertEqual(rows.map(\.avatar), Array(repeating: .loaded("avatar 42"), count: 3))
  }

  // MARK: - Progress reaches every caller

  func testEveryCallerSeesTheSharedFetchsProgressInOrder() async {
    let requests = Deduplicator<Int, String>()
    @Loadable var first: LoadableState<String>
    @Loadable var second: LoadableState<String>
    let joined = Gate<Void>()
    let secondGone = Gate<Void>()
    var seen: [[Double?]] = []
    func look() { seen.append([$first.progress?.fraction, $second.progress?.fraction]) }
    let a: Task<Void, Never> = $first.load(policy: .dedupe(requests, key: 7)) {
      LoadingProgress.report(fraction: 0.25)
      look()
      try await joined.pass()
      look()
      LoadingProgress.report(fraction: 0.5)
      look()
      LoadingProgress.report(fraction: 0.75)
      look()
      try await secondGone.pass()
      LoadingProgress.report(fraction: 1)
      look()
      return "shared"
    }
    await joined.arrival()
    let b: Task<Void, Never> = $second.load(policy: .dedupe(requests, key: 7)) { "unused" }
    await yieldUntil { requests.callerCount(for: 7) == 2 }
    XCTAssertEqual(requests.callerCount(for: 7), 2, "the second load never joined the fetch")
    XCTAssertEqual(
      $second.progress?.fraction, 0.25, "a caller that joined late did not see the latest report")
    joined.open()
    await secondGone.arrival()
    $second.cancel()
    await b.value
    secondGone.open()
    await a.value
    XCTAssertEqual(
      seen,
      [[0.25, nil], [0.25, 0.25], [0.5, 0.5], [0.75, 0.75], [1, nil]],
      "each report must reach every caller still waiting, in order, and no cancelled one")
    XCTAssertEqual(first, .loaded("shared"))
    XCTAssertNil($first.progress)
    XCTAssertNil($second.progress)
  }

  func testALoaderAndAWrapperSharingAFetchBothSeeItsProgress() async {
    let requests = Deduplicator<Int, String>()
    @Loadable var row: LoadableState<String>
    let reported = Gate<Void>()
    let finish = Gate<Void>()
    var seen: [[LoadingProgress?]] = []
    final class Box { var loader: (any Loader)? }
    let box = Box()
    func look() { seen.append([$row.progress, box.loader?.progress]) }
    let loader = BlockLoader<String>(policy: .dedupe(requests, key: 7)) { "unused" }
    box.loader = loader
    let rowTask: Task<Void, Never> = $row.load(policy: .dedupe(requests, key: 7)) {
      LoadingProgress.report(fraction: 0.5, message: "half")
      look()
      try await reported.pass()
      look()
      LoadingProgress.report(fraction: 0.9, message: "nearly")
      look()
      try await finish.pass()
      return "shared"
    }
    await reported.arrival()
    let loaderTask = Task { await loader.load() }
    await yieldUntil { requests.callerCount(for: 7) == 2 }
    XCTAssertEqual(requests.callerCount(for: 7), 2, "the loader never joined the fetch")
    reported.open()
    finish.open()
    await rowTask.value
    _ = await loaderTask.value
    let half = LoadingProgress(fraction: 0.5, message: "half")
    let nearly = LoadingProgress(fraction: 0.9, message: "nearly")
    XCTAssertEqual(seen, [[half, nil], [half, half], [nearly, nearly]])
    XCTAssertEqual(row, .loaded("shared"))
    XCTAssertEqual(loader.state, .loaded("shared"))
  }
}

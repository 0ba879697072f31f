import Loadables
import Observation
import XCTest

/// `LoadableSupport` against the engine contract, and against each defect of Processed's
/// class form (PEERS.md).
@MainActor
final class LoadableSupportTests: XCTestCase {
  func testLoadWritesLoadingThenLoaded() async {
    let model = NumbersModel()
    let gate = Gate<[Int]>()
    let task = model.refresh { try await gate.pass() }
    XCTAssertEqual(model.numbers, .loading)
    XCTAssertTrue(model.handle(\.numbers).isRunning)
    gate.open([1])
    await task.value
    XCTAssertEqual(model.numbers, .loaded([1]))
    XCTAssertFalse(model.handle(\.numbers).isRunning)
  }

  func testTwoInstancesNeverCancelEachOther() async {
    let first = NumbersModel()
    let second = NumbersModel()
    let firstGate = Gate<[Int]>()
    let secondGate = Gate<[Int]>()
    let firstTask = first.refresh { try await firstGate.pass() }
    let secondTask = second.refresh { try await secondGate.pass() }
    XCTAssertFalse(firstTask.isCancelled, "a load on another instance cancelled this one")

    firstGate.open([1])
    secondGate.open([2])
    await firstTask.value
    await secondTask.value
    XCTAssertEqual(first.numbers, .loaded([1]), "instances share a slot")
    XCTAssertEqual(second.numbers, .loaded([2]))
  }

  func testCancelReachesTheLoadStartedByARestart() async {
    let model = NumbersModel()
    let firstGate = Gate<[Int]>()
    let firstTask = model.refresh { try await firstGate.passIgnoringCancellation() }
    await firstGate.arrival()
    let secondGate = Gate<[Int]>()
    let secondTask = model.refresh { try await secondGate.pass() }

    // The superseded load ends after the restart; its clean-up must not forget the new load.
    firstGate.open([1])
    await firstTask.value
    XCTAssertTrue(model.handle(\.numbers).isRunning, "the old load's clean-up ended the new one")

    model.cancel(\.numbers)
    XCTAssertEqual(secondGate.waiting, 0, "cancel() no longer reaches the running load")
    secondGate.open([2])
    await secondTask.value
    XCTAssertTrue(secondTask.isCancelled, "cancel() no longer reaches the running load")
    XCTAssertEqual(model.numbers, .absent, "cancel() did not bring back what the first spinner hid")
  }

  func testSupersededLoadThatIgnoresCancellationNeverWrites() async {
    let model = NumbersModel()
    let gate = Gate<[Int]>()
    let first = model.refresh { try await gate.passIgnoringCancellation() }
    await gate.arrival()
    await model.refresh { [2] }.value
    gate.open([1])
    await first.value
    XCTAssertEqual(model.numbers, .loaded([2]), "a superseded load wrote in the class form")
  }

  func testCancelledLoadThatIgnoresCancellationNeverWrites() async {
    let model = NumbersModel()
    let gate = Gate<[Int]>()
    let task = model.refresh { try await gate.passIgnoringCancellation() }
    await gate.arrival()
    model.cancel(\.numbers)
    gate.open([1])
    await task.value
    XCTAssertEqual(model.numbers, .absent, "a cancelled load wrote in the class form")
  }

  func testYieldsFromASupersededLoadAreDropped() async {
    let model = NumbersModel()
    let gate = Gate<Void>()
    let first: Task<Void, Never> = model.load(\.numbers) { yield in
      yield(.loaded([1]))
      try await gate.passIgnoringCancellation()
      yield(.loaded([1, 2]))
    }
    await gate.arrival()
    let secondGate = Gate<[Int]>()
    let second = model.refresh(silently: true) { try await secondGate.pass() }
    gate.open()
    await first.value
    XCTAssertEqual(model.numbers, .loaded([1]), "a superseded load's yield was written")
    secondGate.open([7])
    await second.value
    XCTAssertEqual(model.numbers, .loaded([7]))
  }

  func testYieldsAfterTheTaskIsCancelledAreDropped() async {
    let model = NumbersModel()
    let gate = Gate<Void>()
    let task: Task<Void, Never> = model.load(\.numbers) { yield in
      try await gate.passIgnoringCancellation()
      yield(.loaded([1]))
    }
    await gate.arrival()
    task.cancel()
    gate.open()
    await task.value
    XCTAssertEqual(model.numbers, .absent, "a cancelled load's yield was written")
  }

  func testAwaitedLoadCancelsThePreviousLoad() async {
    let model = NumbersModel()
    let gate = Gate<[Int]>()
    let task = model.refresh { try await gate.passIgnoringCancellation() }
    await gate.arrival()
    await model.load(\.numbers) { [2] }
    XCTAssertTrue(task.isCancelled, "an awaited load did not cancel the previous load")
    gate.open([1])
    await task.value
    XCTAssertEqual(model.numbers, .loaded([2]))
  }

  func testCancelStopsAnAwaitedLoad() async {
    let model = NumbersModel()
    let gate = Gate<[Int]>()
    let caller = Task { await model.load(\.numbers) { try await gate.pass() } }
    await gate.arrival()
    XCTAssertTrue(model.handle(\.numbers).isRunning, "an awaited load is not registered")
    model.cancel(\.numbers)
    XCTAssertEqual(gate.waiting, 0, "cancel() did not reach the awaited load's block")
    gate.open([1])
    await caller.value
    XCTAssertFalse(caller.isCancelled, "stopping an awaited load cancelled its caller")
    XCTAssertEqual(model.numbers, .absent)
  }

  func testResetStopsTheLoadAndWritesAbsent() async {
    let model = NumbersModel()
    let gate = Gate<[Int]>()
    let task = model.refresh { try await gate.passIgnoringCancellation() }
    await gate.arrival()
    model.reset(\.numbers)
    XCTAssertEqual(model.numbers, .absent)
    gate.open([1])
    await task.value
    XCTAssertEqual(model.numbers, .absent)
  }

  func testResetWithoutALoadWritesAbsent() {
    let model = NumbersModel()
    model.numbers = .loaded([1])
    model.reset(\.numbers)
    XCTAssertEqual(model.numbers, .absent)
    model.cancel(\.numbers)  // nothing to cancel: a no-op
    XCTAssertEqual(model.numbers, .absent)
  }

  func testControlErrorsAndFailures() async {
    let model = NumbersModel()
    await model.load(\.numbers) { throw TestError(code: 3) }
    XCTAssertEqual(model.numbers, .error(TestError(code: 3)))
    await model.load(\.numbers, silently: true) { throw CancelLoadable() }
    XCTAssertEqual(model.numbers, .error(TestError(code: 3)))
    await model.load(\.numbers) { throw ResetLoadable() }
    XCTAssertEqual(model.numbers, .absent)
  }

  func testBlockCanUseImplicitSelf() async {
    let model = NumbersModel()
    await model.loadFromSource()
    XCTAssertEqual(model.numbers, .loaded([42]))
  }

  func testEachKeyPathHasItsOwnSlot() async {
    let model = NumbersModel()
    let gate = Gate<[Int]>()
    let numbersTask = model.refresh { try await gate.pass() }
    await model.load(\.other) { [5] }
    XCTAssertFalse(numbersTask.isCancelled, "loading one key path cancelled another")
    gate.open([1])
    await numbersTask.value
    XCTAssertEqual(model.numbers, .loaded([1]))
    XCTAssertEqual(model.other, .loaded([5]))
  }

  func testTenThousandRestartsEndInTheLastValue() async {
    let model = CounterModel()
    var tasks: [Task<Void, Never>] = []
    tasks.reserveCapacity(10_000)
    for index in 1...10_000 {
      tasks.append(model.load(\.counter) { index })
    }
    for task in tasks { await task.value }
    XCTAssertEqual(model.counter, .loaded(10_000))
    XCTAssertEqual(model.writes, 2, "expected exactly .loading and the last .loaded")
  }

  func testObservableOwnerNotifiesOncePerChange() async {
    let model = NumbersModel()
    let counter = ChangeCounter { _ = model.numbers }
    await model.load(\.numbers) { [1] }
    XCTAssertEqual(counter.count, 2)
    await model.load(\.numbers, silently: true) { [2] }
    XCTAssertEqual(counter.count, 3)
  }

  func testIsRunningIsObservable() async {
    let model = NumbersModel()
    let counter = ChangeCounter { _ = model.handle(\.numbers).isRunning }
    await model.load(\.numbers, silently: true) { [1] }
    XCTAssertEqual(counter.count, 2, "isRunning(_:) must notify on start and on end")
  }

  // MARK: - Lifetimes

  func testAPendingLoadDoesNotKeepItsOwnerAlive() async {
    var model: NumbersModel? = NumbersModel()
    weak let weakModel = model
    let gate = Gate<[Int]>()
    let task = model!.refresh { try await gate.passIgnoringCancellation() }
    await gate.arrival()
    model = nil
    XCTAssertNil(weakModel, "a pending load kept its owner alive")
    gate.open([1])
    await task.value  // the late result has nowhere to go and must not crash
  }

  func testAFinishedLoadDoesNotKeepItsOwnerAlive() async {
    var model: NumbersModel? = NumbersModel()
    weak let weakModel = model
    await model!.refresh { [1] }.value
    model = nil
    XCTAssertNil(weakModel)
  }
}

@MainActor @Observable
final class NumbersModel: LoadableSupport {
  var numbers: LoadableState<[Int]> = .absent
  var other: LoadableState<[Int]> = .absent
  var source: [Int] = [42]

  /// A Task-returning load, as a view model's synchronous `refresh()` would start it.
  func refresh(
    silently: Bool = false,
    _ fetch: @escaping @MainActor () async throws -> [Int]
  ) -> Task<Void, Never> {
    load(\.numbers, silently: silently) { try await fetch() }
  }

  func loadFromSource() async {
    await load(\.numbers) { source }
  }
}

/// A plain (not observable) class that counts the writes to its state.
@MainActor
final class CounterModel: LoadableSupport {
  var writes = 0
  var counter: LoadableState<Int> = .absent {
    didSet { writes += 1 }
  }
}

import LoadablesTesting
import XCTest

@testable import Loadables

/// The key-path slot table is internal, so these tests reach it with `@testable`: they pin
/// the promise that a finished load leaves nothing behind and that dead owners are swept.
@MainActor
final class SlotTableTests: XCTestCase {
  override func setUp() async throws {
    SlotRegistry.sweep()
    XCTAssertEqual(SlotRegistry.slotCount, 0, "an earlier test left slots behind")
  }

  func testFinishedLoadsLeaveNothingBehind() async {
    let models = (0..<100).map { _ in NumbersModel() }
    var tasks: [Task<Void, Never>] = []
    for (index, model) in models.enumerated() {
      tasks.append(model.load(\.numbers) { [index] })
      tasks.append(model.load(\.other) { throw TestError() })
    }
    XCTAssertEqual(SlotRegistry.slotCount, 200)
    XCTAssertEqual(SlotRegistry.ownerCount, 100)
    for task in tasks { await task.value }
    XCTAssertEqual(SlotRegistry.slotCount, 0, "finished loads left slots behind")
    XCTAssertEqual(SlotRegistry.ownerCount, 0)
  }

  func testReadingAttemptKeepsTheSlotLikeProgressDoes() async {
    let model = NumbersModel()
    _ = model.handle(\.numbers).attempt  // a view shows the retry attempt
    await model.load(\.numbers, policy: .retry(maxAttempts: 2, backoff: .immediate)) { [1] }
    XCTAssertEqual(
      SlotRegistry.slotCount, 1, "the slot a view observes through attempt(_:) was dropped")
    _ = model.handle(\.other).progress
    await model.load(\.other) { [2] }
    XCTAssertEqual(SlotRegistry.slotCount, 2)
  }

  func testCancelledAndResetLoadsLeaveNothingBehind() async {
    let model = NumbersModel()
    let gate = Gate<[Int]>()
    let first = model.refresh { try await gate.pass() }
    model.cancel(\.numbers)
    let second = model.refresh { try await gate.pass() }
    model.reset(\.numbers)
    XCTAssertEqual(SlotRegistry.slotCount, 0)
    await first.value
    await second.value
    XCTAssertEqual(SlotRegistry.slotCount, 0)
  }

  func testADeadOwnersPendingLoadIsSweptAndCancelled() async {
    var model: NumbersModel? = NumbersModel()
    let gate = Gate<[Int]>()
    let task = model!.refresh { try await gate.pass() }
    await gate.arrival()
    model = nil
    XCTAssertEqual(SlotRegistry.ownerCount, 1)
    SlotRegistry.sweep()
    XCTAssertEqual(SlotRegistry.ownerCount, 0)
    XCTAssertEqual(gate.waiting, 0, "sweeping a dead owner did not cancel its load")
    gate.open([1])
    await task.value
    XCTAssertTrue(task.isCancelled)
  }

  func testADeadOwnersLoadStopsAtItsFirstWrite() async {
    var model: NumbersModel? = NumbersModel()
    let gate = Gate<Void>()
    let yielded = Gate<Void>()
    let rest = Gate<Void>()
    let task: Task<Void, Never> = model!.load(\.numbers) { yield in
      try await gate.passIgnoringCancellation()
      yield(.loaded([1]))
      yielded.open()
      try await rest.pass()
    }
    await gate.arrival()
    model = nil
    gate.open()
    try? await yielded.pass()
    XCTAssertTrue(task.isCancelled, "a load whose owner is gone went on after trying to write")
    rest.open()
    await task.value
    XCTAssertEqual(SlotRegistry.slotCount, 0)
  }

  func testARecorderKeepsAKeyPathSlotUntilItStops() async {
    let model = NumbersModel()
    let recorder = StateRecorder(model, \.numbers)
    await model.load(\.numbers) { [1] }
    XCTAssertEqual(SlotRegistry.slotCount, 1, "a recorded key path lost its slot")
    recorder.stop()
    XCTAssertEqual(SlotRegistry.slotCount, 0, "a stopped recorder left its slot behind")
  }

  func testAStateStreamKeepsAKeyPathSlotUntilItsObserverStops() async {
    let model = NumbersModel()
    let subscribed = Gate<Void>()
    let observer = Task { () -> Int in
      var count = 0
      for await state in model.handle(\.numbers).states {
        count += 1
        subscribed.open()
        if state == .loaded([2]) { break }
      }
      return count  // the stream, made in this task, is released with it
    }
    try? await subscribed.pass()
    await model.load(\.numbers) { [1] }
    XCTAssertEqual(SlotRegistry.slotCount, 1, "a streamed key path lost its slot")
    await model.load(\.numbers) { [2] }
    _ = await observer.value
    await Task { @MainActor in }.value  // the stream ends its subscription on the main actor
    XCTAssertEqual(SlotRegistry.slotCount, 0, "an ended stream left its slot behind")
  }

  func testTheTableIsSweptAsItGrows() async {
    let neverOpened = Gate<[Int]>()
    for _ in 0..<200 {
      let model = NumbersModel()
      _ = model.refresh { try await neverOpened.pass() }
    }
    // Every owner died with its load pending; growth past the threshold swept them.
    XCTAssertLessThan(SlotRegistry.ownerCount, 130, "dead owners are never swept")
    SlotRegistry.sweep()
    XCTAssertEqual(SlotRegistry.ownerCount, 0)
  }
}

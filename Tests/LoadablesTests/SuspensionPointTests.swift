import XCTest

@testable import Loadables

/// Stops a load at every `await` inside the engine, and proves that nothing is written
/// afterwards and that no task is left behind.
///
/// The engine suspends in four places: the block of a returning load, the block of a
/// yielding load (between two yields), the interrupt timer's clock sleep, and the caller of
/// an awaited load (the block runs in the caller's task, so the caller waits there). Each
/// test holds a load at one of them with a gate, stops it there — `cancel()`, `reset()`, a
/// newer load, releasing the owner, cancelling the load's own task (or an awaited load's
/// caller) — in both the `@Loadable` and the `LoadableSupport` forms, with a block that
/// honours cancellation and one that ignores it. Then:
///
/// - a block that honours cancellation ends by itself, without its gate opening;
/// - a block that ignores it is let finish late (it yields and returns), and writes nothing;
/// - the load's task (or the caller) finishes, `isRunning` is false, the interrupt timer has
///   ended (its handler is released) and, for key paths, the slot table is empty.
@MainActor
final class SuspensionPointTests: XCTestCase {
  enum Stopper: CaseIterable, CustomStringConvertible {
    case cancel, reset, newerLoad, releaseOwner, cancelTask

    var description: String {
      switch self {
      case .cancel: "cancel()"
      case .reset: "reset()"
      case .newerLoad: "a newer load"
      case .releaseOwner: "releasing the owner"
      case .cancelTask: "cancelling the load's task"
      }
    }
  }

  override func setUp() async throws {
    SlotRegistry.sweep()
    XCTAssertEqual(SlotRegistry.slotCount, 0, "an earlier test left slots behind")
  }

  override func tearDown() async throws {
    SlotRegistry.sweep()
  }

  /// The suspension in a returning block (`try await block()`).
  func testStoppingAReturningBlockWhileItIsSuspended() async {
    await checkEveryStopper(awaited: false, yielding: false, interrupts: false)
  }

  /// The suspension in a yielding block, after its first yield.
  func testStoppingAYieldingBlockBetweenYields() async {
    await checkEveryStopper(awaited: false, yielding: true, interrupts: false)
  }

  /// The interrupt timer's clock sleep, after it has fired once.
  func testStoppingALoadWhileItsInterruptTimerSleeps() async {
    await checkEveryStopper(awaited: false, yielding: false, interrupts: true)
    await checkEveryStopper(awaited: false, yielding: true, interrupts: true)
  }

  /// The caller of an awaited load, waiting while the block runs in its task.
  func testStoppingAnAwaitedLoadWhileItsCallerWaits() async {
    await checkEveryStopper(awaited: true, yielding: false, interrupts: false)
    await checkEveryStopper(awaited: true, yielding: true, interrupts: false)
    await checkEveryStopper(awaited: true, yielding: false, interrupts: true)
  }

  /// A key-path load whose owner is released is stopped by the table's sweep while its block
  /// waits (the wrapper's load is stopped at once, by its storage's `deinit`).
  func testSweepingADeadOwnerStopsItsSuspendedLoad() async {
    for yielding in [false, true] {
      for honors in [true, false] {
        let scenario = Scenario(
          keyPath: true, awaited: false, yielding: yielding, interrupts: true,
          honorsCancellation: honors, stopper: .releaseOwner, sweepAfterRelease: true)
        if let failure = await run(scenario) { return XCTFail("\(scenario): \(failure)") }
      }
    }
  }

  private func checkEveryStopper(awaited: Bool, yielding: Bool, interrupts: Bool) async {
    for keyPath in [false, true] {
      for stopper in Stopper.allCases {
        // An awaited load's caller holds the owner (or, for a wrapper, its storage) until
        // the load returns, so releasing the owner cannot stop it: nothing to test.
        if awaited && stopper == .releaseOwner { continue }
        for honors in [true, false] {
          let scenario = Scenario(
            keyPath: keyPath, awaited: awaited, yielding: yielding, interrupts: interrupts,
            honorsCancellation: honors, stopper: stopper, sweepAfterRelease: false)
          // The first failure is enough; the next scenarios could each wait out a timeout.
          if let failure = await run(scenario) { return XCTFail("\(scenario): \(failure)") }
        }
      }
    }
  }

  // MARK: - One scenario

  struct Scenario: CustomStringConvertible {
    var keyPath: Bool
    var awaited: Bool
    var yielding: Bool
    var interrupts: Bool
    var honorsCancellation: Bool
    var stopper: Stopper
    var sweepAfterRelease: Bool

    var description: String {
      [
        keyPath ? "load(\\.state)" : "@Loadable",
        awaited ? "awaited" : "Task-returning",
        yielding ? "yielding" : "returning",
        interrupts ? "with interrupts" : nil,
        honorsCancellation ? "honouring cancellation" : "ignoring cancellation",
        "stopped by \(stopper)" + (sweepAfterRelease ? " and a sweep" : ""),
      ].compactMap { $0 }.joined(separator: ", ")
    }
  }

  /// Runs one scenario; returns what went wrong, if anything.
  private func run(_ scenario: Scenario) async -> String? {
    SlotRegistry.sweep()  // the previous scenario's dead owner, whose slot was observed
    var subject: (any SuspensionForm)? = scenario.keyPath ? KeyPathSubject() : WrapperSubject()
    let weakSubject = WeakBox(subject)
    let script = LoadScript(ignoresCancellation: !scenario.honorsCancellation)
    let tracker = WeakBox(nil)
    let task: Task<Void, Never>
    do {
      var handler: (@MainActor (Duration) throws -> Void)?
      if scenario.interrupts {
        let strongTracker = InterruptTracker()
        tracker.value = strongTracker
        handler = { _ in strongTracker.fire() }
      }
      // From here on only the load (its interrupt timer, or an awaited load's caller)
      // holds the handler and so the tracker.
      task = subject!.start(
        awaited: scenario.awaited, yielding: scenario.yielding, script: script,
        interrupts: handler)
    }

    // Hold the load at its suspension point.
    guard await script.nextEvent() == .parked(0) else { return "the block did not start" }
    var step = 0
    if scenario.yielding {
      script.send(.yield(.loaded(5)), at: 0)
      guard await script.nextEvent() == .parked(1) else { return "the block did not yield" }
      step = 1
      guard subject!.state == .loaded(5) else { return "the first yield was not written" }
    }
    if let firstFire = (tracker.value as? InterruptTracker)?.firstFire {
      // The timer fired at once (delay zero) and now sleeps for the hour-long second delay.
      try? await firstFire.pass()
    }
    guard subject!.isRunning(observing: false) else { return "the load is not running" }

    // Stop it there.
    switch scenario.stopper {
    case .cancel: subject!.cancel()
    case .reset: subject!.reset()
    case .newerLoad:
      let newer = LoadScript(ignoresCancellation: false)
      let newerTask = subject!.start(
        awaited: false, yielding: false, script: newer, interrupts: nil)
      guard await newer.nextEvent() == .parked(0) else { return "the newer load did not start" }
      newer.send(.finish(2), at: 0)
      guard await newer.nextEvent() == .ended else { return "the newer load did not end" }
      await newerTask.value
    case .releaseOwner:
      subject = nil
      if weakSubject.value != nil { return "the released owner is still alive" }
      if scenario.sweepAfterRelease { SlotRegistry.sweep() }
    case .cancelTask: task.cancel()
    }
    let expectedState: ModelState? =
      switch scenario.stopper {
      // A cancelled load brings back what its spinner replaced, unless it yielded since.
      case .cancel, .cancelTask: scenario.yielding ? .loaded(5) : .loaded(0)
      case .reset: .absent
      case .newerLoad: .loaded(2)
      case .releaseOwner: nil
      }
    // A load whose own task (or awaiting caller) was cancelled stays current until its block
    // ends, and then writes back what it replaced: one write after the stop.
    let restoresAtEnd = scenario.stopper == .cancelTask && !scenario.yielding
    let writesAtStop = (subject?.writes ?? 0) + (restoresAtEnd ? 1 : 0)

    // The stop reaches the load's task, except for a key-path load whose owner died: that
    // load goes on until it tries to write (then it stops), or until the table is swept.
    // An awaited load runs in a child task of its caller: stopping it never cancels the
    // caller, which is cancelled only when the test cancels it.
    let orphanGoesOn =
      scenario.keyPath && scenario.stopper == .releaseOwner && !scenario.sweepAfterRelease
    let callerCancelled = scenario.awaited ? scenario.stopper == .cancelTask : !orphanGoesOn
    if task.isCancelled != callerCancelled {
      return "the load's \(scenario.awaited ? "caller" : "task") is "
        + "\(task.isCancelled ? "" : "not ")cancelled"
    }
    // Stopping the slot ends the interrupt timer at once. A load whose own task was
    // cancelled ends its timer when its block ends; so does an orphan's. (An awaited load's
    // caller holds the handler until the load returns, so there the timer's end is checked
    // after that.)
    if scenario.interrupts && !orphanGoesOn && scenario.stopper != .cancelTask
      && !scenario.awaited
    {
      if let failure = await timerEnded(tracker) { return "at the stop: \(failure)" }
    }

    // Let the block end: by itself when it honours cancellation and was cancelled, late
    // (yielding, then returning) otherwise.
    if scenario.honorsCancellation && !orphanGoesOn {
      guard await script.nextEvent() == .ended else { return "a cancelled block did not end" }
    } else {
      var ended = false
      if scenario.yielding {
        script.send(.yield(.loaded(9)), at: step)
        step += 1
        // An orphan's first write finds its owner gone and stops the load.
        ended = orphanGoesOn && scenario.honorsCancellation
        guard await script.nextEvent() == (ended ? .ended : .parked(step)) else {
          return "the late yield went wrong"
        }
        if orphanGoesOn && !task.isCancelled { return "an orphan's write did not stop it" }
      }
      if !ended {
        script.send(.finish(99), at: step)
        guard await script.nextEvent() == .ended else { return "the late block did not end" }
      }
    }
    if scenario.awaited {
      guard await script.nextEvent() == .callerReturned else { return "the caller did not return" }
    }
    await task.value

    // Nothing was written after the stop, and nothing is left running.
    if let subject, let expectedState {
      if subject.state != expectedState {
        return "state \(subject.state.map(String.init(describing:)) ?? "?") after the stop, "
          + "expected \(expectedState)"
      }
      if subject.writes != writesAtStop {
        return "\(subject.writes - writesAtStop) write(s) after the stop"
      }
    }
    if scenario.interrupts {
      if let failure = await timerEnded(tracker) { return failure }
    }
    if scenario.keyPath && (SlotRegistry.slotCount != 0 || SlotRegistry.ownerCount != 0) {
      return "\(SlotRegistry.slotCount) slots left in the table"
    }
    if let subject, subject.isRunning(observing: true) { return "still running" }
    return nil
  }

  /// Waits until the interrupt timer has ended, which releases its handler and with it the
  /// tracker. The timeout only bounds a failure: a timer that was not cancelled would sleep
  /// for an hour.
  private func timerEnded(_ tracker: WeakBox) async -> String? {
    let ended = XCTestExpectation(description: "the interrupt timer ends")
    do {
      guard let tracker = tracker.value as? InterruptTracker else { return nil }
      if tracker.fires != 1 { return "the timer fired \(tracker.fires) times, expected once" }
      tracker.onDeinit = { ended.fulfill() }
    }
    let result = await XCTWaiter.fulfillment(of: [ended], timeout: 10)
    return result == .completed ? nil : "the interrupt timer is still running"
  }
}

/// Counts the interrupts of one load and reports, from its `deinit`, that the interrupt
/// timer (the only holder of its handler) has ended.
@MainActor
final class InterruptTracker {
  let firstFire = Gate<Void>()
  private(set) var fires = 0
  nonisolated(unsafe) var onDeinit: (() -> Void)?

  func fire() {
    fires += 1
    firstFire.open()
  }

  deinit { onDeinit?() }
}

/// The two forms a suspension-point test drives, with a `LoadableState<Int>`.
@MainActor
protocol SuspensionForm: AnyObject {
  var state: ModelState? { get }
  var writes: Int { get }
  /// `isRunning`; reading it through the key-path API keeps the slot in the table, so the
  /// key-path form reads the table instead unless `observing`.
  func isRunning(observing: Bool) -> Bool
  func cancel()
  func reset()
  func start(
    awaited: Bool, yielding: Bool, script: LoadScript,
    interrupts: (@MainActor (Duration) throws -> Void)?
  ) -> Task<Void, Never>
}

/// The delays of every load with interrupts: one fire at once, then an hour's sleep.
private let interruptDelays: [Duration] = [.zero, .seconds(3600)]

@MainActor
final class WrapperSubject: SuspensionForm {
  @Loadable var value: LoadableState<Int>
  private var counter: ChangeCounter?

  init() {
    _value = Loadable(wrappedValue: .loaded(0))
    counter = ChangeCounter { [weak self] in _ = self?.value }
  }

  var state: ModelState? { ModelState(value) }
  var writes: Int { counter?.count ?? 0 }
  func isRunning(observing: Bool) -> Bool { $value.isRunning }
  func cancel() { $value.cancel() }
  func reset() { $value.reset() }

  func start(
    awaited: Bool, yielding: Bool, script: LoadScript,
    interrupts: (@MainActor (Duration) throws -> Void)?
  ) -> Task<Void, Never> {
    let binding = $value
    let returning: @MainActor () async throws -> Int = { try await script.returning() }
    let yieldingBlock: @MainActor ((LoadableState<Int>) -> Void) async throws -> Void = {
      yield in try await script.yielding { yield($0.loadable) }
    }
    switch (awaited, yielding, interrupts) {
    case (false, false, nil): return binding.load(block: returning)
    case (false, true, nil): return binding.load(block: yieldingBlock)
    case (false, false, let handler?):
      return binding.load(interrupts: interruptDelays, block: returning, onInterrupt: handler)
    case (false, true, let handler?):
      return binding.load(
        interrupts: interruptDelays, block: yieldingBlock, onInterrupt: handler)
    case (true, _, _):
      // The caller holds only the binding, as a view's `.task` would.
      return Task {
        switch (yielding, interrupts) {
        case (false, nil): await binding.load(block: returning)
        case (true, nil): await binding.load(block: yieldingBlock)
        case (false, let handler?):
          await binding.load(interrupts: interruptDelays, block: returning, onInterrupt: handler)
        case (true, let handler?):
          await binding.load(
            interrupts: interruptDelays, block: yieldingBlock, onInterrupt: handler)
        }
        script.record(.callerReturned)
      }
    }
  }
}

@MainActor
final class KeyPathSubject: SuspensionForm, LoadableSupport {
  var value: LoadableState<Int> = .loaded(0) { didSet { writes += 1 } }
  private(set) var writes = 0

  var state: ModelState? { ModelState(value) }
  func isRunning(observing: Bool) -> Bool {
    observing ? handle(\.value).isRunning : SlotRegistry.existingSlot(self, \.value) != nil
  }
  func cancel() { cancel(\.value) }
  func reset() { reset(\.value) }

  func start(
    awaited: Bool, yielding: Bool, script: LoadScript,
    interrupts: (@MainActor (Duration) throws -> Void)?
  ) -> Task<Void, Never> {
    let returning: @MainActor () async throws -> Int = { try await script.returning() }
    let yieldingBlock: @MainActor ((LoadableState<Int>) -> Void) async throws -> Void = {
      yield in try await script.yielding { yield($0.loadable) }
    }
    switch (awaited, yielding, interrupts) {
    case (false, false, nil): return load(\.value, block: returning)
    case (false, true, nil): return load(\.value, block: yieldingBlock)
    case (false, false, let handler?):
      return load(\.value, interrupts: interruptDelays, block: returning, onInterrupt: handler)
    case (false, true, let handler?):
      return load(
        \.value, interrupts: interruptDelays, block: yieldingBlock, onInterrupt: handler)
    case (true, _, _):
      return Task {
        switch (yielding, interrupts) {
        case (false, nil): await load(\.value, block: returning)
        case (true, nil): await load(\.value, block: yieldingBlock)
        case (false, let handler?):
          await load(\.value, interrupts: interruptDelays, block: returning, onInterrupt: handler)
        case (true, let handler?):
          await load(
            \.value, interrupts: interruptDelays, block: yieldingBlock, onInterrupt: handler)
        }
        script.record(.callerReturned)
      }
    }
  }
}

// Model-based randomized test of the engine contract (DESIGN.md, "The engine contract").
//
// Each sequence is 20–40 random operations on one form of the library — start a load
// (Task-returning or awaited, returning or yielding, silent or not, honouring or ignoring
// cancellation, awaited from a caller that is already cancelled), make a parked block yield,
// return or throw (an ordinary error, a non-Equatable one, CancellationError, and each
// control error of both kinds), cancel, reset, assign the wrapped value (in the key-path
// forms the plain property, a write the engine cannot see, also while a load runs and before
// a newer one supersedes it), cancel a load's own task, release the owner — checked after every step against `ReferenceModel`: the state,
// the number of writes, `isRunning` (or the key-path slot table), which tasks are cancelled,
// and what every block does next. Every block waits at its own gates, so the test decides
// when each one moves; it never sleeps or polls.
//
// Environment:
//   LOADABLES_MODEL_SEQUENCES  sequences in all, split over the four forms (default 10000)
//   LOADABLES_MODEL_SEED       base seed, decimal or 0x-hex, or "random" (default fixed)
//   LOADABLES_MODEL_REPLAY     the seed of one sequence (printed by a failure): runs only
//                              that sequence in every form and prints each step
//   LOADABLES_MODEL_WIDTH      sequences run at once on the main actor (default 16, max 21)
//
// A million sequences locally (250,000 per form; release build, testable; about 7 minutes on
// the 2-core CI machine, where the default 10,000 take about 9 s in debug):
//   LOADABLES_MODEL_SEQUENCES=1000000 LOADABLES_MODEL_SEED=random \
//     swift test -c release -Xswiftc -enable-testing --filter ModelBasedTests
//
// A failure prints the form, the sequence's seed, the failing step, what was expected and
// what was found, every operation up to it, and the command that replays it.

import Foundation
import XCTest

@testable import Loadables

@MainActor
final class ModelBasedTests: XCTestCase {
  override func setUp() async throws {
    SlotRegistry.sweep()
    XCTAssertEqual(SlotRegistry.slotCount, 0, "an earlier test left slots behind")
  }

  func testLoadableWrapperFollowsTheModel() async {
    await check(LoadableWrapperForm.self, salt: 1, test: "testLoadableWrapperFollowsTheModel")
  }

  func testLoadableSupportFollowsTheModel() async {
    await check(LoadableSupportForm.self, salt: 2, test: "testLoadableSupportFollowsTheModel")
  }

  func testProcessWrapperFollowsTheModel() async {
    await check(ProcessWrapperForm.self, salt: 3, test: "testProcessWrapperFollowsTheModel")
  }

  func testProcessSupportFollowsTheModel() async {
    await check(ProcessSupportForm.self, salt: 4, test: "testProcessSupportFollowsTheModel")
  }

  /// Runs the sequences in batches of concurrent ones (`LOADABLES_MODEL_WIDTH`, default 16).
  ///
  /// Everything runs on the main actor; running several sequences at once keeps it busy
  /// while each waits for its blocks, which is many times faster than one at a time. The
  /// sequences of a batch share nothing but the key-path slot table, and a batch makes all
  /// its owners before it starts, so no owner can reuse the identity of another's dead owner
  /// and the table (at most 3 entries a sequence, under its sweep threshold of 64) is never
  /// swept under them: each sequence behaves exactly as when it runs alone, which is how a
  /// failure is replayed.
  private func check<Form: ModelForm>(_ form: Form.Type, salt: UInt64, test: String) async {
    let config = ModelTestConfiguration.current
    let started = ContinuousClock.now
    var steps = 0
    var loads = 0
    let count = config.replay == nil ? config.sequencesPerForm : 1
    var first = 0
    while first < count {
      let batch = (first..<min(first + config.width, count)).map { index in
        let seed = config.replay ?? SplitMix64.mix(config.seed &+ salt << 32 &+ UInt64(index))
        return (
          index: index, seed: seed, run: ModelRun<Form>(seed: seed, verbose: config.replay != nil)
        )
      }
      let tasks = batch.map { sequence in Task { await sequence.run.run() } }
      var failed = false
      for (sequence, task) in zip(batch, tasks) {
        let failure = await task.value
        steps += sequence.run.stepCount
        loads += sequence.run.loadCount
        guard let failure, !failed else { continue }
        failed = true
        let which =
          config.replay == nil
          ? "sequence \(sequence.index) of base seed \(config.seed)" : "the replayed sequence"
        XCTFail(
          """
          \(Form.name): \(which) failed.
          \(failure)
          Replay: LOADABLES_MODEL_REPLAY=0x\(String(sequence.seed, radix: 16)) \
          swift test --filter ModelBasedTests/\(test)
          """)
      }
      if Form.isKeyPath {
        // Every owner is gone and every load has ended: only the slots that were observed
        // (by reading `isRunning`) remain, as dead entries, and a sweep removes them.
        let observed = batch.filter(\.run.observesRunning).count * ModelRun<Form>.ownerCount
        if !failed && SlotRegistry.slotCount != observed {
          XCTFail(
            "\(Form.name): after sequences \(first)..<\(first + batch.count) the slot table "
              + "holds \(SlotRegistry.slotCount) slots; expected the \(observed) observed ones")
          failed = true
        }
        SlotRegistry.sweep()
        if SlotRegistry.slotCount != 0 || SlotRegistry.ownerCount != 0 {
          XCTFail("\(Form.name): a sweep left \(SlotRegistry.slotCount) slots in the table")
          failed = true
        }
      }
      if failed { return }
      first += batch.count
    }
    let elapsed = ContinuousClock.now - started
    print(
      "Model test, \(Form.name): \(count) sequences, \(steps) steps, \(loads) loads, "
        + "base seed \(config.seed), \(elapsed)")
  }
}

/// The model test's settings, read from the environment.
struct ModelTestConfiguration {
  var sequencesPerForm: Int
  var seed: UInt64
  var replay: UInt64?
  var width: Int

  static let current: ModelTestConfiguration = {
    let environment = ProcessInfo.processInfo.environment
    let total = environment["LOADABLES_MODEL_SEQUENCES"].flatMap { Int($0) } ?? 10_000
    var seed: UInt64 = 0x4C4F_4144_4142_4C45  // "LOADABLE"
    if let text = environment["LOADABLES_MODEL_SEED"] {
      seed = text == "random" ? UInt64.random(in: .min ... .max) : parse(text) ?? seed
    }
    let width = environment["LOADABLES_MODEL_WIDTH"].flatMap { Int($0) } ?? 16
    return ModelTestConfiguration(
      sequencesPerForm: max(1, total / 4), seed: seed,
      replay: environment["LOADABLES_MODEL_REPLAY"].flatMap(parse),
      // More than 21 sequences (3 owners each) could reach the table's sweep threshold.
      width: min(max(1, width), 21))
  }()

  private static func parse(_ text: String) -> UInt64? {
    text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
  }
}

/// One random sequence of operations on one form, checked against the model after each step.
@MainActor
final class ModelRun<Form: ModelForm> {
  enum Operation: CustomStringConvertible {
    case start(LoadSpec, honorsCancellation: Bool)
    case command(load: Int, ScriptCommand)
    case cancel
    case reset
    case assign(ModelState)
    case cancelTask(load: Int)
    case releaseOwner

    var description: String {
      switch self {
      case .start(let spec, let honors):
        [
          "start",
          spec.awaited
            ? (spec.cancelledCaller ? "awaited in a cancelled caller" : "awaited") : "task",
          spec.yielding ? "yielding" : "returning",
          spec.silently ? "silently" : nil,
          honors ? nil : "ignoring cancellation",
          Form.isProcess ? "kind \(spec.kind)" : nil,
        ].compactMap { $0 }.joined(separator: " ")
      case .command(let load, let command): "L\(load) \(command)"
      case .cancel: "cancel()"
      case .reset: "reset()"
      case .assign(let state): Form.isKeyPath ? "state = \(state)" : "wrappedValue = \(state)"
      case .cancelTask(let load): "cancel the task of L\(load)"
      case .releaseOwner: "release the owner"
      }
    }
  }

  private struct Handle {
    let script: LoadScript
    /// The load's task, or the caller task an awaited load runs in.
    let task: Task<Void, Never>
    let awaited: Bool
  }

  static var ownerCount: Int { 3 }

  private var rng: SplitMix64
  private var model: ReferenceModel
  /// Every owner the sequence will use, made up front so that a released owner's identity is
  /// never reused by a later one within the sequence.
  private var owners: [Form.Owner?]
  private var releasedOwners: [WeakBox] = []
  private var handles: [Handle] = []
  private var history: [String] = []
  /// For key-path forms: whether the test reads `isRunning` (which keeps the slot in the
  /// table, observed) or checks the table instead (a slot is there only while it runs).
  let observesRunning: Bool
  private let length: Int
  private let verbose: Bool

  var stepCount: Int { history.count }
  var loadCount: Int { handles.count }

  init(seed: UInt64, verbose: Bool) {
    var rng = SplitMix64(seed: seed)
    let initial = (0..<Self.ownerCount).map { _ in Self.randomState(&rng) }
    model = ReferenceModel(
      isProcess: Form.isProcess, isKeyPath: Form.isKeyPath, initialStates: initial)
    owners = initial.map { Form.makeOwner($0) }
    observesRunning = !Form.isKeyPath || rng.percent(50)
    length = 20 + rng.below(21)
    self.rng = rng
    self.verbose = verbose
    if verbose {
      print(
        "\(Form.name), seed 0x\(String(seed, radix: 16)): initial \(initial[0]), "
          + (observesRunning ? "reads isRunning" : "checks the slot table"))
    }
  }

  /// Runs the sequence; returns a description of the first mismatch, if any.
  func run() async -> String? {
    // The first check reads `isRunning` of the first owner, as every later one does.
    if let failure = check() { return await failed(failure) }
    for _ in 0..<length {
      if let failure = await perform(randomOperation()) { return await failed(failure) }
    }
    // Let every block still waiting finish, then release every owner.
    for load in model.unfinishedLoads {
      let value = 100 + load
      if let failure = await perform(.command(load: load, .finish(value))) {
        return await failed(failure)
      }
    }
    while model.active < Self.ownerCount {
      if let failure = await perform(.releaseOwner) { return await failed(failure) }
    }
    if let failure = finalCheck() { return await failed(failure) }
    return nil
  }

  // MARK: - Choosing operations

  private func randomOperation() -> Operation {
    let unfinished = model.unfinishedLoads
    let canRelease = model.active < Self.ownerCount - 1 && !model.activeOwnerHasAwaitedLoad
    var choices: [(weight: Int, make: () -> Operation)] = [
      (28, { [self] in randomStart() }),
      (6, { .cancel }),
      (6, { .reset }),
      (6, { [self] in .assign(Self.randomState(&rng)) }),
    ]
    if !unfinished.isEmpty {
      choices.append((40, { [self] in randomCommand(unfinished) }))
      choices.append((6, { [self] in .cancelTask(load: rng.pick(unfinished)) }))
    }
    if canRelease { choices.append((2, { .releaseOwner })) }
    var roll = rng.below(choices.reduce(0) { $0 + $1.weight })
    for choice in choices {
      if roll < choice.weight { return choice.make() }
      roll -= choice.weight
    }
    preconditionFailure("unreachable")
  }

  private func randomStart() -> Operation {
    let awaited = rng.percent(35)
    let spec = LoadSpec(
      awaited: awaited,
      cancelledCaller: awaited && rng.percent(15),
      yielding: !Form.isProcess && rng.percent(45),
      silently: rng.percent(30),
      kind: rng.below(3))
    return .start(spec, honorsCancellation: rng.percent(70))
  }

  private func randomCommand(_ unfinished: [Int]) -> Operation {
    var load = rng.pick(unfinished)
    if model.active < Self.ownerCount, let current = model.slots[model.active].current,
      rng.percent(60)
    {
      load = current
    }
    let roll = rng.below(100)
    if model.loads[load].yielding && roll < 45 {
      return .command(load: load, .yield(Self.randomState(&rng, loadable: true)))
    }
    if roll < 72 {
      return .command(load: load, .finish(rng.percent(20) ? rng.below(3) : 100 + load))
    }
    let error = rng.pick([
      ModelError.test(rng.below(2)), .opaque, .cancellation, .cancelLoadable, .resetLoadable,
      .cancelProcess, .resetProcess,
    ])
    return .command(load: load, .fail(error))
  }

  private static func randomState(
    _ rng: inout SplitMix64, loadable: Bool = !Form.isProcess
  ) -> ModelState {
    let error = rng.percent(70) ? ModelError.test(rng.below(2)) : .opaque
    let kind = rng.below(3)
    if loadable {
      return rng.pick([.absent, .loading, .loaded(rng.below(3)), .error(error)])
    }
    return rng.pick([.idle, .running(kind), .finished(kind), .failed(kind, error)])
  }

  // MARK: - One step

  private func perform(_ operation: Operation) async -> String? {
    history.append("\(history.count): \(operation)")
    var expected: [ReferenceModel.Expectation]
    // A load that acts on its own (an awaited start, a commanded block) is awaited first:
    // only then has the operation fully happened.
    var first: Int?
    switch operation {
    case .start(let spec, let honors):
      let result = model.start(
        awaited: spec.awaited, cancelledCaller: spec.cancelledCaller, yielding: spec.yielding,
        honorsCancellation: honors, silently: spec.silently, kind: spec.kind)
      let script = LoadScript(ignoresCancellation: !honors)
      let task = Form.start(spec, on: activeOwner, script: script)
      handles.append(Handle(script: script, task: task, awaited: spec.awaited))
      expected = result.expected
      if spec.awaited { first = result.id }
    case .command(let load, let command):
      guard let step = model.loads[load].parkedAt else { preconditionFailure() }
      expected = model.command(load, command)
      handles[load].script.send(command, at: step)
      first = load
    case .cancel:
      expected = model.cancel()
      Form.cancel(activeOwner)
    case .reset:
      expected = model.reset()
      Form.reset(activeOwner)
    case .assign(let state):
      expected = model.assign(state)
      Form.assign(state, to: activeOwner)
    case .cancelTask(let load):
      expected = model.cancelTask(of: load)
      handles[load].task.cancel()
    case .releaseOwner:
      let index = model.active
      expected = model.releaseOwner()
      releasedOwners.append(WeakBox(owners[index]))
      owners[index] = nil
      if releasedOwners.last?.value != nil {
        return mismatch("the released owner is still alive: the library keeps it")
      }
    }

    if let first, let index = expected.firstIndex(where: { $0.load == first }) {
      if let failure = await settle(expected.remove(at: index)) { return failure }
    }
    // The other loads expected to move are those whose tasks were cancelled: check that
    // first, so that a missing cancellation fails instead of waiting forever.
    for (load, event) in expected
    where event == .ended && model.expectsTaskCancelled(load) && !handles[load].task.isCancelled {
      return mismatch("L\(load) should have been cancelled (and so end), but its task is not")
    }
    for expectation in expected {
      if let failure = await settle(expectation) { return failure }
    }
    return check()
  }

  /// Waits for a load's expected report, and for its task when it ends.
  private func settle(_ expectation: ReferenceModel.Expectation) async -> String? {
    let handle = handles[expectation.load]
    let event = await handle.script.nextEvent()
    guard event == expectation.event else {
      return mismatch(
        "L\(expectation.load): expected its block to be \(expectation.event), "
          + "but it was \(event)")
    }
    guard event == .ended else { return nil }
    if handle.awaited {
      let next = await handle.script.nextEvent()
      if next != .callerReturned {
        return mismatch("L\(expectation.load): its caller did not return, reported \(next)")
      }
    }
    await handle.task.value
    return nil
  }

  // MARK: - Checks

  private func check() -> String? {
    for load in model.loads.indices {
      if handles[load].script.hasUnconsumedEvents {
        return mismatch("L\(load) reported something the model did not expect")
      }
      let expected = model.loads[load]
      guard expected.parkedAt != nil else { continue }
      let cancelled = handles[load].task.isCancelled
      if cancelled != model.expectsTaskCancelled(load) {
        return mismatch(
          "L\(load): expected its \(expected.awaited ? "caller" : "task") "
            + "\(cancelled ? "not " : "")to be cancelled")
      }
    }
    if model.active < Self.ownerCount, let owner = owners[model.active] {
      let slot = model.slots[model.active]
      let state = Form.state(of: owner)
      if state != slot.state {
        return mismatch(
          "state: expected \(slot.state), found \(state.map(String.init(describing:)) ?? "?")")
      }
      if Form.writes(owner) != slot.writes {
        return mismatch("writes: expected \(slot.writes), found \(Form.writes(owner))")
      }
      if observesRunning {
        let running = Form.isRunning(owner)
        if running != (slot.current != nil) {
          return mismatch("isRunning: expected \(slot.current != nil), found \(running)")
        }
      }
      // An observed key-path slot stays in the table while its owner lives; an unobserved
      // one is there only while a load runs in it (a finished load leaves nothing behind).
      if Form.isKeyPath && Form.hasSlot(owner) != (observesRunning || slot.current != nil) {
        return mismatch(
          "slot table: expected \(observesRunning || slot.current != nil ? "a" : "no") slot")
      }
    }
    if verbose {
      let slot = model.active < Self.ownerCount ? model.slots[model.active] : nil
      print(
        "  \(history.last ?? "")  →  "
          + (slot.map {
            "\($0.state), \($0.writes) writes, current \($0.current.map { "L\($0)" } ?? "none")"
          }
            ?? "no owner"))
    }
    return nil
  }

  /// After the last owner is released and every load has ended, no owner is kept alive.
  /// (The slot table is checked once the whole batch has ended.)
  private func finalCheck() -> String? {
    if releasedOwners.contains(where: { $0.value != nil }) {
      return mismatch("an owner outlived the sequence")
    }
    return nil
  }

  private func mismatch(_ message: String) -> String {
    """
    Step \(history.count - 1): \(message)
    Operations:
      \(history.joined(separator: "\n  "))
    """
  }

  /// Lets every block run to its end after a failure, so that nothing is left waiting.
  private func failed(_ failure: String) async -> String {
    for handle in handles { handle.script.drain() }
    for handle in handles { await handle.task.value }
    owners = []
    return failure
  }

  private var activeOwner: Form.Owner {
    guard let owner = owners[model.active] else { preconditionFailure("no active owner") }
    return owner
  }
}

/// A weak reference, to check that something was deallocated.
final class WeakBox {
  weak var value: AnyObject?
  init(_ value: AnyObject?) { self.value = value }
}

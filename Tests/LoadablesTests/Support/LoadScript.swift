import Foundation
import Loadables

/// The block of one load in the model test, driven step by step by the test.
///
/// At each step the block reports `.parked(step)` and waits at a fresh ``StepGate`` for a
/// ``ScriptCommand``: yield a state, return, or throw. It reports `.ended` when it returns or
/// throws. The test awaits these reports (``nextEvent()``) instead of sleeping or polling, so
/// every run is deterministic.
///
/// A block that honours cancellation throws `CancellationError` from its gate once its task
/// is cancelled; one that ignores cancellation waits on and goes on, as careless code does.
@MainActor
final class LoadScript {
  let ignoresCancellation: Bool
  private var gates: [StepGate] = []
  private var events: [ScriptEvent] = []
  private var waiter: CheckedContinuation<ScriptEvent, Never>?
  private var draining = false

  init(ignoresCancellation: Bool) {
    self.ignoresCancellation = ignoresCancellation
  }

  /// Whether the block reported something the test has not consumed yet.
  var hasUnconsumedEvents: Bool { !events.isEmpty }

  /// Tells the block, waiting at `step`, what to do.
  func send(_ command: ScriptCommand, at step: Int) { gate(step).open(command) }

  /// Lets the block run to its end: every gate, now and later, says `.finish`. Used to clean
  /// up after a failure.
  func drain() {
    draining = true
    for gate in gates { gate.open(.finish(0)) }
  }

  /// The next report of the block, in order.
  func nextEvent() async -> ScriptEvent {
    if !events.isEmpty { return events.removeFirst() }
    return await withCheckedContinuation { waiter = $0 }
  }

  /// Records a report; the caller of an awaited load reports `.callerReturned` itself.
  func record(_ event: ScriptEvent) {
    if let waiter {
      self.waiter = nil
      waiter.resume(returning: event)
    } else {
      events.append(event)
    }
  }

  // MARK: - The blocks

  /// The body of a returning block.
  func returning() async throws -> Int {
    defer { record(.ended) }
    var step = 0
    while true {
      switch try await next(step) {
      case .finish(let value): return value
      case .fail(let error): throw error.thrown
      case .yield: step += 1  // a returning block cannot yield; the test never sends this
      }
    }
  }

  /// The body of a yielding block.
  func yielding(_ yield: (ModelState) -> Void) async throws {
    defer { record(.ended) }
    var step = 0
    while true {
      switch try await next(step) {
      case .yield(let state):
        yield(state)
        step += 1
      case .finish: return
      case .fail(let error): throw error.thrown
      }
    }
  }

  private func gate(_ step: Int) -> StepGate {
    while gates.count <= step { gates.append(StepGate()) }
    return gates[step]
  }

  private func next(_ step: Int) async throws -> ScriptCommand {
    // A block that honours cancellation and is already cancelled throws at once.
    if ignoresCancellation || !Task.isCancelled { record(.parked(step)) }
    let gate = gate(step)
    if draining { gate.open(.finish(0)) }
    return try await gate.pass(honoringCancellation: !ignoresCancellation)
  }
}

/// A gate like ``Gate``, for one command, that does not leave its caller's actor: a block on
/// the main actor waits and resumes there, with no hop to the global executor. That keeps
/// the model test on one thread and fast; the semantics are `Gate`'s.
final class StepGate: @unchecked Sendable {
  // Safe: every stored property is read and written only while holding `lock`.
  private let lock = NSLock()
  private var waiter: CheckedContinuation<ScriptCommand, any Error>?
  private var command: ScriptCommand?
  private var cancelled = false

  /// Lets the waiting block (and a later one) through with `command`; only the first counts.
  func open(_ command: ScriptCommand) {
    let waiter = lock.withLock { () -> CheckedContinuation<ScriptCommand, any Error>? in
      guard self.command == nil else { return nil }
      self.command = command
      defer { self.waiter = nil }
      return self.waiter
    }
    waiter?.resume(returning: command)
  }

  /// Waits for the command. Honouring cancellation, throws `CancellationError` as soon as
  /// the waiting task is cancelled (at once if it already is).
  func pass(
    honoringCancellation: Bool, isolation: isolated (any Actor)? = #isolation
  ) async throws -> ScriptCommand {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let immediate = lock.withLock { () -> Result<ScriptCommand, any Error>? in
          if let command { return .success(command) }
          if honoringCancellation && cancelled { return .failure(CancellationError()) }
          waiter = continuation
          return nil
        }
        if let immediate { continuation.resume(with: immediate) }
      }
    } onCancel: {
      guard honoringCancellation else { return }
      let waiter = lock.withLock { () -> CheckedContinuation<ScriptCommand, any Error>? in
        cancelled = true
        defer { self.waiter = nil }
        return self.waiter
      }
      waiter?.resume(throwing: CancellationError())
    }
  }
}

extension ModelError {
  /// The real error this stands for.
  var thrown: any Error {
    switch self {
    case .test(let code): TestError(code: code)
    case .opaque: OpaqueError()
    case .cancellation: CancellationError()
    case .cancelLoadable: CancelLoadable()
    case .resetLoadable: ResetLoadable()
    case .cancelProcess: CancelProcess()
    case .resetProcess: ResetProcess()
    }
  }

  /// The model's name for a real error, or `nil` for an error the test never uses.
  init?(_ error: any Error) {
    switch error {
    case let error as TestError: self = .test(error.code)
    case is OpaqueError: self = .opaque
    case is CancellationError: self = .cancellation
    case is CancelLoadable: self = .cancelLoadable
    case is ResetLoadable: self = .resetLoadable
    case is CancelProcess: self = .cancelProcess
    case is ResetProcess: self = .resetProcess
    default: return nil
    }
  }
}

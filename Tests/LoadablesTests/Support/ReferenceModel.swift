/// A state as the reference model sees it: the cases of `LoadableState<Int>` and of
/// `ProcessState<Int>` (whose job kind is an `Int`), with errors reduced to what identifies
/// them. The model compares these with its own `==`, so it does not lean on the library's
/// equality.
enum ModelState: Equatable, Sendable, CustomStringConvertible {
  case absent, loading
  case loaded(Int)
  case error(ModelError)
  case idle
  case running(Int)
  case finished(Int)
  case failed(Int, ModelError)

  var description: String {
    switch self {
    case .absent: "absent"
    case .loading: "loading"
    case .loaded(let value): "loaded(\(value))"
    case .error(let error): "error(\(error))"
    case .idle: "idle"
    case .running(let kind): "running(\(kind))"
    case .finished(let kind): "finished(\(kind))"
    case .failed(let kind, let error): "failed(\(kind), \(error))"
    }
  }
}

/// The errors a block throws (or a state holds) in the model test.
enum ModelError: Equatable, Sendable, CustomStringConvertible {
  /// `TestError(code:)`, an `Equatable` error.
  case test(Int)
  /// `OpaqueError()`, an error that is not `Equatable`.
  case opaque
  case cancellation, cancelLoadable, resetLoadable, cancelProcess, resetProcess

  var description: String {
    switch self {
    case .test(let code): "TestError(\(code))"
    case .opaque: "OpaqueError"
    case .cancellation: "CancellationError"
    case .cancelLoadable: "CancelLoadable"
    case .resetLoadable: "ResetLoadable"
    case .cancelProcess: "CancelProcess"
    case .resetProcess: "ResetProcess"
    }
  }
}

/// What a load's block does next, as reported by its ``LoadScript``.
enum ScriptEvent: Equatable, Sendable, CustomStringConvertible {
  /// The block waits at its gate for step `n`.
  case parked(Int)
  /// The block returned or threw.
  case ended
  /// The caller of an awaited load got control back.
  case callerReturned

  var description: String {
    switch self {
    case .parked(let step): "parked at step \(step)"
    case .ended: "ended"
    case .callerReturned: "caller returned"
    }
  }
}

/// What the test tells a parked block to do.
enum ScriptCommand: Sendable, CustomStringConvertible {
  /// Call `yield` with this state, then wait for the next command (yielding blocks only).
  case yield(ModelState)
  /// Return this value (a returning block) or return (a yielding block).
  case finish(Int)
  /// Throw this error.
  case fail(ModelError)

  var description: String {
    switch self {
    case .yield(let state): "yields \(state)"
    case .finish(let value): "returns \(value)"
    case .fail(let error): "throws \(error)"
    }
  }
}

/// The reference model of the engine contract (DESIGN.md, "The engine contract"): a plain
/// value that says, for every operation, what each slot's state becomes, how many writes that
/// takes, which load is current, which loads are cancelled, and what each block does next.
///
/// It knows nothing of the library's code. Each rule below cites the contract point it
/// models; the few rules that go beyond the contract cite the documentation they model.
struct ReferenceModel {
  /// One slot: one owner's state (the model test gives each owner one property).
  struct Slot {
    var state: ModelState
    /// The load that may write, and whose running makes `isRunning` true (points 3 and 7).
    var current: Int?
    /// Whether the owner is still alive.
    var alive = true
    /// Writes to the state so far (the library skips redundant ones only where it says so).
    var writes = 0
  }

  /// One load.
  struct Load {
    let owner: Int
    let awaited: Bool
    let yielding: Bool
    let honorsCancellation: Bool
    /// The job kind of a process (unused for a loadable).
    let kind: Int
    /// Whether the load's task (the caller's task, for an awaited load) is cancelled.
    var cancelled: Bool
    /// The step the block waits at, or `nil` once it has ended.
    var parkedAt: Int?
  }

  let isProcess: Bool
  let isKeyPath: Bool
  private(set) var slots: [Slot]
  private(set) var loads: [Load] = []
  /// The owner the test works on; earlier ones have been released.
  private(set) var active = 0

  init(isProcess: Bool, isKeyPath: Bool, initialStates: [ModelState]) {
    self.isProcess = isProcess
    self.isKeyPath = isKeyPath
    slots = initialStates.map { Slot(state: $0) }
  }

  var slot: Slot { slots[active] }

  /// The loads whose blocks have not ended, oldest first.
  var unfinishedLoads: [Int] { loads.indices.filter { loads[$0].parkedAt != nil } }

  /// Whether an awaited load of the active owner is still in its caller.
  var activeOwnerHasAwaitedLoad: Bool {
    loads.contains { $0.owner == active && $0.awaited && $0.parkedAt != nil }
  }

  private var resetState: ModelState { isProcess ? .idle : .absent }
  private func startedState(_ kind: Int) -> ModelState { isProcess ? .running(kind) : .loading }

  /// An expectation: `load` must report `event` once the operation has run.
  typealias Expectation = (load: Int, event: ScriptEvent)

  // MARK: - Operations

  /// Point 2: starting cancels the current load, makes this one current, and writes the
  /// started state unless silent or already there. An awaited load whose caller is already
  /// cancelled is a cancelled load from the start (point 6).
  mutating func start(
    awaited: Bool, cancelledCaller: Bool, yielding: Bool, honorsCancellation: Bool,
    silently: Bool, kind: Int
  ) -> (id: Int, expected: [Expectation]) {
    let id = loads.count
    loads.append(
      Load(
        owner: active, awaited: awaited, yielding: yielding,
        honorsCancellation: honorsCancellation, kind: kind, cancelled: cancelledCaller,
        parkedAt: 0))
    var expected: [Expectation] = []
    let previous = slots[active].current
    slots[active].current = id
    if !silently, slots[active].state != startedState(kind) {
      write(startedState(kind), to: active)
    }
    if let previous { cancel(previous, &expected) }
    if cancelledCaller && honorsCancellation {
      // The block finds its task cancelled at its first gate and throws.
      loads[id].parkedAt = nil
      expected.append((id, .ended))
      conclude(id, .fail(.cancellation))
    } else {
      expected.append((id, .parked(0)))
    }
    return (id, expected)
  }

  /// A parked block acts on `command`.
  mutating func command(_ id: Int, _ command: ScriptCommand) -> [Expectation] {
    guard let step = loads[id].parkedAt else { preconditionFailure("load \(id) is not parked") }
    let owner = loads[id].owner
    switch command {
    case .yield(let state):
      // Point 3: only the current, uncancelled load's yields are written.
      if slots[owner].current == id, !loads[id].cancelled {
        if slots[owner].alive {
          write(state, to: owner)
        } else {
          // A key-path load whose owner is gone stops at its first write (LoadableSupport
          // docs: "a load whose owner is gone writes nothing"; it is cancelled then).
          slots[owner].current = nil
          loads[id].cancelled = true
        }
      }
      if loads[id].honorsCancellation && loads[id].cancelled {
        loads[id].parkedAt = nil
        conclude(id, .fail(.cancellation))
        return [(id, .ended)]
      }
      loads[id].parkedAt = step + 1
      return [(id, .parked(step + 1))]
    case .finish, .fail:
      loads[id].parkedAt = nil
      conclude(id, command)
      return [(id, .ended)]
    }
  }

  /// Point 5: `cancel()` stops the current load and leaves the state as it is.
  mutating func cancel() -> [Expectation] {
    var expected: [Expectation] = []
    if let current = slots[active].current {
      slots[active].current = nil
      cancel(current, &expected)
    }
    return expected
  }

  /// Point 5: `reset()` stops the current load and writes the reset state (the engine skips
  /// the write when the state is already there, as `reset()` documents).
  mutating func reset() -> [Expectation] {
    let expected = cancel()
    if slots[active].state != resetState { write(resetState, to: active) }
    return expected
  }

  /// Point 5: assigning a wrapper's value cancels its load. A key-path property is a plain
  /// property: assigning it writes and does not cancel (LoadableSupport's documentation).
  mutating func assign(_ state: ModelState) -> [Expectation] {
    let expected = isKeyPath ? [] : cancel()
    write(state, to: active)
    return expected
  }

  /// The test cancels a load's task (or an awaited load's caller). The load stays current
  /// until its block ends, and then writes nothing (point 4: "any error of a cancelled load
  /// → no write"; point 3: a cancelled load never writes).
  mutating func cancelTask(of id: Int) -> [Expectation] {
    var expected: [Expectation] = []
    cancel(id, &expected)
    return expected
  }

  /// Point 8: the owner is released. A wrapper's storage goes with it, and its load is
  /// cancelled. A key-path slot holds its owner weakly; its load goes on until it tries to
  /// write (then it stops) or the table is swept. The test then works on the next owner.
  mutating func releaseOwner() -> [Expectation] {
    var expected: [Expectation] = []
    slots[active].alive = false
    if !isKeyPath, let current = slots[active].current {
      slots[active].current = nil
      cancel(current, &expected)
    }
    active += 1
    return expected
  }

  // MARK: - Rules

  /// Cancels a load's task: a block that honours cancellation throws at its gate and ends.
  private mutating func cancel(_ id: Int, _ expected: inout [Expectation]) {
    guard loads[id].parkedAt != nil else { return }
    loads[id].cancelled = true
    guard loads[id].honorsCancellation else { return }
    loads[id].parkedAt = nil
    expected.append((id, .ended))
    conclude(id, .fail(.cancellation))
  }

  /// Point 4: a block ended. Only the current load writes, and only when not cancelled.
  private mutating func conclude(_ id: Int, _ outcome: ScriptCommand) {
    let load = loads[id]
    guard slots[load.owner].current == id else { return }
    slots[load.owner].current = nil
    guard !load.cancelled else { return }
    switch outcome {
    case .yield: preconditionFailure("a yield does not end a block")
    case .finish(let value):
      if !load.yielding { write(isProcess ? .finished(load.kind) : .loaded(value), to: load.owner) }
    case .fail(let error):
      switch (error, isProcess) {
      case (.cancellation, _), (.cancelLoadable, false), (.cancelProcess, true):
        break
      case (.resetLoadable, false), (.resetProcess, true):
        if slots[load.owner].state != resetState { write(resetState, to: load.owner) }
      default:
        write(isProcess ? .failed(load.kind, error) : .error(error), to: load.owner)
      }
    }
  }

  /// A write reaches the state only while its owner lives.
  private mutating func write(_ state: ModelState, to owner: Int) {
    guard slots[owner].alive else { return }
    slots[owner].state = state
    slots[owner].writes += 1
  }
}

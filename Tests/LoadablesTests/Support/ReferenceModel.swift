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
    /// Writes the engine made (a key-path property assigned directly is not one of them).
    var engineWrites = 0
    /// Point 5: the state the current load replaced, which `cancel()` writes back...
    var replaced: ModelState?
    /// ...if the load (or one it superseded with the spinner still up) wrote its started
    /// state, and the engine has written nothing since `startMark`.
    var shownStart = false
    var startMark = 0
  }

  /// One load.
  struct Load {
    let owner: Int
    let awaited: Bool
    let yielding: Bool
    let honorsCancellation: Bool
    /// The job kind of a process (unused for a loadable).
    let kind: Int
    /// Whether the load is cancelled: its task, or for an awaited load the child task its
    /// block runs in (point 6).
    var cancelled: Bool
    /// Whether the test cancelled the caller of an awaited load (the load's own task, for a
    /// Task-returning load). Stopping an awaited load never cancels its caller (point 6).
    var callerCancelled: Bool
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
        callerCancelled: cancelledCaller, parkedAt: 0))
    var expected: [Expectation] = []
    let previous = slots[active].current
    // Point 5: a superseded load whose spinner is still up, nothing written since, passes
    // on the state it replaced — only while that spinner is still what the state shows: a
    // key-path property the app assigned meanwhile (a write the engine cannot see) shows
    // the app's state, and that is what the new load replaces.
    let inherits =
      previous != nil && slots[active].shownStart
      && slots[active].engineWrites == slots[active].startMark
      && isStartedState(slots[active].state)
    slots[active].current = id
    if silently {
      if !inherits {
        slots[active].shownStart = false
        slots[active].replaced = nil
      }
    } else {
      if !inherits {
        slots[active].shownStart = false
        slots[active].replaced = slots[active].state
      }
      if slots[active].state != startedState(kind) {
        write(startedState(kind), to: active)
        slots[active].shownStart = true
      }
    }
    slots[active].startMark = slots[active].engineWrites
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
          slots[owner].engineWrites += 1
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

  /// Point 5: `cancel()` stops the current load and writes back the state it replaced,
  /// unless something was written since.
  mutating func cancel() -> [Expectation] {
    let wasRunning = slots[active].current != nil
    let expected = stop()
    if wasRunning { restore(active) }
    return expected
  }

  /// Stops the current load, writing nothing.
  private mutating func stop() -> [Expectation] {
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
    let expected = stop()
    if slots[active].state != resetState { write(resetState, to: active) }
    return expected
  }

  /// Point 5: assigning a wrapper's value cancels its load. A key-path property is a plain
  /// property: assigning it writes and does not cancel (LoadableSupport's documentation),
  /// and the engine does not see the write.
  mutating func assign(_ state: ModelState) -> [Expectation] {
    let expected = isKeyPath ? [] : stop()
    write(state, to: active, byEngine: !isKeyPath)
    return expected
  }

  /// The test cancels a load's task (or an awaited load's caller, which cancels the child
  /// task its block runs in). The load stays current until its block ends, and then writes
  /// back what it replaced (points 4 and 5: a cancelled load never writes its outcome, and
  /// never leaves a spinner with nothing running).
  mutating func cancelTask(of id: Int) -> [Expectation] {
    var expected: [Expectation] = []
    loads[id].callerCancelled = true
    cancel(id, &expected)
    return expected
  }

  /// Whether the test should find the task it holds for `id` cancelled: an awaited load's
  /// caller only when the test cancelled it.
  func expectsTaskCancelled(_ id: Int) -> Bool {
    loads[id].awaited ? loads[id].callerCancelled : loads[id].cancelled
  }

  /// Point 8: the owner is released. A wrapper's storage goes with it, and its load is
  /// cancelled. A key-path slot holds its owner weakly; its load goes on until it tries to
  /// write (then it stops) or the table is swept. The test then works on the next owner.
  mutating func releaseOwner() -> [Expectation] {
    var expected: [Expectation] = []
    slots[active].alive = false
    if !isKeyPath, let current = slots[active].current {
      // The storage is gone with its owner: nothing is restored.
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

  /// Point 4: a block ended. Only the current load writes, and only when not cancelled; a
  /// cancelled one, or one that asks to cancel, writes back what it replaced (point 5).
  private mutating func conclude(_ id: Int, _ outcome: ScriptCommand) {
    let load = loads[id]
    guard slots[load.owner].current == id else { return }
    slots[load.owner].current = nil
    guard !load.cancelled else {
      restore(load.owner)
      return
    }
    switch outcome {
    case .yield: preconditionFailure("a yield does not end a block")
    case .finish(let value):
      guard !load.yielding else { break }
      let state: ModelState = isProcess ? .finished(load.kind) : .loaded(value)
      // A load that showed no spinner and brings back what is on screen writes nothing
      // (the engine's unchanged-state rule).
      let slot = slots[load.owner]
      if !slot.shownStart, slot.alive, slot.state == state { break }
      write(state, to: load.owner)
    case .fail(let error):
      switch (error, isProcess) {
      case (.cancellation, _), (.cancelLoadable, false), (.cancelProcess, true):
        restore(load.owner)
      case (.resetLoadable, false), (.resetProcess, true):
        if slots[load.owner].state != resetState { write(resetState, to: load.owner) }
      default:
        write(isProcess ? .failed(load.kind, error) : .error(error), to: load.owner)
      }
    }
  }

  /// Point 5: writes back the state the ended load replaced, if its spinner is still on
  /// screen: it wrote its started state, the engine wrote nothing since, and the state is a
  /// started state (a key-path property assigned directly may hold anything).
  /// Whether `state` is a started state (`.loading` or `.running`): a spinner.
  private func isStartedState(_ state: ModelState) -> Bool {
    switch state {
    case .loading, .running: true
    default: false
    }
  }

  private mutating func restore(_ owner: Int) {
    guard let replaced = slots[owner].replaced else { return }
    slots[owner].replaced = nil
    let spinner = isStartedState(slots[owner].state)
    guard slots[owner].shownStart, slots[owner].engineWrites == slots[owner].startMark, spinner
    else { return }
    write(replaced, to: owner)
  }

  /// A write reaches the state only while its owner lives.
  private mutating func write(_ state: ModelState, to owner: Int, byEngine: Bool = true) {
    if byEngine { slots[owner].engineWrites += 1 }
    guard slots[owner].alive else { return }
    slots[owner].state = state
    slots[owner].writes += 1
  }
}

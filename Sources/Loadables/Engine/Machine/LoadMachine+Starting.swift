// Starting a load: the runner of the pure `LoadStartBook` step. It supersedes the current load,
// asks the step what the new one remembers and shows, and performs that.

extension LoadMachine {
  /// Supersedes the current load, writes the started state (unless `silently`, or it is
  /// already there) and returns the new load's token.
  ///
  /// Remembers the state the load replaces (``replaced``), so that ``cancel()`` can bring it
  /// back; see ``LoadStartBook`` for what a restart over a spinner remembers.
  @inlinable @inline(__always)
  func start(_ context: State.Context, silently: Bool, keepingValue: Bool = false) -> UInt64 {
    start(context, silently: silently, keepingValue: keepingValue, through: self)
  }

  /// ``start(_:silently:keepingValue:)``, reading and writing the state through `access`.
  @inlinable
  func start(
    _ context: State.Context,
    silently: Bool,
    keepingValue: Bool = false,
    through access: some StateAccess<State>
  ) -> UInt64 {
    // Read before `begin`, which supersedes that load. Whether its spinner is still what the
    // state shows is asked of the state the step reads (stopping the old load writes
    // nothing), so a restart reads the state once.
    let supersededSpinner = isBusy && shownStart && writeCount == startMark
    let token = begin(silently: silently)
    keepsValue = keepingValue
    let step = LoadStartBook<State>.decide(
      context, silently: silently, keepingValue: keepingValue,
      supersededSpinner: supersededSpinner, current: access.read())
    if !step.carriesOn {
      shownStart = false
      replaced = step.replaced
    }
    if let started = step.started {
      emit(started, through: access)
      shownStart = true
    }
    startMark = writeCount
    return token
  }

  /// Starts an awaited load and its interrupts; the caller then runs it with
  /// ``inChild(_:_:)``.
  @inlinable
  func startAwaited(
    _ context: State.Context,
    silently: Bool,
    keepingValue: Bool,
    interrupts: Interrupts?
  ) -> UInt64 {
    let token = start(context, silently: silently, keepingValue: keepingValue)
    if let interrupts { startInterrupts(interrupts, token, context) }
    return token
  }
}

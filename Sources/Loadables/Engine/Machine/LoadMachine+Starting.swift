// Starting a load: superseding the current one, remembering what the new one replaces and
// showing its spinner.

extension LoadMachine {
  /// Supersedes the current load, writes the started state (unless `silently`, or it is
  /// already there) and returns the new load's token.
  ///
  /// Remembers the state the load replaces (``replaced``), so that ``cancel()`` can bring
  /// it back. When the load it supersedes left its spinner on screen, nothing was written
  /// since, and that spinner is still what the state shows, the state *that* load replaced
  /// is the one remembered: cancelling a restarted load brings back what was there before
  /// the first spinner. The last check catches writes the engine cannot see (a plain
  /// assignment to a key-path property): after one, what is shown is what the new load
  /// replaces.
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
    // The superseded load's spinner is up and the engine wrote nothing since; whether it is
    // still what the state shows is asked of the state read below (stopping the old load
    // writes nothing), so a restart reads the state once.
    let chained = isBusy && shownStart && writeCount == startMark
    let token = begin(silently: silently)
    keepsValue = keepingValue
    if silently {
      if !(chained && access.read()?.isAnyStarted == true) {
        shownStart = false
        // A silent load changes nothing on screen; only keeping a value needs to know it.
        replaced = keepingValue ? access.read() : nil
      }
    } else if let current = access.read() {
      if !(chained && current.isAnyStarted) {
        shownStart = false
        replaced = current
      }
      if !current.isStarted(context) {
        emit(.started(context), through: access)
        shownStart = true
      }
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

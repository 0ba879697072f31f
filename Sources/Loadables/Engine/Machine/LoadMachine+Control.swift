// Stopping and writing from outside a load — `cancel()`, `reset()`, an assignment — and the
// one funnel every state the engine writes goes through.

extension LoadMachine {
  /// Stops the current load and writes back the state it replaced, unless something was
  /// written since: `cancel()` never leaves a spinner with nothing running.
  @inlinable
  func cancel() {
    let wasRunning = isBusy
    stop()
    if wasRunning { restoreReplaced() }
  }

  /// Stops the current load and writes the reset state (unless it is already there).
  @inlinable
  func reset() {
    stop(.reset)
    replaced = nil
    setRefreshError(nil)
    writeReset()
  }

  /// Stops the current load and writes `state`.
  @inlinable
  func assign(_ state: State) {
    stop()
    replaced = nil
    setRefreshError(nil)
    emit(state)
  }

  /// Every state the engine writes goes through here: the slot stores it, then the watchers
  /// (the testing recorder) see it, in order.
  @inlinable @inline(__always)
  func emit(_ state: State) {
    emit(state, through: self)
  }

  /// ``emit(_:)``, writing the state through `access`.
  ///
  /// Always inlined, as `emit(_:)` was before the access parameter: left to the inliner, the
  /// extra generic layer kept `$x.load { ... }` itself from being inlined at its call site.
  @inlinable @inline(__always)
  func emit(_ state: State, through access: some StateAccess<State>) {
    writeCount &+= 1
    access.write(state)
    if isWatched { notifyWatchers(state) }
  }

  @inlinable
  func writeReset() {
    if let current = read(), current.isResetState { return }
    emit(State.resetState)
  }
}

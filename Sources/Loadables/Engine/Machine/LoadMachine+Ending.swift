// Ending a load from inside: its block returned or threw, and the load, if still current,
// writes what that asks for. Stopping it from outside is in `LoadMachine+Control.swift`.

extension LoadMachine {
  /// The block returned: write `state` if this load is still current. A load whose task
  /// was cancelled (its `Task`, or an awaiting caller, was cancelled) writes back what it
  /// replaced instead.
  @inlinable
  func finish(_ token: UInt64, writing state: State?) {
    let cancelled = Task.isCancelled
    guard end(token) else { return }
    defer {
      didBecomeIdle()
      if isTraced { traceEnd(cancelled ? .cancelled : .finished) }
    }
    if cancelled {
      restoreReplaced()
      return
    }
    replaced = nil
    guard let state else { return }
    setRefreshError(nil)
    // A load that showed no spinner (a silent reload) and brought back what is on screen
    // writes nothing, so its observers are not woken (see `UnchangedState.swift`). A load
    // that showed one always writes: its spinner must go.
    if !shownStart, let current = read(), state.isUnchanged(from: current) {
      wroteUnchanged(state)
      return
    }
    emit(state)
  }

  /// The block threw: cancel, reset or fail, if this load is still current. A load whose
  /// task was cancelled, or that threw `CancellationError`, writes back what it replaced.
  @inlinable
  func finish(_ token: UInt64, failure error: any Error, _ context: State.Context) {
    let cancelled = Task.isCancelled
    guard end(token) else { return }
    defer {
      didBecomeIdle()
      if isTraced { traceEnd(failure: error, cancelled: cancelled) }
    }
    if cancelled || error is CancellationError {
      restoreReplaced()
      return
    }
    finishWithError(error, context)
  }

  /// Writes what a thrown error asks for, once the load has ended: the replaced state for a
  /// cancel signal, the reset state for a reset signal, a failure otherwise — or, for a
  /// load that keeps its value, the value with the error beside it.
  @inlinable
  func finishWithError(_ error: any Error, _ context: State.Context) {
    switch State.signal(for: error) {
    case .cancel:
      restoreReplaced()
    case .reset:
      replaced = nil
      setRefreshError(nil)
      writeReset()
    case nil:
      if keepsValue, keepValue(showing: error) { return }
      replaced = nil
      emit(.failed(error, context))
    }
  }

  /// A load that keeps its value failed: leaves (or brings back) the loaded value and shows
  /// `error` beside it. Returns `false` when there is no loaded value to keep.
  @inlinable
  func keepValue(showing error: any Error) -> Bool {
    defer { replaced = nil }
    if let current = read(), current.holdsValue {
      setRefreshError(error)
      return true
    }
    guard let replaced, replaced.holdsValue else { return false }
    emit(replaced)
    setRefreshError(error)
    return true
  }

  /// Writes back the state the ended load replaced, if the spinner it showed is still what
  /// the state holds: nothing written since (a yield, another write) is ever undone.
  @inlinable
  func restoreReplaced() {
    guard let previous = replaced else { return }
    replaced = nil
    guard shownStart, writeCount == startMark, let current = read(), current.isAnyStarted
    else { return }
    emit(previous)
  }

  // MARK: - Events

  /// Reports the end of the current (traced) load, which threw `error`: as what the error
  /// asks for (see ``finishWithError(_:_:)``).
  @usableFromInline
  func traceEnd(failure error: any Error, cancelled: Bool) {
    let kind = Self.eventKind(ending: error, cancelled: cancelled)
    traceEnd(kind, error: kind == .failed ? error : nil)
  }

  /// How a load that threw `error` ends, as an event: cancelled, reset or failed.
  @usableFromInline
  static func eventKind(ending error: any Error, cancelled: Bool) -> LoadEventKind {
    if cancelled || error is CancellationError { return .cancelled }
    switch State.signal(for: error) {
    case .cancel: return .cancelled
    case .reset: return .reset
    case nil: return .failed
    }
  }
}

// Processed-style interrupts (see `Interrupts`): a timer task beside the load that runs the
// handler at each accumulated delay while the load runs; a handler that throws ends it.

extension LoadMachine {
  @usableFromInline
  func startInterrupts(_ interrupts: Interrupts, _ token: UInt64, _ context: State.Context) {
    let slot = WeakSlot(self)
    // Read here, as the load starts in the caller's task, so a `withLoadClock` scope around
    // the call reaches the timer; the interrupts count from this moment.
    let clock = LoadClock.current
    let stopwatch = Stopwatch(clock)
    let timer = Task { @MainActor in
      var accumulated = Duration.zero
      for delay in interrupts.delays {
        accumulated += delay
        // Each deadline counts from the start, so the interrupts do not drift.
        let remaining = accumulated - stopwatch.elapsed
        if remaining > .zero {
          do { try await clock.sleep(for: remaining, tolerance: nil) } catch { return }
        }
        guard let current = slot.value, current.isCurrent(token) else { return }
        do {
          try interrupts.handler(accumulated)
        } catch {
          current.interrupt(token, error, context)
          return
        }
      }
    }
    attach(interruptTimer: timer, to: token)
  }

  /// An interrupt handler threw: stop the load and write what the error asks for.
  @usableFromInline
  func interrupt(_ token: UInt64, _ error: any Error, _ context: State.Context) {
    guard isCurrent(token) else { return }
    let ending = Self.eventKind(ending: error, cancelled: false)
    stop(ending, error: ending == .failed ? error : nil)
    if error is CancellationError {
      restoreReplaced()
      return
    }
    finishWithError(error, context)
  }
}

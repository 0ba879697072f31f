/// What starting a load does to the state a slot shows, decided from the facts alone: the
/// pure step of ``LoadMachine``'s start, with no slot, no task and no write.
///
/// A load that starts remembers the state it replaces (what `cancel()` brings back) and,
/// unless it starts silently, shows the started state (a spinner) — not when the state
/// shows it already, so its observers are not woken for nothing. A load that supersedes one
/// whose spinner is still what the state shows, with nothing written since, *carries on*
/// that load: it keeps what that load replaced, so cancelling a restarted load brings back
/// what was there before the first spinner. A write the engine cannot see (a plain
/// assignment to a key-path property) is caught by the last check: after one, what is shown
/// is what the new load replaces.
///
/// `LoadMachine.start` reads the facts, asks
/// ``decide(_:silently:keepingValue:supersededSpinner:current:)`` and performs the answer.
/// The step is inlined into each caller, where the optimiser folds the value away: the
/// start costs what it cost when it decided and wrote in one.
@usableFromInline
struct LoadStartBook<State: EngineState> {
  /// Whether the new load carries on what the load it supersedes remembered: the state it
  /// replaced, and whether its spinner is up. Also when a load that is not silent finds its
  /// state's owner gone: there is nothing to read, and nothing changes.
  @usableFromInline let carriesOn: Bool

  /// The state the new load replaces, when it does not carry on; `nil` for a silent load
  /// that keeps no value (a silent load changes nothing on screen; only a load that keeps a
  /// value falls back to it).
  @usableFromInline let replaced: State?

  /// The started state to write, or `nil` to write none.
  @usableFromInline let started: State?

  @inlinable
  init(carriesOn: Bool, replaced: State?, started: State?) {
    self.carriesOn = carriesOn
    self.replaced = replaced
    self.started = started
  }

  /// The start that changes nothing: the new load carries on and writes nothing.
  @inlinable static var carryingOn: Self { Self(carriesOn: true, replaced: nil, started: nil) }

  /// Decides what a load starting now does.
  ///
  /// - Parameters:
  ///   - context: The new load's context (the job kind of a process).
  ///   - silently: Whether the load starts without a spinner.
  ///   - keepingValue: Whether a failure of the load keeps a loaded value on screen.
  ///   - supersededSpinner: Whether the load it supersedes is running, showed its spinner,
  ///     and the engine wrote nothing since.
  ///   - current: The state shown now, `nil` when its owner is gone. Read only when the
  ///     decision needs it: a silent start that keeps no value and supersedes no spinner
  ///     never reads it, and a key-path slot's read loads its weakly held owner.
  /// - Returns: What to remember and what to write.
  @inlinable @inline(__always)
  static func decide(
    _ context: State.Context,
    silently: Bool,
    keepingValue: Bool,
    supersededSpinner: Bool,
    current: @autoclosure () -> State?
  ) -> Self {
    if silently {
      let shown = supersededSpinner || keepingValue ? current() : nil
      if supersededSpinner, shown?.isAnyStarted == true { return .carryingOn }
      return Self(carriesOn: false, replaced: keepingValue ? shown : nil, started: nil)
    }
    guard let shown = current() else { return .carryingOn }
    let carriesOn = supersededSpinner && shown.isAnyStarted
    return Self(
      carriesOn: carriesOn,
      replaced: carriesOn ? nil : shown,
      started: shown.isStarted(context) ? nil : .started(context))
  }
}

extension LoadStartBook: Equatable where State: Equatable {}

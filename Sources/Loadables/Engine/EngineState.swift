/// How the engine maps the events of one load onto a state type.
///
/// The engine ``LoadMachine`` is written once against this protocol; ``LoadableState`` and
/// ``ProcessState`` say what "started", "completed", "failed" and "reset" mean for them.
@usableFromInline
protocol EngineState {
  /// What a returning block produces: the value for a load, nothing for a process.
  associatedtype Output

  /// What identifies one run: nothing for a load, the job kind for a process.
  associatedtype Context

  /// The state written when a load starts (unless it starts silently).
  static func started(_ context: Context) -> Self

  /// Whether the state already equals ``started(_:)``, so the start write can be skipped.
  func isStarted(_ context: Context) -> Bool

  /// Whether the state is a started state of any context: a spinner that ``LoadMachine``'s
  /// `cancel()` may replace with what the load replaced.
  var isAnyStarted: Bool { get }

  /// Whether the state holds a value a failed refresh can keep on screen.
  var holdsValue: Bool { get }

  /// The state written when a returning block returns.
  static func completed(_ output: Output, _ context: Context) -> Self

  /// The state written when a block throws an ordinary error.
  static func failed(_ error: any Error, _ context: Context) -> Self

  /// The state written by `reset()`.
  static var resetState: Self { get }

  /// Whether the state already equals ``resetState``.
  var isResetState: Bool { get }

  /// Whether an error thrown by a block asks to cancel or reset instead of failing.
  static func signal(for error: any Error) -> ControlSignal?
}

/// What a control error thrown from a block asks the engine to do.
@usableFromInline
enum ControlSignal {
  /// End the load and bring back the state it replaced, as `cancel()` does.
  case cancel
  /// End the load and write the reset state.
  case reset
}

extension LoadableState: EngineState {
  @usableFromInline typealias Output = Value
  @usableFromInline typealias Context = Void

  @inlinable static func started(_: Void) -> Self { .loading }
  @inlinable func isStarted(_: Void) -> Bool { isLoading }
  @inlinable var isAnyStarted: Bool { isLoading }
  @inlinable var holdsValue: Bool { isLoaded }
  @inlinable static func completed(_ output: Value, _: Void) -> Self { .loaded(output) }
  @inlinable static func failed(_ error: any Error, _: Void) -> Self { .error(error) }
  @inlinable static var resetState: Self { .absent }
  @inlinable var isResetState: Bool { isAbsent }

  @inlinable static func signal(for error: any Error) -> ControlSignal? {
    if error is CancelLoadable { return .cancel }
    if error is ResetLoadable { return .reset }
    return nil
  }
}

extension ProcessState: EngineState where ProcessKind: Equatable {
  @usableFromInline typealias Output = Void
  @usableFromInline typealias Context = ProcessKind

  @inlinable static func started(_ process: ProcessKind) -> Self { .running(process) }
  @inlinable func isStarted(_ process: ProcessKind) -> Bool { isRunning(process) }
  @inlinable var isAnyStarted: Bool { isRunning }
  // A process has no value to keep: a failed run always shows its failure.
  @inlinable var holdsValue: Bool { false }
  @inlinable static func completed(_: Void, _ process: ProcessKind) -> Self { .finished(process) }
  @inlinable static func failed(_ error: any Error, _ process: ProcessKind) -> Self {
    .failed(process: process, error: error)
  }
  @inlinable static var resetState: Self { .idle }
  @inlinable var isResetState: Bool { isIdle }

  @inlinable static func signal(for error: any Error) -> ControlSignal? {
    if error is CancelProcess { return .cancel }
    if error is ResetProcess { return .reset }
    return nil
  }
}

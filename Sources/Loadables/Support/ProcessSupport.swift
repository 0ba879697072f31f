/// Gives a class the `run`, `cancel` and `reset` API for its own ``ProcessState``
/// properties, addressed by key path.
///
/// Each key path on each *instance* has its own slot, held weakly, exactly as with
/// ``LoadableSupport``.
///
/// <!-- compile: context ModelTypes -->
/// ```swift
/// @MainActor @Observable final class EditorModel: ProcessSupport {
///   var saving: SingleProcessState = .idle
///
///   func save() {
///     run(\.saving) { try await api.save(draft) }
///   }
/// }
/// ```
///
/// See ``Process/Binding`` for the table of what each call writes. Assigning the property
/// directly does not cancel a running job; call ``cancel(_:)`` first.
///
/// ## Customisation points
///
/// `cancel(_:)`, `reset(_:)` and the eight `run` methods below (the forms Processed's
/// `ProcessSupport` required) are requirements, implemented by default in an extension, as
/// with ``LoadableSupport``: generic code that passes every argument calls a class's own
/// version, and the `SingleProcessState` forms call the `as:` forms that way, so overriding an
/// `as:` form covers both. A call that leaves out defaulted arguments resolves to the
/// extension's method and is not dispatched.
public protocol ProcessSupport: AnyObject {
  /// Cancels the running job of `state`; see the default implementation.
  ///
  /// - Parameter state: The key path of the state.
  @MainActor func cancel<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>)

  /// Cancels the running job of `state` and sets it to `.idle`; see the default
  /// implementation.
  ///
  /// - Parameter state: The key path of the state.
  @MainActor func reset<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>)

  /// Starts `process` on `state` in a new task; see the default implementation.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - process: The job to run.
  ///   - silently: When `true`, the state is not set to `.running(process)`.
  ///   - priority: The priority of the new task.
  ///   - block: The job.
  /// - Returns: The task running the job.
  @MainActor @discardableResult func run<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>,
    as process: ProcessKind,
    silently: Bool,
    priority: TaskPriority?,
    @_implicitSelfCapture block: @MainActor @escaping () async throws -> Void
  ) -> Task<Void, Never>

  /// Starts `process` on `state` in a new task, with interrupts; see the default
  /// implementation.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - process: The job to run.
  ///   - silently: When `true`, the state is not set to `.running(process)`.
  ///   - interrupts: Delays between interrupts (they accumulate).
  ///   - priority: The priority of the new task.
  ///   - block: The job.
  ///   - onInterrupt: Called with the time since the job started.
  /// - Returns: The task running the job.
  @MainActor @discardableResult func run<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>,
    as process: ProcessKind,
    silently: Bool,
    interrupts: [Duration],
    priority: TaskPriority?,
    @_implicitSelfCapture block: @MainActor @escaping () async throws -> Void,
    @_implicitSelfCapture onInterrupt:
      @MainActor @escaping (_ accumulatedDelay: Duration) throws -> Void
  ) -> Task<Void, Never>

  /// Runs `process` on `state` in the caller's task; see the default implementation.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - process: The job to run.
  ///   - silently: When `true`, the state is not set to `.running(process)`.
  ///   - block: The job.
  @MainActor func run<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>,
    as process: ProcessKind,
    silently: Bool,
    @_implicitSelfCapture block: @MainActor () async throws -> Void
  ) async

  /// Runs `process` on `state` in the caller's task, with interrupts; see the default
  /// implementation.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - process: The job to run.
  ///   - silently: When `true`, the state is not set to `.running(process)`.
  ///   - interrupts: Delays between interrupts (they accumulate).
  ///   - block: The job.
  ///   - onInterrupt: Called with the time since the job started.
  @MainActor func run<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>,
    as process: ProcessKind,
    silently: Bool,
    interrupts: [Duration],
    @_implicitSelfCapture block: @MainActor () async throws -> Void,
    @_implicitSelfCapture onInterrupt:
      @MainActor @escaping (_ accumulatedDelay: Duration) throws -> Void
  ) async

  /// Starts the single job of `state` in a new task; see the default implementation.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.running`.
  ///   - priority: The priority of the new task.
  ///   - block: The job.
  /// - Returns: The task running the job.
  @MainActor @discardableResult func run(
    _ state: ReferenceWritableKeyPath<Self, SingleProcessState>,
    silently: Bool,
    priority: TaskPriority?,
    @_implicitSelfCapture block: @MainActor @escaping () async throws -> Void
  ) -> Task<Void, Never>

  /// Starts the single job of `state` in a new task, with interrupts; see the default
  /// implementation.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.running`.
  ///   - interrupts: Delays between interrupts (they accumulate).
  ///   - priority: The priority of the new task.
  ///   - block: The job.
  ///   - onInterrupt: Called with the time since the job started.
  /// - Returns: The task running the job.
  @MainActor @discardableResult func run(
    _ state: ReferenceWritableKeyPath<Self, SingleProcessState>,
    silently: Bool,
    interrupts: [Duration],
    priority: TaskPriority?,
    @_implicitSelfCapture block: @MainActor @escaping () async throws -> Void,
    @_implicitSelfCapture onInterrupt:
      @MainActor @escaping (_ accumulatedDelay: Duration) throws -> Void
  ) -> Task<Void, Never>

  /// Runs the single job of `state` in the caller's task; see the default implementation.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.running`.
  ///   - block: The job.
  @MainActor func run(
    _ state: ReferenceWritableKeyPath<Self, SingleProcessState>,
    silently: Bool,
    @_implicitSelfCapture block: @MainActor () async throws -> Void
  ) async

  /// Runs the single job of `state` in the caller's task, with interrupts; see the default
  /// implementation.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.running`.
  ///   - interrupts: Delays between interrupts (they accumulate).
  ///   - block: The job.
  ///   - onInterrupt: Called with the time since the job started.
  @MainActor func run(
    _ state: ReferenceWritableKeyPath<Self, SingleProcessState>,
    silently: Bool,
    interrupts: [Duration],
    @_implicitSelfCapture block: @MainActor () async throws -> Void,
    @_implicitSelfCapture onInterrupt:
      @MainActor @escaping (_ accumulatedDelay: Duration) throws -> Void
  ) async
}

extension ProcessSupport {
  /// Cancels the running job of `state` and brings back the state it replaced, unless
  /// something was written since (see ``Process/Binding/cancel()``).
  ///
  /// - Parameter state: The key path of the state.
  @MainActor @inlinable
  public func cancel<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>
  ) {
    SlotRegistry.existingSlot(self, state)?.cancel()
  }

  /// Cancels the running job of `state` and sets it to `.idle`.
  ///
  /// - Parameter state: The key path of the state.
  @MainActor @inlinable
  public func reset<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>
  ) {
    SlotRegistry.reset(self, state)
  }

  /// Starts a job in a new task: writes `.running(process)`, then `.finished(process)` or
  /// `.failed(process: process, error: error)`.
  ///
  /// Cancels the running job of `state` first.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - process: Which job this is.
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - priority: The priority of the new task.
  ///   - block: The job. Throw `CancelProcess` to cancel or `ResetProcess` to reset.
  /// - Returns: The task running the job; you need not keep it.
  @MainActor @discardableResult @inlinable
  public func run<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>,
    as process: ProcessKind,
    silently: Bool = false,
    priority: TaskPriority? = nil,
    @_implicitSelfCapture block: @MainActor @escaping () async throws -> Void
  ) -> Task<Void, Never> {
    SlotRegistry.launch(
      self, state, process, silently: silently, priority: priority, interrupts: nil,
      work: .returning(block))
  }

  /// Starts a job in a new task, calling `onInterrupt` at each accumulated delay while it
  /// runs.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - process: Which job this is.
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - interrupts: Delays between interrupts (they accumulate); none may be negative.
  ///   - priority: The priority of the new task.
  ///   - block: The job.
  ///   - onInterrupt: Called with the time since the job started; may throw to end it.
  /// - Returns: The task running the job.
  @MainActor @discardableResult @inlinable
  public func run<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>,
    as process: ProcessKind,
    silently: Bool = false,
    interrupts: [Duration],
    priority: TaskPriority? = nil,
    @_implicitSelfCapture block: @MainActor @escaping () async throws -> Void,
    @_implicitSelfCapture onInterrupt:
      @MainActor @escaping (_ accumulatedDelay: Duration) throws
      -> Void
  ) -> Task<Void, Never> {
    SlotRegistry.launch(
      self, state, process, silently: silently, priority: priority,
      interrupts: Interrupts(interrupts, onInterrupt), work: .returning(block))
  }

  /// Runs a job and returns when it has stopped.
  ///
  /// Registered like any job: a newer run, ``cancel(_:)`` and ``reset(_:)`` stop it.
  ///
  /// > Note: The block runs in a child task of yours. Stopping the job (a newer run,
  /// > `cancel()`, `reset()`) cancels that child, never your task: this call returns once the
  /// > block has stopped, and your code after it runs uncancelled. Cancelling your task (a
  /// > `.task` modifier's view going away) cancels the job.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - process: Which job this is.
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - block: The job.
  @MainActor @inlinable
  public func run<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>,
    as process: ProcessKind,
    silently: Bool = false,
    @_implicitSelfCapture block: @MainActor () async throws -> Void
  ) async {
    await SlotRegistry.slot(self, state).runAwaited(
      process, silently: silently, interrupts: nil, returning: block)
  }

  /// Runs a job calling `onInterrupt` at each accumulated delay, and
  /// returns when it ends.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - process: Which job this is.
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - interrupts: Delays between interrupts (they accumulate); none may be negative.
  ///   - block: The job.
  ///   - onInterrupt: Called with the time since the job started; may throw to end it.
  @MainActor @inlinable
  public func run<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<Self, ProcessState<ProcessKind>>,
    as process: ProcessKind,
    silently: Bool = false,
    interrupts: [Duration],
    @_implicitSelfCapture block: @MainActor () async throws -> Void,
    @_implicitSelfCapture onInterrupt:
      @MainActor @escaping (_ accumulatedDelay: Duration) throws
      -> Void
  ) async {
    await SlotRegistry.slot(self, state).runAwaited(
      process, silently: silently, interrupts: Interrupts(interrupts, onInterrupt),
      returning: block)
  }

  /// Starts a job as a new ``SingleProcess`` in a new task.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - priority: The priority of the new task.
  ///   - block: The job.
  /// - Returns: The task running the job.
  @MainActor @discardableResult @inlinable
  public func run(
    _ state: ReferenceWritableKeyPath<Self, SingleProcessState>,
    silently: Bool = false,
    priority: TaskPriority? = nil,
    @_implicitSelfCapture block: @MainActor @escaping () async throws -> Void
  ) -> Task<Void, Never> {
    run(state, as: SingleProcess(), silently: silently, priority: priority, block: block)
  }

  /// Starts a job as a new ``SingleProcess`` in a new task, with interrupts.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - interrupts: Delays between interrupts (they accumulate); none may be negative.
  ///   - priority: The priority of the new task.
  ///   - block: The job.
  ///   - onInterrupt: Called with the time since the job started; may throw to end it.
  /// - Returns: The task running the job.
  @MainActor @discardableResult @inlinable
  public func run(
    _ state: ReferenceWritableKeyPath<Self, SingleProcessState>,
    silently: Bool = false,
    interrupts: [Duration],
    priority: TaskPriority? = nil,
    @_implicitSelfCapture block: @MainActor @escaping () async throws -> Void,
    @_implicitSelfCapture onInterrupt:
      @MainActor @escaping (_ accumulatedDelay: Duration) throws
      -> Void
  ) -> Task<Void, Never> {
    run(
      state, as: SingleProcess(), silently: silently, interrupts: interrupts,
      priority: priority, block: block, onInterrupt: onInterrupt)
  }

  /// Runs a job as a new ``SingleProcess`` and returns when it has stopped.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - block: The job.
  @MainActor @inlinable
  public func run(
    _ state: ReferenceWritableKeyPath<Self, SingleProcessState>,
    silently: Bool = false,
    @_implicitSelfCapture block: @MainActor () async throws -> Void
  ) async {
    await run(state, as: SingleProcess(), silently: silently, block: block)
  }

  /// Runs a job as a new ``SingleProcess``, with interrupts, and
  /// returns when it ends.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - interrupts: Delays between interrupts (they accumulate); none may be negative.
  ///   - block: The job.
  ///   - onInterrupt: Called with the time since the job started; may throw to end it.
  @MainActor @inlinable
  public func run(
    _ state: ReferenceWritableKeyPath<Self, SingleProcessState>,
    silently: Bool = false,
    interrupts: [Duration],
    @_implicitSelfCapture block: @MainActor () async throws -> Void,
    @_implicitSelfCapture onInterrupt:
      @MainActor @escaping (_ accumulatedDelay: Duration) throws
      -> Void
  ) async {
    await run(
      state, as: SingleProcess(), silently: silently, interrupts: interrupts, block: block,
      onInterrupt: onInterrupt)
  }
}

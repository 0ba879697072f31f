extension Process {
  /// The controls of a ``Process`` property: run a job, cancel it, reset the state, and see
  /// whether a job is running.
  ///
  /// You get one from the projected value (`$saving`). It is also a property wrapper, so a
  /// child view can declare `@ProcessBinding var saving: SingleProcessState`.
  ///
  /// | call | state written |
  /// |---|---|
  /// | `run(kind) { ... }` | `.running(kind)` (skipped if already running that kind, or when `silently`), then `.finished(kind)` or `.failed(process: kind, error: error)` |
  /// | `cancel()` | the state the job replaced, unless something was written since |
  /// | `reset()` | `.idle` |
  /// | block throws `CancelProcess` / `ResetProcess` | nothing / `.idle` |
  /// | superseded or cancelled job | nothing, ever |
  ///
  /// Everything a running job shows beside its state (`isRunning`, `progress`, `attempt`,
  /// `isWaitingForNetwork`, `refreshError`, `states`) is the binding's ``handle``, the
  /// ``LoadHandle`` every form hands out: `$saving.isRunning` reads `$saving.handle.isRunning`.
  @propertyWrapper @dynamicMemberLookup
  public struct Binding: Sendable {
    @usableFromInline let storage: StoredStateStorage<ProcessState<ProcessKind>>

    @usableFromInline init(storage: StoredStateStorage<ProcessState<ProcessKind>>) {
      self.storage = storage
    }

    /// Creates a binding from another, so that `@ProcessBinding var saving` can be
    /// initialised with `$saving`.
    ///
    /// - Parameter binding: The binding to share.
    public init(_ binding: Binding) {
      self = binding
    }

    /// Creates a binding from a projected value: lets a child view's memberwise initialiser
    /// take `$saving: $saving`.
    ///
    /// - Parameter projectedValue: The binding to share.
    public init(projectedValue: Binding) {
      self = projectedValue
    }

    /// A binding to a fixed state, for previews and tests: jobs run their blocks, but
    /// nothing is ever written.
    ///
    /// - Parameter state: The state the binding always holds.
    /// - Returns: A binding whose state never changes.
    public static func constant(_ state: sending ProcessState<ProcessKind>) -> Binding {
      Binding(storage: StoredStateStorage(state, frozen: true))
    }

    /// The current state. Assigning it cancels the running job first.
    @MainActor @inlinable public var wrappedValue: ProcessState<ProcessKind> {
      get { storage.state }
      nonmutating set { storage.assign(newValue) }
    }

    /// The binding itself, so `$saving` works on a `@ProcessBinding` property too.
    public var projectedValue: Binding { self }

    /// The handle of this property: its status and controls, as every form hands them out.
    @MainActor @inlinable public var handle: LoadHandle<ProcessState<ProcessKind>> {
      LoadHandle(storage)
    }

    /// A member of the property's ``handle``: `$saving.isRunning`, `$saving.progress`,
    /// `$saving.states`, …
    @MainActor @inlinable
    public subscript<Member>(
      dynamicMember member: KeyPath<LoadHandle<ProcessState<ProcessKind>>, Member>
    ) -> Member {
      handle[keyPath: member]
    }

    /// Cancels the running job and brings back the state it replaced.
    ///
    /// When the state still shows the `.running(kind)` the job wrote, the state that it
    /// replaced comes back; a state written since stays.
    @MainActor @inlinable public func cancel() { storage.cancel() }

    /// Cancels the running job and sets the state to `.idle`.
    @MainActor @inlinable public func reset() { storage.reset() }

    /// Starts a job in a new task: writes `.running(process)`, then `.finished(process)` or
    /// `.failed(process: process, error: error)`.
    ///
    /// Cancels the running job first, unless `policy` ignores starts while one runs
    /// (``LoadPolicy/ignoreStartsWhileRunning()-type.method``, for a payment): then this start
    /// does nothing and returns a finished task. A `policy` (retry, timeout, a concurrency
    /// limit, ...) wraps the block.
    ///
    /// <!-- compile: context Model -->
    /// ```swift
    /// $action.run(.delete) { try await api.delete(item) }
    /// ```
    ///
    /// > Important: Inside `async` code, `run` resolves to the awaited overload and waits
    /// > for the job to stop. To start without waiting there, call
    /// > ``start(_:silently:policy:priority:block:)``.
    ///
    /// - Parameters:
    ///   - process: Which job this is.
    ///   - silently: When `true`, the state is not set to `.running` first.
    ///   - policy: How to run the block; see ``LoadPolicy``. None by default.
    ///   - priority: The priority of the new task.
    ///   - block: The job. Throw `CancelProcess` to cancel or `ResetProcess` to reset.
    /// - Returns: The task running the job; you need not keep it.
    @MainActor @discardableResult @inlinable
    public func run(
      _ process: ProcessKind,
      silently: Bool = false,
      policy: LoadPolicy<Void> = LoadPolicy(),
      priority: TaskPriority? = nil,
      block: @MainActor @escaping () async throws -> Void
    ) -> Task<Void, Never> {
      storage.launch(process, silently: silently, priority: priority, policy: policy, block: block)
    }

    /// Starts a job in a new task, calling `onInterrupt` at each accumulated delay while it
    /// runs.
    ///
    /// `onInterrupt` may throw to end the job at once: `CancelProcess()` cancels,
    /// `ResetProcess()` resets, any other error writes `.failed`.
    ///
    /// - Parameters:
    ///   - process: Which job this is.
    ///   - silently: When `true`, the state is not set to `.running` first.
    ///   - interrupts: Delays between interrupts (they accumulate); none may be negative.
    ///   - priority: The priority of the new task.
    ///   - block: The job.
    ///   - onInterrupt: Called with the time since the job started.
    /// - Returns: The task running the job.
    @MainActor @discardableResult @inlinable
    public func run(
      _ process: ProcessKind,
      silently: Bool = false,
      interrupts: [Duration],
      priority: TaskPriority? = nil,
      block: @MainActor @escaping () async throws -> Void,
      onInterrupt: @MainActor @escaping (_ accumulatedDelay: Duration) throws -> Void
    ) -> Task<Void, Never> {
      storage.launch(
        process, silently: silently, priority: priority,
        interrupts: Interrupts(interrupts, onInterrupt), work: .returning(block))
    }

    /// Runs a job and returns when it has stopped.
    ///
    /// > Note: The block runs in a child task of yours. Stopping the job (a newer run,
    /// > `cancel()`, `reset()`) cancels that child, never your task: this call returns once the
    /// > block has stopped, and your code after it runs uncancelled. Cancelling your task (a
    /// > `.task` modifier's view going away) cancels the job.
    ///
    /// - Parameters:
    ///   - process: Which job this is.
    ///   - silently: When `true`, the state is not set to `.running` first.
    ///   - block: The job.
    @MainActor @inlinable
    public func run(
      _ process: ProcessKind,
      silently: Bool = false,
      block: @MainActor () async throws -> Void
    ) async {
      await storage.runAwaited(process, silently: silently, interrupts: nil, returning: block)
    }

    /// Runs a job calling `onInterrupt` at each accumulated delay, and
    /// returns when it ends.
    ///
    /// - Parameters:
    ///   - process: Which job this is.
    ///   - silently: When `true`, the state is not set to `.running` first.
    ///   - interrupts: Delays between interrupts (they accumulate); none may be negative.
    ///   - block: The job.
    ///   - onInterrupt: Called with the time since the job started; may throw to end it.
    @MainActor @inlinable
    public func run(
      _ process: ProcessKind,
      silently: Bool = false,
      interrupts: [Duration],
      block: @MainActor () async throws -> Void,
      onInterrupt: @MainActor @escaping (_ accumulatedDelay: Duration) throws -> Void
    ) async {
      await storage.runAwaited(
        process, silently: silently, interrupts: Interrupts(interrupts, onInterrupt),
        returning: block)
    }
  }
}

extension Process.Binding where ProcessKind == SingleProcess {
  /// Starts a job in a new task as a new ``SingleProcess``.
  ///
  /// <!-- compile: context Model -->
  /// ```swift
  /// $saving.run { try await api.save(draft) }
  /// ```
  ///
  /// - Parameters:
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - policy: How to run the block; see ``LoadPolicy``. None by default.
  ///   - priority: The priority of the new task.
  ///   - block: The job.
  /// - Returns: The task running the job.
  @MainActor @discardableResult @inlinable
  public func run(
    silently: Bool = false,
    policy: LoadPolicy<Void> = LoadPolicy(),
    priority: TaskPriority? = nil,
    block: @MainActor @escaping () async throws -> Void
  ) -> Task<Void, Never> {
    run(SingleProcess(), silently: silently, policy: policy, priority: priority, block: block)
  }

  /// Starts a job in a new task as a new ``SingleProcess``, with interrupts.
  ///
  /// - Parameters:
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - interrupts: Delays between interrupts (they accumulate); none may be negative.
  ///   - priority: The priority of the new task.
  ///   - block: The job.
  ///   - onInterrupt: Called with the time since the job started; may throw to end it.
  /// - Returns: The task running the job.
  @MainActor @discardableResult @inlinable
  public func run(
    silently: Bool = false,
    interrupts: [Duration],
    priority: TaskPriority? = nil,
    block: @MainActor @escaping () async throws -> Void,
    onInterrupt: @MainActor @escaping (_ accumulatedDelay: Duration) throws -> Void
  ) -> Task<Void, Never> {
    run(
      SingleProcess(), silently: silently, interrupts: interrupts, priority: priority,
      block: block, onInterrupt: onInterrupt)
  }

  /// Runs a job as a new ``SingleProcess`` and returns when it has stopped.
  ///
  /// - Parameters:
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - block: The job.
  @MainActor @inlinable
  public func run(
    silently: Bool = false,
    block: @MainActor () async throws -> Void
  ) async {
    await run(SingleProcess(), silently: silently, block: block)
  }

  /// Runs a job as a new ``SingleProcess``, with interrupts, and
  /// returns when it ends.
  ///
  /// - Parameters:
  ///   - silently: When `true`, the state is not set to `.running` first.
  ///   - interrupts: Delays between interrupts (they accumulate); none may be negative.
  ///   - block: The job.
  ///   - onInterrupt: Called with the time since the job started; may throw to end it.
  @MainActor @inlinable
  public func run(
    silently: Bool = false,
    interrupts: [Duration],
    block: @MainActor () async throws -> Void,
    onInterrupt: @MainActor @escaping (_ accumulatedDelay: Duration) throws -> Void
  ) async {
    await run(
      SingleProcess(), silently: silently, interrupts: interrupts, block: block,
      onInterrupt: onInterrupt)
  }
}

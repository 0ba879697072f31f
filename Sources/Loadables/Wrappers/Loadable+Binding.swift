extension Loadable {
  /// The controls of a ``Loadable`` property: start a load, cancel it, reset the state, and
  /// see whether a load is running.
  ///
  /// You get one from the projected value (`$numbers`). It is also a property wrapper, so a
  /// child view can declare `@LoadableBinding var numbers: LoadableState<[Int]>` and receive
  /// `$numbers` from its parent.
  ///
  /// | call | state written |
  /// |---|---|
  /// | `load { ... }` | `.loading` (skipped if already loading, or when `silently`), then `.loaded(value)` or `.error(error)` |
  /// | `load { yield in ... }` | `.loading`, then each yielded state; a thrown error writes `.error(error)` |
  /// | `cancel()` | the state the load replaced, unless something was written since |
  /// | `reset()` | `.absent` |
  /// | block throws `CancelLoadable` / `ResetLoadable` | as `cancel()` / `.absent` |
  /// | superseded load, or a late result of a cancelled one | nothing, ever |
  ///
  /// Everything a running load shows beside its state (`isRunning`, `progress`, `attempt`,
  /// `isWaitingForNetwork`, `refreshError`, `states`) is the binding's ``handle``, the
  /// ``LoadHandle`` every form hands out: `$numbers.isRunning` reads `$numbers.handle.isRunning`.
  @propertyWrapper @dynamicMemberLookup
  public struct Binding: Sendable {
    @usableFromInline let storage: StoredStateStorage<LoadableState<Value>>

    @usableFromInline init(storage: StoredStateStorage<LoadableState<Value>>) {
      self.storage = storage
    }

    /// Creates a binding from another, so that `@LoadableBinding var numbers` can be
    /// initialised with `$numbers`.
    ///
    /// - Parameter binding: The binding to share.
    public init(_ binding: Binding) {
      self = binding
    }

    /// Creates a binding from a projected value: lets a child view's memberwise initialiser
    /// take `$numbers: $numbers`.
    ///
    /// - Parameter projectedValue: The binding to share.
    public init(projectedValue: Binding) {
      self = projectedValue
    }

    /// A binding to a fixed state, for previews and tests: loads run their blocks, but
    /// nothing is ever written.
    ///
    /// - Parameter state: The state the binding always holds.
    /// - Returns: A binding whose state never changes.
    public static func constant(_ state: LoadableState<Value>) -> Binding {
      Binding(storage: StoredStateStorage(state, frozen: true))
    }

    /// The current state. Assigning it cancels the running load first.
    @MainActor @inlinable public var wrappedValue: LoadableState<Value> {
      get { storage.state }
      nonmutating set { storage.assign(newValue) }
    }

    /// The binding itself, so `$numbers` works on a `@LoadableBinding` property too.
    public var projectedValue: Binding { self }

    /// The handle of this property: its status and controls, as every form hands them out.
    @MainActor @inlinable public var handle: LoadHandle<LoadableState<Value>> {
      LoadHandle(storage)
    }

    /// A member of the property's ``handle``: `$numbers.isRunning`, `$numbers.progress`,
    /// `$numbers.states`, …
    @MainActor @inlinable
    public subscript<Member>(dynamicMember member: KeyPath<LoadHandle<LoadableState<Value>>, Member>)
      -> Member
    {
      handle[keyPath: member]
    }

    /// Cancels the running load and brings back the state it replaced.
    ///
    /// The load's block is cancelled (cooperatively, like any task) and whatever it returns,
    /// throws or yields afterwards is dropped. `cancel()` never leaves a spinner with nothing
    /// running: when the state still shows the `.loading` the load wrote, the state that
    /// `.loading` replaced comes back (the value of a cancelled reload, `.absent` for a
    /// cancelled first load). A state written since — a yielded value, say — stays.
    @MainActor @inlinable public func cancel() { storage.cancel() }

    /// Cancels the running load and sets the state to `.absent`.
    @MainActor @inlinable public func reset() { storage.reset() }

    // MARK: - Returning a value

    /// Starts a load in a new task: writes `.loading`, then `.loaded(value)` or
    /// `.error(error)`.
    ///
    /// Cancels the running load first (unless `policy` ignores starts while one runs; see
    /// ``LoadPolicy/ignoreStartsWhileRunning()-type.method``). The task holds nothing
    /// strongly but `block`, so a released owner is not kept alive and its load is
    /// cancelled. A `policy` (retry, timeout, debounce, a concurrency limit, a cache,
    /// deduplication) wraps the block; a cache may show its value at once instead of
    /// `.loading`.
    ///
    /// ```swift
    /// $numbers.load { try await api.numbers() }
    /// ```
    ///
    /// > Important: Inside `async` code, `load` resolves to the awaited overload and waits
    /// > for the load to stop. To start without waiting there, call
    /// > ``start(silently:policy:priority:block:)``.
    ///
    /// - Parameters:
    ///   - silently: When `true`, the state is not set to `.loading`: the old value stays on
    ///     screen until the new one arrives. `isRunning` still turns `true`.
    ///   - policy: How to run the block; see ``LoadPolicy`` for the order policies apply in.
    ///     None by default.
    ///   - priority: The priority of the new task.
    ///   - block: Produces the value. Throw `CancelLoadable` to cancel or `ResetLoadable` to
    ///     reset.
    /// - Returns: The task running the load; you need not keep it.
    @MainActor @discardableResult @inlinable
    public func load(
      silently: Bool = false,
      policy: LoadPolicy<Value> = LoadPolicy(),
      priority: TaskPriority? = nil,
      block: @MainActor @escaping () async throws -> Value
    ) -> Task<Void, Never> {
      storage.launch((), silently: silently, priority: priority, policy: policy, block: block)
    }

    /// Starts a load in a new task, calling `onInterrupt` at each accumulated delay while it
    /// runs.
    ///
    /// Delays accumulate: `[.seconds(1), .seconds(2)]` calls `onInterrupt` after 1 and after
    /// 3 seconds. `onInterrupt` may throw to end the load: `TimeoutError()` (or any error)
    /// writes `.error(error)`, `CancelLoadable()` cancels and `ResetLoadable()` resets, at
    /// once, cancelling the block.
    ///
    /// - Parameters:
    ///   - silently: When `true`, the state is not set to `.loading`.
    ///   - interrupts: Delays between interrupts; none may be negative.
    ///   - priority: The priority of the new task.
    ///   - block: Produces the value.
    ///   - onInterrupt: Called with the time since the load started.
    /// - Returns: The task running the load.
    @MainActor @discardableResult @inlinable
    public func load(
      silently: Bool = false,
      interrupts: [Duration],
      priority: TaskPriority? = nil,
      block: @MainActor @escaping () async throws -> Value,
      onInterrupt: @MainActor @escaping (_ accumulatedDelay: Duration) throws -> Void
    ) -> Task<Void, Never> {
      storage.launch(
        (), silently: silently, priority: priority,
        interrupts: Interrupts(interrupts, onInterrupt), work: .returning(block))
    }

    /// Runs a load and returns when it has stopped.
    ///
    /// Use it from `.task { }` so that the load is cancelled when the view goes away. The
    /// load is registered like any other: a newer load, `cancel()` and `reset()` stop it.
    ///
    /// > Note: The block runs in a child task of yours. Stopping the load (a newer load,
    /// > `cancel()`, `reset()`) cancels that child, never your task: this call returns once the
    /// > block has stopped, and your code after it runs uncancelled. Cancelling your task (a
    /// > `.task` modifier's view going away) cancels the load.
    ///
    /// - Parameters:
    ///   - silently: When `true`, the state is not set to `.loading`.
    ///   - block: Produces the value.
    @MainActor @inlinable
    public func load(
      silently: Bool = false,
      block: @MainActor () async throws -> Value
    ) async {
      await storage.runAwaited((), silently: silently, interrupts: nil, returning: block)
    }

    /// Runs a load calling `onInterrupt` at each accumulated delay,
    /// and returns when it ends.
    ///
    /// - Parameters:
    ///   - silently: When `true`, the state is not set to `.loading`.
    ///   - interrupts: Delays between interrupts; none may be negative.
    ///   - block: Produces the value.
    ///   - onInterrupt: Called with the time since the load started; may throw to end it.
    @MainActor @inlinable
    public func load(
      silently: Bool = false,
      interrupts: [Duration],
      block: @MainActor () async throws -> Value,
      onInterrupt: @MainActor @escaping (_ accumulatedDelay: Duration) throws -> Void
    ) async {
      await storage.runAwaited(
        (), silently: silently, interrupts: Interrupts(interrupts, onInterrupt),
        returning: block)
    }

    // MARK: - Yielding states

    /// Starts a load in a new task whose block writes states over time through `yield`.
    ///
    /// Each yielded state is written while the load is current; after it is superseded or
    /// cancelled, yields are dropped. Returning writes nothing more; throwing writes
    /// `.error(error)`.
    ///
    /// <!-- compile: context Model -->
    /// ```swift
    /// $numbers.load { yield in
    ///   var numbers: [Int] = []
    ///   for try await number in api.numberStream() {
    ///     numbers.append(number)
    ///     yield(.loaded(numbers))
    ///   }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - silently: When `true`, the state is not set to `.loading` first.
    ///   - priority: The priority of the new task.
    ///   - block: Writes states through `yield`.
    /// - Returns: The task running the load.
    @MainActor @discardableResult @inlinable
    public func load(
      silently: Bool = false,
      priority: TaskPriority? = nil,
      block:
        @MainActor @escaping (_ yield: (_ state: LoadableState<Value>) -> Void) async throws
        -> Void
    ) -> Task<Void, Never> {
      storage.launch(
        (), silently: silently, priority: priority, interrupts: nil, work: .yielding(block))
    }

    /// Starts a yielding load in a new task, calling `onInterrupt` at each accumulated delay.
    ///
    /// - Parameters:
    ///   - silently: When `true`, the state is not set to `.loading` first.
    ///   - interrupts: Delays between interrupts; none may be negative.
    ///   - priority: The priority of the new task.
    ///   - block: Writes states through `yield`.
    ///   - onInterrupt: Called with the time since the load started; may throw to end it.
    /// - Returns: The task running the load.
    @MainActor @discardableResult @inlinable
    public func load(
      silently: Bool = false,
      interrupts: [Duration],
      priority: TaskPriority? = nil,
      block:
        @MainActor @escaping (_ yield: (_ state: LoadableState<Value>) -> Void) async throws
        -> Void,
      onInterrupt: @MainActor @escaping (_ accumulatedDelay: Duration) throws -> Void
    ) -> Task<Void, Never> {
      storage.launch(
        (), silently: silently, priority: priority,
        interrupts: Interrupts(interrupts, onInterrupt), work: .yielding(block))
    }

    /// Runs a yielding load and returns when it has stopped.
    ///
    /// > Note: The block runs in a child task of yours. Stopping the load (a newer load,
    /// > `cancel()`, `reset()`) cancels that child, never your task: this call returns once the
    /// > block has stopped, and your code after it runs uncancelled. Cancelling your task (a
    /// > `.task` modifier's view going away) cancels the load.
    ///
    /// - Parameters:
    ///   - silently: When `true`, the state is not set to `.loading` first.
    ///   - block: Writes states through `yield`.
    @MainActor @inlinable
    public func load(
      silently: Bool = false,
      block:
        @MainActor (_ yield: (_ state: LoadableState<Value>) -> Void) async throws
        -> Void
    ) async {
      await storage.runAwaited((), silently: silently, interrupts: nil, yielding: block)
    }

    /// Runs a yielding load calling `onInterrupt` at each accumulated
    /// delay, and returns when it ends.
    ///
    /// - Parameters:
    ///   - silently: When `true`, the state is not set to `.loading` first.
    ///   - interrupts: Delays between interrupts; none may be negative.
    ///   - block: Writes states through `yield`.
    ///   - onInterrupt: Called with the time since the load started; may throw to end it.
    @MainActor @inlinable
    public func load(
      silently: Bool = false,
      interrupts: [Duration],
      block:
        @MainActor (_ yield: (_ state: LoadableState<Value>) -> Void) async throws
        -> Void,
      onInterrupt: @MainActor @escaping (_ accumulatedDelay: Duration) throws -> Void
    ) async {
      await storage.runAwaited(
        (), silently: silently, interrupts: Interrupts(interrupts, onInterrupt),
        yielding: block)
    }
  }
}

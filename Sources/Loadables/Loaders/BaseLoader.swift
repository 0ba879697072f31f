/// A ``Loader`` to subclass: override ``fetch()`` and the base class does the rest — state,
/// restarts, cancellation, progress, observation, the `states` stream, and the policy you
/// give it.
///
/// <!-- compile: context ModelTypes -->
/// ```swift
/// final class ProfileLoader: BaseLoader<Profile> {
///   let id: User.ID
///   let api: any ProfileAPI
///
///   init(id: User.ID, api: any ProfileAPI) {
///     self.id = id
///     self.api = api
///     super.init(policy: .retry(maxAttempts: 3).timeout(.seconds(10)))
///   }
///
///   override func fetch() async throws -> Profile { try await api.profile(id) }
/// }
/// ```
///
/// A load holds the loader only weakly, but `fetch()` is a method of the loader, so a
/// loader whose fetch is running lives until the fetch returns. To stop it earlier, call
/// ``cancel()`` (or cancel the task awaiting ``load(silently:)``).
@MainActor
open class BaseLoader<Value: Sendable>: Loader {
  @usableFromInline let slot: StoredStateStorage<LoadableState<Value>>

  /// The policy every load runs `fetch()` under.
  public let policy: LoadPolicy<Value>

  /// Creates a loader.
  ///
  /// - Parameters:
  ///   - state: The initial state; `.absent` by default.
  ///   - policy: The policy every load runs `fetch()` under (retry, timeout, debounce, ...);
  ///     none by default.
  public init(state: LoadableState<Value> = .absent, policy: LoadPolicy<Value> = LoadPolicy()) {
    self.slot = StoredStateStorage(state, loader: true)
    self.policy = policy
  }

  /// Creates a loader outside the main actor: what ``BlockLoader``'s initialiser calls, so
  /// that a `BlockLoader` can be a stored property's initial value (see its `init`). The
  /// public initialiser stays main-actor isolated, so that a subclass's `override init`
  /// keeps compiling in an app module, where it is isolated to the main actor.
  nonisolated init(outsideMainActor state: LoadableState<Value>, policy: LoadPolicy<Value>) {
    self.slot = StoredStateStorage(state, loader: true)
    self.policy = policy
  }

  /// Produces one value. Subclasses must override it; the base version stops the program
  /// with a message naming the subclass.
  ///
  /// - Returns: The value.
  /// - Throws: Whatever stops the work. Throw `CancelLoadable` to cancel the load or
  ///   `ResetLoadable` to reset it.
  open func fetch() async throws -> Value {
    preconditionFailure("\(type(of: self)) must override fetch() (BaseLoader.fetch() was called)")
  }

  /// The current state. Observable.
  public final var state: LoadableState<Value> { slot.state }

  /// Every state, the current one first, then each one written, in order.
  public final var states: StateStream<LoadableState<Value>> {
    StateStream(slot: slot, current: slot.storage)
  }

  /// The loader's status and controls: its engine slot's ``LoadHandle``. `isRunning`,
  /// `progress`, `attempt`, `isWaitingForNetwork` and `refreshError` read it.
  ///
  /// <!-- compile: context StoreView -->
  /// ```swift
  /// if loader.handle.isWaitingForNetwork { Label("Waiting for the network", systemImage: "wifi.slash") }
  /// ```
  public final var handle: LoadHandle<LoadableState<Value>> { LoadHandle(slot) }

  /// Loads; see ``Loader/load(silently:)``.
  ///
  /// Inlinable, like the rest of this loader's load path, so that the engine is specialised
  /// for `Value` in the subclass's module rather than run as generic code (the Performance
  /// article has the figures).
  ///
  /// - Parameter silently: When `true`, the old state stays until the new one arrives.
  /// - Returns: The state when the call returns.
  @discardableResult @inlinable
  public final func load(silently: Bool) async -> LoadableState<Value> {
    await slot.launchAndWait((), silently: silently, policy: policy, block: fetchBlock).state
      ?? slot.storage
  }

  /// Loads and returns the value, or throws the error; see ``Loader/value(silently:)``.
  ///
  /// - Parameter silently: When `true`, the old state stays until the new one arrives.
  /// - Returns: The value this load produced (or a fresh cached one).
  /// - Throws: This load's error, or `CancellationError` when this load was cancelled,
  ///   superseded, or ignored because one ran (``LoadPolicy/ignoreStartsWhileRunning()-type.method``)
  ///   — never a value or an error left by an earlier load.
  @inlinable
  public final func value(silently: Bool) async throws -> Value {
    let (state, isOwn) = await slot.launchAndWait(
      (), silently: silently, policy: policy, block: fetchBlock)
    guard isOwn, let state else { throw CancellationError() }
    // A load that kept its value on failure still failed: its caller gets the error. (A
    // success clears the refresh error, so one on show now is this load's.)
    if let error = slot.currentRefreshError { throw error }
    return try state.outcome()
  }

  /// Starts a load in a task of its own and returns at once; see
  /// ``Loader/start(silently:)``.
  ///
  /// The load starts before this returns: `.loading` (unless `silently`) is already written,
  /// so the next frame shows it. `LoadingView` starts its loads this way from `onAppear`, so
  /// the spinner shows in the first frame.
  ///
  /// <!-- compile: context LoaderView -->
  /// ```swift
  /// Button("Reload") { feed.start(silently: true) }
  /// ```
  ///
  /// - Parameter silently: When `true`, the old state stays until the new one arrives.
  /// - Returns: The task running the load; cancelling it cancels this load.
  @discardableResult @inlinable
  public final func start(silently: Bool) -> Task<Void, Never> {
    slot.launch((), silently: silently, priority: nil, policy: policy, block: fetchBlock)
  }

  /// The block a load runs: this loader's `fetch()`, holding the loader only weakly.
  ///
  /// Made once, on the first load: a closure made for each load cost an allocation and a
  /// weak reference every time (measured by `Benchmarks/compare`'s `loader.cycle`).
  @usableFromInline
  final lazy var fetchBlock: @MainActor () async throws -> Value = { [weak self] in
    guard let self else { throw CancellationError() }
    return try await self.fetch()
  }

  /// Cancels the running load and brings back the state it replaced, unless something was
  /// written since.
  public final func cancel() { slot.cancel() }

  /// Cancels the running load and writes `.absent`.
  public final func reset() { slot.reset() }
}

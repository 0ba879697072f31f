/// An object that loads one kind of content and that any number of views observe: a feed,
/// a profile, a search.
///
/// Subclass ``BaseLoader`` and override `fetch()`, or build one from a closure with
/// ``BlockLoader``; both run every load through the same engine as `@Loadable`, so the same
/// rules hold: a new load cancels the one before, `.loading` shows (unless silent), a stale
/// load never writes, `cancel()` brings back the state the load replaced, `reset()` writes
/// `.absent`.
///
/// <!-- compile: context Loaders -->
/// ```swift
/// final class FeedLoader: BaseLoader<[Post]> {
///   let api: any FeedAPI
///   init(api: any FeedAPI) {
///     self.api = api
///     super.init(policy: .retry(maxAttempts: 3))
///   }
///   override func fetch() async throws -> [Post] { try await api.posts() }
/// }
///
/// let feed = FeedLoader(api: api)
/// Task { for await state in feed.states { print(state) } }  // every state, in order
/// await feed.load()
/// ```
///
/// Its status and controls are its ``handle``, the ``LoadHandle`` every form hands out;
/// `loader.isRunning` reads `loader.handle.isRunning`. They are observable: a SwiftUI view
/// that reads `state`, `isRunning`, `progress`, `attempt` or `isWaitingForNetwork` updates
/// when they change. ``states`` delivers every state in order, to each of any number of
/// observers, the current one first.
///
/// A loader of your own (not a ``BaseLoader``) implements ``state``, ``states``,
/// ``load(silently:)``, ``cancel()``, ``reset()`` and ``fetch()``, and either ``handle`` or
/// the status members it knows (``isRunning``, ``progress``, ``attempt``, …): its default
/// handle reads them, and a status member it implements neither way has a plain default
/// (`isRunning` is `state.isLoading`, the others none).
@MainActor
public protocol Loader: AnyObject {
  /// What a load produces.
  associatedtype Value: Sendable

  /// The current state. Observable.
  var state: LoadableState<Value> { get }

  /// The loader's status and controls: the ``LoadHandle`` every form hands out, what
  /// `StateRecorder` and the other testing tools take.
  ///
  /// <!-- compile: context Loaders -->
  /// ```swift
  /// let recorder = StateRecorder(feed.handle)
  /// ```
  ///
  /// A ``BaseLoader`` and a ``SharedLoader`` hand out their engine slot's handle. The
  /// default, for a loader of your own, reads this loader's own members (`state`, `states`,
  /// `isRunning`, `cancel()`, …).
  var handle: LoadHandle<LoadableState<Value>> { get }

  /// Every state: the current one first, then each one the loader writes, in order, none
  /// merged away. Each access is a new subscription; any number may be iterated at once.
  var states: StateStream<LoadableState<Value>> { get }

  /// Whether a load is in flight, silent ones included: ``LoadHandle/isRunning``.
  /// Observable.
  var isRunning: Bool { get }

  /// The progress the running load last reported: ``LoadHandle/progress``. Observable.
  var progress: LoadingProgress? { get }

  /// The attempt a retry policy is running or waiting to run: ``LoadHandle/attempt``.
  /// Observable.
  var attempt: RetryAttempt? { get }

  /// Whether the running load waits for the network: ``LoadHandle/isWaitingForNetwork``.
  /// Observable.
  var isWaitingForNetwork: Bool { get }

  /// The error of the last load that failed while its loaded value stayed on screen:
  /// ``LoadHandle/refreshError``. Observable.
  var refreshError: (any Error)? { get }

  /// Loads: cancels the running load, writes `.loading` (unless `silently`), then the value
  /// or the error; returns when this load ends.
  ///
  /// Cancelling the calling task cancels the load (as when a view's `.task` ends); the
  /// state the load replaced then comes back. A newer load supersedes this one: this call
  /// then returns once the superseded `fetch()` stops (at once when it honours
  /// cancellation), and the newer load's states follow. Stopping the load never cancels
  /// the calling task.
  ///
  /// - Parameter silently: When `true`, the old state stays until the new one arrives.
  /// - Returns: The state when the call returns.
  @discardableResult
  func load(silently: Bool) async -> LoadableState<Value>

  /// Starts a load and returns at once, without waiting for it: for code that is not
  /// `async`, such as a button's action or a cell's `onAppear`, and for async code that
  /// must not wait. The same word starts a load without waiting in every form (`$feed.start`,
  /// `model.start(\.feed)`).
  ///
  /// The load is the one ``load(silently:)`` runs, in a task of its own: it cancels the
  /// running load, writes `.loading` (unless `silently`), then the value or the error. The
  /// returned task ends when the load ends; cancelling it cancels this load, as cancelling
  /// the task awaiting ``load(silently:)`` does. Awaiting it is rarely needed: observe
  /// `state` instead.
  ///
  /// <!-- compile: context LoaderView -->
  /// ```swift
  /// Button("Reload") { feed.start(silently: true) }
  /// ```
  ///
  /// The name differs from `load` on purpose: in `async` code, `await feed.load()` waits for
  /// the load, and a missing `await` is a compile error rather than a silent switch to a load
  /// that does not wait.
  ///
  /// A ``BaseLoader`` writes `.loading` before this returns, so the next frame already shows
  /// it. The default, for a loader of your own, starts `load(silently:)` in a new `Task`, so
  /// `.loading` is written on the main actor's next turn.
  ///
  /// - Parameter silently: When `true`, the old state stays until the new one arrives.
  /// - Returns: The task running the load.
  @discardableResult
  func start(silently: Bool) -> Task<Void, Never>

  /// Cancels the running load and brings back the state it replaced, unless something was
  /// written since.
  func cancel()

  /// Cancels the running load and writes `.absent`.
  func reset()

  /// Loads and returns the value, or throws the error: for composing loaders.
  ///
  /// The load writes this loader's states as usual, so views observing it see the load.
  ///
  /// <!-- compile: context LoaderMembers -->
  /// ```swift
  /// override func fetch() async throws -> Dashboard {
  ///   async let user = userLoader.value()
  ///   async let posts = postsLoader.value()
  ///   return try await Dashboard(user: user, posts: posts)
  /// }
  /// ```
  ///
  /// - Parameter silently: When `true`, the old state stays until the new one arrives.
  /// - Returns: The loaded value.
  /// - Throws: The load's error, or `CancellationError` when the load was cancelled or
  ///   superseded before it produced a value.
  func value(silently: Bool) async throws -> Value

  /// Produces one value, without touching the state: the work itself. ``load(silently:)``
  /// runs it; another loader may call it to compose.
  ///
  /// - Returns: The value.
  /// - Throws: Whatever stops the work.
  func fetch() async throws -> Value
}

extension Loader {
  /// A handle that reads this loader's own members: the default for a loader of your own.
  public var handle: LoadHandle<LoadableState<Value>> { LoadHandle(LoaderControl(self)) }

  /// The handle of a loader that hands out one of its own; `nil` for the default handle,
  /// which reads this loader's members (and would read these defaults back).
  private var ownHandle: LoadHandle<LoadableState<Value>>? {
    let handle = self.handle
    return handle.control is LoaderControl<Self> ? nil : handle
  }

  /// The handle's ``LoadHandle/isRunning``; for a loader with neither a handle nor an
  /// `isRunning` of its own, whether the state is `.loading`.
  public var isRunning: Bool { ownHandle?.isRunning ?? state.isLoading }

  /// The handle's ``LoadHandle/progress``; `nil` for a loader with neither of its own.
  public var progress: LoadingProgress? { ownHandle?.progress }

  /// The handle's ``LoadHandle/attempt``; `nil` for a loader with neither of its own.
  public var attempt: RetryAttempt? { ownHandle?.attempt }

  /// The handle's ``LoadHandle/isWaitingForNetwork``; `false` for a loader with neither of
  /// its own.
  public var isWaitingForNetwork: Bool { ownHandle?.isWaitingForNetwork ?? false }

  /// The handle's ``LoadHandle/refreshError``; `nil` for a loader with neither of its own.
  public var refreshError: (any Error)? { ownHandle?.refreshError }

  /// Loads, showing `.loading`; see ``load(silently:)``.
  ///
  /// - Returns: The state when the call returns.
  @discardableResult
  public func load() async -> LoadableState<Value> {
    await load(silently: false)
  }

  /// Starts a load, showing `.loading`, and returns at once; see ``start(silently:)``.
  ///
  /// <!-- compile: context LoaderView -->
  /// ```swift
  /// .onAppear { feed.start() }
  /// ```
  ///
  /// - Returns: The task running the load.
  @discardableResult
  public func start() -> Task<Void, Never> {
    start(silently: false)
  }

  /// Starts ``load(silently:)`` in a new `Task` and returns it: the default for loaders that
  /// do not subclass ``BaseLoader``, which starts its load before returning.
  ///
  /// - Parameter silently: When `true`, the old state stays until the new one arrives.
  /// - Returns: The task running the load.
  @discardableResult
  public func start(silently: Bool) -> Task<Void, Never> {
    Task { await self.load(silently: silently) }
  }

  /// Loads only if no load is running; otherwise returns at once.
  ///
  /// Use it from several views' `.task` so the first one loads and the others only observe.
  ///
  /// - Returns: The state when the call returns.
  @discardableResult
  public func loadIfNotRunning() async -> LoadableState<Value> {
    if isRunning { return state }
    return await load(silently: false)
  }

  /// Loads and returns the value, or throws the error, judging by the state the load
  /// leaves: the default for loaders that do not subclass ``BaseLoader``.
  ///
  /// ``BaseLoader`` knows whether the state is its own load's outcome and throws
  /// `CancellationError` otherwise. This default cannot know that: after a cancelled
  /// *silent* load the state still shows the previous outcome, which it then returns. A
  /// loader of your own that is loaded silently should implement `value(silently:)` itself.
  ///
  /// - Parameter silently: When `true`, the old state stays until the new one arrives.
  /// - Returns: The value the state shows after the load.
  /// - Throws: The error the state shows, or `CancellationError`.
  public func value(silently: Bool) async throws -> Value {
    let state = await load(silently: silently)
    try Task.checkCancellation()
    if let error = refreshError { throw error }
    return try state.outcome()
  }

  /// Loads and returns the value, showing `.loading`; see ``value(silently:)``.
  ///
  /// - Returns: The loaded value.
  /// - Throws: The load's error, or `CancellationError`.
  public func value() async throws -> Value {
    try await value(silently: false)
  }
}

/// The control behind the default handle of a loader of your own: it reads the loader's
/// members, so the handle shows what the loader says.
@MainActor @usableFromInline
final class LoaderControl<Wrapped: Loader>: LoadControl {
  let loader: Wrapped

  init(_ loader: Wrapped) { self.loader = loader }

  @usableFromInline var controlState: LoadableState<Wrapped.Value> { loader.state }
  /// Never read: every status member below is the loader's own.
  @usableFromInline var controlRuntime: LoadRuntime { LoadRuntime() }
  @usableFromInline var controlIsRunning: Bool { loader.isRunning }
  @usableFromInline var controlProgress: LoadingProgress? { loader.progress }
  @usableFromInline var controlAttempt: RetryAttempt? { loader.attempt }
  @usableFromInline var controlIsWaitingForNetwork: Bool { loader.isWaitingForNetwork }
  @usableFromInline var controlRefreshError: (any Error)? { loader.refreshError }
  @usableFromInline func controlStates() -> StateStream<LoadableState<Wrapped.Value>> {
    loader.states
  }
  @usableFromInline func controlCancel() { loader.cancel() }
  @usableFromInline func controlReset() { loader.reset() }

  /// Follows the loader's `states`: a loader of your own has no engine slot to watch, so the
  /// states arrive through its stream, in order, each on a later turn of the main actor.
  @usableFromInline func controlWatch(
    _ callback: @escaping @MainActor (LoadableState<Wrapped.Value>) -> Void
  ) -> @MainActor () -> Void {
    let states = loader.states
    let task = Task { @MainActor in
      var first = true
      for await state in states {
        // The stream opens with the current state, which the watcher already has.
        if first {
          first = false
          continue
        }
        callback(state)
      }
    }
    return { task.cancel() }
  }
}

/// An object that loads one kind of content and that any number of views observe: a feed,
/// a profile, a search.
///
/// Subclass ``BaseLoader`` and override `fetch()`, or build one from a closure with
/// ``BlockLoader``; both run every load through the same engine as `@Loadable`, so the same
/// rules hold: a new load cancels the one before, `.loading` shows (unless silent), a stale
/// load never writes, `cancel()` brings back the state the load replaced, `reset()` writes
/// `.absent`.
///
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
/// The properties are observable: a SwiftUI view that reads `state`, `isRunning`,
/// `progress`, `attempt` or `isWaitingForNetwork` updates when they change. ``states``
/// delivers every state in order, to each of any number of observers, the current one first.
@MainActor
public protocol Loader: AnyObject {
  /// What a load produces.
  associatedtype Value: Sendable

  /// The current state. Observable.
  var state: LoadableState<Value> { get }

  /// Every state: the current one first, then each one the loader writes, in order, none
  /// merged away. Each access is a new subscription; any number may be iterated at once.
  var states: StateStream<LoadableState<Value>> { get }

  /// Whether a load is in flight, silent ones included. Observable.
  var isRunning: Bool { get }

  /// The progress the running load last reported; `nil` when none. Observable.
  var progress: LoadingProgress? { get }

  /// The attempt a retry policy is running or waiting to run; `nil` when none. Observable.
  var attempt: RetryAttempt? { get }

  /// Whether the running load waits for the network (``LoadPolicy/waitsForNetwork(_:)-type.method``);
  /// `false` when none waits. Observable. Loaders that never wait need not implement it:
  /// the default is `false`.
  var isWaitingForNetwork: Bool { get }

  /// The error of the last load that failed while its loaded value stayed on screen (a
  /// policy with ``LoadPolicy/keepValueOnFailure()-type.method``); `nil` when none.
  /// Observable. Loaders that never keep a value need not implement it: the default is
  /// `nil`.
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
  /// `async`, such as a button's action or a cell's `onAppear`.
  ///
  /// The load is the one ``load(silently:)`` runs, in a task of its own: it cancels the
  /// running load, writes `.loading` (unless `silently`), then the value or the error. The
  /// returned task ends when the load ends; cancelling it cancels this load, as cancelling
  /// the task awaiting ``load(silently:)`` does. Awaiting it is rarely needed: observe
  /// `state` instead.
  ///
  /// ```swift
  /// Button("Reload") { feed.startLoad(silently: true) }
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
  func startLoad(silently: Bool) -> Task<Void, Never>

  /// Cancels the running load and brings back the state it replaced, unless something was
  /// written since.
  func cancel()

  /// Cancels the running load and writes `.absent`.
  func reset()

  /// Loads and returns the value, or throws the error: for composing loaders.
  ///
  /// The load writes this loader's states as usual, so views observing it see the load.
  ///
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
  /// No refresh error: the default for loaders that never keep a value on failure.
  public var refreshError: (any Error)? { nil }

  /// Never waiting: the default for loaders that never wait for the network.
  public var isWaitingForNetwork: Bool { false }

  /// Loads, showing `.loading`; see ``load(silently:)``.
  ///
  /// - Returns: The state when the call returns.
  @discardableResult
  public func load() async -> LoadableState<Value> {
    await load(silently: false)
  }

  /// Starts a load, showing `.loading`, and returns at once; see ``startLoad(silently:)``.
  ///
  /// ```swift
  /// .onAppear { feed.startLoad() }
  /// ```
  ///
  /// - Returns: The task running the load.
  @discardableResult
  public func startLoad() -> Task<Void, Never> {
    startLoad(silently: false)
  }

  /// Starts ``load(silently:)`` in a new `Task` and returns it: the default for loaders that
  /// do not subclass ``BaseLoader``, which starts its load before returning.
  ///
  /// - Parameter silently: When `true`, the old state stays until the new one arrives.
  /// - Returns: The task running the load.
  @discardableResult
  public func startLoad(silently: Bool) -> Task<Void, Never> {
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

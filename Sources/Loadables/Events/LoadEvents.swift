import Foundation

/// The stream of ``LoadEvent``s every form of the library reports: loads started and
/// ended, waits, what the store did with its entries, and edits.
///
/// Nothing is reported while nobody listens, and then the events cost nothing: each place
/// that could report one checks a flag first. Listen while you debug, in a log, or in an
/// inspector:
///
/// <!-- compile: context Model -->
/// ```swift
/// let subscription = LoadEvents.listen { event in
///   logger.debug("\(event.description)")
/// }
/// // …
/// subscription.cancel()
/// ```
///
/// or as an `AsyncStream`:
///
/// ```swift
/// for await event in LoadEvents.stream() where event.subject.key == ["posts", 42] {
///   print(event)
/// }
/// ```
///
/// Listeners run on the main actor, in the order the events happened, synchronously as
/// they happen: a listener must be quick, and must not start or stop loads itself.
/// The stream is process-wide, as an app wants it. A test that runs beside others owns a
/// scope of its own instead (``withScope(_:)``): its listeners get only the events of the
/// work started inside it.
@MainActor
public enum LoadEvents {
  // Unchecked exclusivity: every access is on the main actor and instantaneous (`report`
  // iterates a copy of `listeners`, so a listener that cancels itself changes only the
  // original); a dynamic check cost two runtime calls an event.

  /// The listeners, by id, in the order they were added.
  @exclusivity(unchecked)
  private static var listeners: [(id: UInt64, body: @MainActor (LoadEvent) -> Void)] = []
  private static var nextListenerID: UInt64 = 0
  @exclusivity(unchecked) private static var nextSequence: UInt64 = 0

  /// Whether anyone listens: the one flag every place that could report an event checks.
  /// Read from the engine's non-inlined code, in this module, so the check is one load.
  static private(set) var isOn = false

  /// How many listeners scopes hold (``LoadEventScope``): while none does, an event looks up
  /// no scope.
  private static var scopedListenerCount = 0

  /// Whether anyone listens now, in the whole process or in a scope.
  public static var isListening: Bool { isOn }

  /// Calls `listener` with every event from now on, until the returned subscription is
  /// cancelled or released.
  ///
  /// - Parameter listener: Called on the main actor with each event, as it happens.
  /// - Returns: The subscription; keep it while you listen, and call
  ///   ``LoadEventSubscription/cancel()`` (or release it) to end it.
  public static func listen(
    _ listener: @escaping @MainActor (LoadEvent) -> Void
  ) -> LoadEventSubscription {
    let id = makeListenerID()
    listeners.append((id, listener))
    isOn = true
    return LoadEventSubscription(id: id, scope: nil)
  }

  /// The events from now on, as a stream that ends when the task iterating it is
  /// cancelled (or the stream is dropped).
  ///
  /// - Parameter limit: How many events the stream keeps for a reader that falls behind;
  ///   older ones are dropped first.
  /// - Returns: The stream.
  public static func stream(bufferingNewest limit: Int = 1_000) -> AsyncStream<LoadEvent> {
    let (stream, continuation) = AsyncStream<LoadEvent>.makeStream(
      bufferingPolicy: .bufferingNewest(Swift.max(1, limit)))
    let subscription = listen { continuation.yield($0) }
    continuation.onTermination = { _ in
      Task { @MainActor in subscription.cancel() }
    }
    return stream
  }

  /// Ends the listener with `id`.
  static func remove(_ id: UInt64) {
    listeners.removeAll { $0.id == id }
    updateIsOn()
  }

  /// A new listener id, shared by the process-wide stream and the scopes.
  static func makeListenerID() -> UInt64 {
    nextListenerID += 1
    return nextListenerID
  }

  /// A scope gained (`+1`) or lost (`-1`) a listener.
  static func scopedListenersChanged(by change: Int) {
    scopedListenerCount += change
    updateIsOn()
  }

  private static func updateIsOn() {
    isOn = !listeners.isEmpty || scopedListenerCount > 0
  }

  /// Runs `body` in a scope of its own: listeners added to the scope get the events of the
  /// work started inside `body` — loads, waits, store changes and edits reported while
  /// `body`, or a task it started, runs — and no one else's. The process-wide listeners
  /// still get every event.
  ///
  /// What a test running beside other tests uses, so that each records only its own events:
  ///
  /// ```swift
  /// try await LoadEvents.withScope { scope in
  ///   let events = LoadEventRecorder(in: scope, key: ["posts", 42])
  ///   store.invalidate(["posts", 42])
  ///   try await events.wait(for: .finished)
  /// }
  /// ```
  ///
  /// The scope is a task-local value: tasks started inside `body` (a `Task { }`, a load's
  /// task, a store's timers when the store is made inside) carry it; a detached task, or work
  /// started by an object made outside the scope, does not.
  ///
  /// - Parameter body: The work whose events the scope gets; it receives the scope.
  /// - Returns: What `body` returns.
  public static func withScope<Result>(
    _ body: @MainActor (LoadEventScope) async throws -> Result
  ) async rethrows -> Result {
    let scope = LoadEventScope()
    return try await CurrentLoadEventScope.$value.withValue(scope) { try await body(scope) }
  }

  /// Hands an event to every listener. Callers check ``isOn`` first, so that an event
  /// nobody listens to is never made.
  static func report(
    _ kind: LoadEventKind,
    _ subject: LoadSubject,
    isSilent: Bool = false,
    attempt: Int? = nil,
    duration: Duration? = nil,
    wait: LoadWait? = nil,
    error: (any Error)? = nil,
    detail: String? = nil,
    store: ObjectIdentifier? = nil
  ) {
    guard isOn else { return }
    nextSequence += 1
    let event = LoadEvent(
      kind: kind, subject: subject, isSilent: isSilent, attempt: attempt, duration: duration,
      wait: wait, error: error, detail: detail, storeID: store, date: Date(),
      sequence: nextSequence)
    // A listener may cancel itself (or another) while it runs: go through a copy.
    for listener in listeners { listener.body(event) }
    if scopedListenerCount > 0, let scope = LoadEventScope.current { scope.deliver(event) }
  }
}

/// The listeners of the events of one piece of work (``LoadEvents/withScope(_:)``): a test
/// that runs beside others records only its own events here.
@MainActor
public final class LoadEventScope: Sendable {
  /// The scope of the running task, if it runs inside ``LoadEvents/withScope(_:)``.
  static var current: LoadEventScope? { CurrentLoadEventScope.value }

  @exclusivity(unchecked)
  private var listeners: [(id: UInt64, body: @MainActor (LoadEvent) -> Void)] = []

  nonisolated init() {}

  /// Calls `listener` with every event of this scope's work from now on, until the returned
  /// subscription is cancelled or released.
  ///
  /// - Parameter listener: Called on the main actor with each event, as it happens.
  /// - Returns: The subscription; keep it while you listen.
  public func listen(_ listener: @escaping @MainActor (LoadEvent) -> Void)
    -> LoadEventSubscription
  {
    let id = LoadEvents.makeListenerID()
    listeners.append((id, listener))
    LoadEvents.scopedListenersChanged(by: 1)
    return LoadEventSubscription(id: id, scope: self)
  }

  /// Ends the listener with `id`.
  func remove(_ id: UInt64) {
    let before = listeners.count
    listeners.removeAll { $0.id == id }
    LoadEvents.scopedListenersChanged(by: listeners.count - before)
  }

  /// Hands `event` to this scope's listeners, through a copy (a listener may cancel itself).
  func deliver(_ event: LoadEvent) {
    for listener in listeners { listener.body(event) }
  }
}

/// A listener's place in ``LoadEvents``: ``cancel()`` ends it, and so does releasing it, as
/// a Combine `AnyCancellable` does. Keep it for as long as you listen:
///
/// ```swift
/// @MainActor final class AppDelegate {
///   var loadLog: LoadEventSubscription?
///   func start() { loadLog = LoadEvents.listen { print($0) } }
/// }
/// ```
@MainActor
public final class LoadEventSubscription: Sendable {
  /// The listener's id and scope (`nil`: the process-wide stream); immutable, so that the
  /// nonisolated `deinit` may read them.
  private nonisolated let id: UInt64
  private nonisolated let scope: LoadEventScope?
  private var isCancelled = false

  init(id: UInt64, scope: LoadEventScope?) {
    self.id = id
    self.scope = scope
  }

  deinit {
    // Released without `cancel()`: end the listener on the main actor — at once when the
    // release happens there (the main thread is the main actor's), as it almost always
    // does; otherwise on its next turn.
    let id = id
    let scope = scope
    if Thread.isMainThread {
      MainActor.assumeIsolated { Self.remove(id, from: scope) }
    } else {
      Task { @MainActor in Self.remove(id, from: scope) }
    }
  }

  private static func remove(_ id: UInt64, from scope: LoadEventScope?) {
    if let scope { scope.remove(id) } else { LoadEvents.remove(id) }
  }

  /// Ends the subscription: its listener gets no further events. Calling it again does
  /// nothing.
  public func cancel() {
    guard !isCancelled else { return }
    isCancelled = true
    Self.remove(id, from: scope)
  }

  /// Whether the subscription still delivers events.
  public var isActive: Bool { !isCancelled }
}

/// Where the running task's event scope is kept (a task-local value, declared outside the
/// main actor as task-locals must be).
enum CurrentLoadEventScope {
  @TaskLocal static var value: LoadEventScope?
}

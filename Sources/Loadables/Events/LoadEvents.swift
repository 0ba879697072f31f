import Foundation

/// The stream of ``LoadEvent``s every form of the library reports: loads started and
/// ended, waits, what the store did with its entries, and edits.
///
/// Nothing is reported while nobody listens, and then the events cost nothing: each place
/// that could report one checks a flag first. Listen while you debug, in a log, or in an
/// inspector:
///
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
/// The stream is process-wide: tests that run in parallel see each other's events, so a
/// test filters by the ``LoadEvent/subject`` it cares about.
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

  /// Whether anyone listens now.
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
    nextListenerID += 1
    let id = nextListenerID
    listeners.append((id, listener))
    isOn = true
    return LoadEventSubscription(id: id)
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
    isOn = !listeners.isEmpty
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
  }
}

/// A listener's place in ``LoadEvents``: ``cancel()`` ends it, and so does releasing it, as
/// a Combine `AnyCancellable` does. Keep it for as long as you listen:
///
/// ```swift
/// final class AppDelegate {
///   var loadLog: LoadEventSubscription?
///   func start() { loadLog = LoadEvents.listen { print($0) } }
/// }
/// ```
@MainActor
public final class LoadEventSubscription: Sendable {
  /// The listener's id; immutable, so that the nonisolated `deinit` may read it.
  private nonisolated let id: UInt64
  private var isCancelled = false

  init(id: UInt64) { self.id = id }

  deinit {
    // Released without `cancel()`: end the listener on the main actor — at once when the
    // release happens there (the main thread is the main actor's), as it almost always
    // does; otherwise on its next turn.
    let id = id
    if Thread.isMainThread {
      MainActor.assumeIsolated { LoadEvents.remove(id) }
    } else {
      Task { @MainActor in LoadEvents.remove(id) }
    }
  }

  /// Ends the subscription: its listener gets no further events. Calling it again does
  /// nothing.
  public func cancel() {
    guard !isCancelled else { return }
    isCancelled = true
    LoadEvents.remove(id)
  }

  /// Whether the subscription still delivers events.
  public var isActive: Bool { !isCancelled }
}

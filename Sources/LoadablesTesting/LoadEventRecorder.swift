public import Loadables

/// Records the ``LoadEvent``s a test cares about, and waits for them with a deadline.
///
/// The event stream is process-wide: tests that run beside each other see each other's
/// events. A recorder keeps only the events of one subject (a property's binding, a key path, a
/// loader, an entry's key) or whatever its condition picks, and, made in a scope
/// (``LoadEvents/withScope(_:)``), only the events of the work started in that scope:
///
/// ```swift
/// let events = LoadEventRecorder(key: ["posts", 42])
/// defer { events.stop() }
/// store.invalidate(["posts", 42])
/// try await events.wait(for: .finished)
/// XCTAssertEqual(events.kinds, [.entryInvalidated, .started, .finished])
/// ```
@MainActor
public final class LoadEventRecorder {
  /// The events recorded, oldest first.
  public private(set) var events: [LoadEvent] = []
  private var subscription: LoadEventSubscription?

  /// Records every event `matches` accepts, from now until ``stop()``.
  ///
  /// - Parameters:
  ///   - scope: The scope whose events to record (``LoadEvents/withScope(_:)``); `nil`, the
  ///     default, records from the whole process.
  ///   - matches: Whether an event is one the test cares about.
  public init(
    in scope: LoadEventScope? = nil, where matches: @escaping @MainActor (LoadEvent) -> Bool
  ) {
    let record: @MainActor (LoadEvent) -> Void = { [weak self] event in
      guard matches(event) else { return }
      self?.events.append(event)
    }
    subscription = scope.map { $0.listen(record) } ?? LoadEvents.listen(record)
  }

  /// Records the events of `subject`.
  ///
  /// - Parameters:
  ///   - scope: The scope whose events to record; `nil`, the default, the whole process.
  ///   - subject: The property, key path, loader or entry to record.
  public convenience init(in scope: LoadEventScope? = nil, subject: LoadSubject) {
    self.init(in: scope) { $0.subject == subject }
  }

  /// Records the events of the store entry for `key`, and of its edits.
  ///
  /// - Parameters:
  ///   - scope: The scope whose events to record; `nil`, the default, the whole process.
  ///   - key: The entry's key.
  public convenience init(in scope: LoadEventScope? = nil, key: LoadKey) {
    self.init(in: scope) { $0.subject.key == key }
  }

  /// The kinds of the events recorded, oldest first.
  public var kinds: [LoadEventKind] { events.map(\.kind) }

  /// Stops recording; the events recorded so far stay.
  public func stop() {
    subscription?.cancel()
    subscription = nil
  }

  /// Waits until `count` events of `kind` have been recorded in all.
  ///
  /// - Parameters:
  ///   - kind: The kind to wait for.
  ///   - count: How many of them; at least 1.
  ///   - timeout: How long to wait, in real time, before failing.
  /// - Throws: ``WaitTimeout`` naming the events recorded when they did not come in time.
  public func wait(
    for kind: LoadEventKind, count: Int = 1, timeout: Duration = .seconds(5)
  ) async throws {
    try await poll(
      timeout: timeout,
      failure: {
        "waited \(timeout) for \(counted(count, "\(kind) event")); recorded "
          + (events.isEmpty ? "none" : events.map(\.description).joined(separator: "; "))
      },
      condition: { events.lazy.filter { $0.kind == kind }.count >= count })
  }
}

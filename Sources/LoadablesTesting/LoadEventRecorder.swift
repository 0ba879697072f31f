public import Loadables

/// Records the ``LoadEvent``s a test cares about, and waits for them with a deadline.
///
/// The event stream is process-wide: tests that run in parallel see each other's events.
/// A recorder keeps only the events of one subject (a property's binding, a key path, a
/// loader, an entry's key) or whatever its condition picks:
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
  /// - Parameter matches: Whether an event is one the test cares about.
  public init(where matches: @escaping @MainActor (LoadEvent) -> Bool) {
    subscription = LoadEvents.listen { [weak self] event in
      guard matches(event) else { return }
      self?.events.append(event)
    }
  }

  /// Records the events of `subject`.
  ///
  /// - Parameter subject: The property, key path, loader or entry to record.
  public convenience init(subject: LoadSubject) {
    self.init { $0.subject == subject }
  }

  /// Records the events of the store entry for `key`, and of its edits.
  ///
  /// - Parameter key: The entry's key.
  public convenience init(key: LoadKey) {
    self.init { $0.subject.key == key }
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

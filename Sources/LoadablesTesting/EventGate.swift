import Foundation
public import Loadables

/// A point where the code under test takes events from the test one at a time, in order,
/// and then a value or an error: a ``Gate`` that passes several things, not one.
///
/// The stub calls ``pass(isolation:_:)`` with what to do with each event (report it as
/// progress, yield it as a state); the test sends events with ``send(_:)`` and ends with
/// ``open(_:)`` or ``fail(_:)``. Between two events the test can look at what the screen
/// shows:
///
/// <!-- compile: context ModelTests -->
/// ```swift
/// let download = ProgressGate<Data>()  // an EventGate<LoadingProgress, Data>
/// model.$file.start { try await download.pass() }  // reports each event as progress
/// try await download.arrival()
/// download.send(LoadingProgress(fraction: 0.5))
/// try await download.delivery(count: 1)
/// XCTAssertEqual(model.$file.progress?.fraction, 0.5)
/// download.open(data)
/// ```
///
/// Events sent before the code arrives wait in order; each goes to one caller. The end comes
/// after every event sent before it, and once it is there it lets every later caller
/// through too, as a gate stays open. A task cancelled while it waits for an event throws
/// `CancellationError` at once.
public final class EventGate<Event: Sendable, Value: Sendable>: @unchecked Sendable {
  // Safe to share: every stored property is read and written only while holding `lock`, and
  // each continuation is resumed exactly once, outside it.
  private enum Step {
    case event(Event)
    case end(Result<Value, any Error>)
  }

  private let lock = NSLock()
  private var queued: [Event] = []
  private var end: Result<Value, any Error>?
  private var nextID = 0
  /// Callers waiting for their next step, oldest first.
  private var waiters = ContinuationQueue<Step>()
  private var arrivedCount = 0
  private var deliveredCount = 0
  private var sentCount = 0

  /// Creates a gate with no events and no end yet.
  public init() {}

  /// How many times code has called ``pass(isolation:_:)``.
  public var arrived: Int { lock.withLock { arrivedCount } }

  /// How many events the code has handled: its handler has returned for them.
  public var delivered: Int { lock.withLock { deliveredCount } }

  /// How many events were sent and not yet taken by a caller.
  public var pending: Int { lock.withLock { queued.count } }

  /// Takes the events in order, handing each to `handle`, until the test ends the gate.
  ///
  /// <!-- compile: context ModelTests -->
  /// ```swift
  /// $feed.load { yield in
  ///   try await pages.pass { yield(.loaded($0)) }  // an EventGate<[Post], Void>
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - isolation: The actor `handle` runs on; the caller's by default.
  ///   - handle: What to do with each event; an error it throws ends the pass with that
  ///     error.
  /// - Returns: The value the gate was opened with.
  /// - Throws: The error the gate was failed with, the error `handle` threw, or
  ///   `CancellationError` as soon as the task is cancelled while it waits.
  public func pass(
    isolation: isolated (any Actor)? = #isolation,
    _ handle: (Event) async throws -> Void
  ) async throws -> Value {
    lock.withLock { arrivedCount += 1 }
    while true {
      switch try await nextStep() {
      case .event(let event):
        try await handle(event)
        lock.withLock { deliveredCount += 1 }
      case .end(let result):
        return try result.get()
      }
    }
  }

  /// Sends one event to the code: the oldest caller waiting takes it, or the next to ask.
  ///
  /// - Parameter event: The event.
  public func send(_ event: Event) {
    let waiter: CheckedContinuation<Step, any Error>? = lock.withLock {
      sentCount += 1
      guard queued.isEmpty, !waiters.isEmpty else {
        queued.append(event)
        return nil
      }
      return waiters.removeFirst()
    }
    waiter?.resume(returning: .event(event))
  }

  /// Ends the gate: once the events sent before have been taken, ``pass(isolation:_:)``
  /// returns `value`, for every caller now and later.
  ///
  /// - Parameter value: What ``pass(isolation:_:)`` returns.
  public func open(_ value: Value) { finish(.success(value)) }

  /// Ends the gate with an error: once the events sent before have been taken,
  /// ``pass(isolation:_:)`` throws `error`, for every caller now and later.
  ///
  /// - Parameter error: What ``pass(isolation:_:)`` throws.
  public func fail(_ error: any Error) { finish(.failure(error)) }

  /// Returns once code has called ``pass(isolation:_:)`` `count` times in all.
  ///
  /// - Parameters:
  ///   - count: How many arrivals to wait for, counting from the gate's creation.
  ///   - timeout: How long, in real time, to wait before failing; must be positive.
  /// - Throws: ``WaitTimeout`` naming the arrivals seen when fewer came in time;
  ///   `CancellationError` when the waiting task is cancelled.
  public func arrival(count: Int = 1, timeout: Duration = .seconds(5)) async throws {
    try await waitFor(
      "EventGate.arrival(count: \(count))", "\(counted(count, "arrival"))", timeout: timeout
    ) { $0.arrivedCount >= count }
  }

  /// Returns once the code has handled `count` events in all.
  ///
  /// An event is delivered once the handler given to ``pass(isolation:_:)`` has returned for
  /// it: a progress report has been made, a state yielded. A report made off the main actor
  /// (a stub that is not `@MainActor`) reaches `progress` a moment later: wait for what the
  /// screen shows with a `ProgressRecorder`.
  ///
  /// - Parameters:
  ///   - count: How many deliveries to wait for, counting from the gate's creation.
  ///   - timeout: How long, in real time, to wait before failing; must be positive.
  /// - Throws: ``WaitTimeout`` naming the events sent, delivered and pending when fewer were
  ///   delivered in time; `CancellationError` when the waiting task is cancelled.
  public func delivery(count: Int = 1, timeout: Duration = .seconds(5)) async throws {
    try await waitFor(
      "EventGate.delivery(count: \(count))", "\(counted(count, "delivered event"))",
      timeout: timeout
    ) { $0.deliveredCount >= count }
  }

  private func waitFor(
    _ what: String, _ goal: String, timeout: Duration,
    _ condition: (EventGate) -> Bool
  ) async throws {
    guard timeout > .zero else {
      throw WaitTimeout("\(what): timeout must be positive, got \(timeout)")
    }
    try await poll(
      timeout: timeout,
      failure: {
        lock.withLock {
          "\(what): waited \(timeout) for \(goal); saw \(counted(arrivedCount, "arrival")), "
            + "\(sentCount) sent, \(deliveredCount) delivered, \(queued.count) pending, "
            + "\(waiters.count) waiting now\(end == nil ? "" : ", ended"). "
            + "Did the code under test reach the gate?"
        }
      },
      condition: { lock.withLock { condition(self) } })
  }

  private func nextStep() async throws -> Step {
    let id = lock.withLock {
      nextID += 1
      return nextID
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let ready: Result<Step, any Error>? = lock.withLock {
          if waiters.takeCancellation(id) { return .failure(CancellationError()) }
          if !queued.isEmpty { return .success(.event(queued.removeFirst())) }
          if let end { return .success(.end(end)) }
          waiters.append(id, continuation)
          return nil
        }
        if let ready { continuation.resume(with: ready) }
      }
    } onCancel: {
      lock.withLock { waiters.cancel(id) }?.resume(throwing: CancellationError())
    }
  }

  private func finish(_ result: Result<Value, any Error>) {
    let toResume = lock.withLock {
      end = result
      // Anyone waiting now has nothing queued before the end: events go to waiters first.
      let all = waiters.removeAll()
      return all
    }
    for waiter in toResume { waiter.resume(returning: .end(result)) }
  }
}

extension EventGate where Value == Void {
  /// Ends the gate: ``pass(isolation:_:)`` returns once the events sent before are taken.
  public func open() { open(()) }
}

/// A gate that passes progress reports, then a value: `ProgressGate<Data>()`.
public typealias ProgressGate<Value: Sendable> = EventGate<LoadingProgress, Value>

extension EventGate where Event == LoadingProgress {
  /// Reports each event as the progress of the load whose block calls it
  /// (`LoadingProgress.report(_:)`), until the test ends the gate.
  ///
  /// <!-- compile: context ModelTests -->
  /// ```swift
  /// model.$file.load { try await download.pass() }
  /// download.send(LoadingProgress(fraction: 0.5, message: "Halfway"))
  /// ```
  ///
  /// - Parameter isolation: The actor to report on; the caller's by default.
  /// - Returns: The value the gate was opened with.
  /// - Throws: The error the gate was failed with, or `CancellationError` as soon as the
  ///   task is cancelled while it waits.
  public func pass(isolation: isolated (any Actor)? = #isolation) async throws -> Value {
    try await pass { LoadingProgress.report($0) }
  }
}

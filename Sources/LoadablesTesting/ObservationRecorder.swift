public import Loadables
import Observation

/// Records every value an observable read goes through — a load's `isRunning`, `progress`
/// or `attempt` on any form — in order, and lets a test wait for one with a deadline.
///
/// Pass a closure that reads the value; the recorder tracks it with Observation and records
/// the value after every change, none coalesced away, beginning with the current one:
///
/// <!-- compile: context ModelTests -->
/// ```swift
/// let running = ObservationRecorder { model.$numbers.isRunning }
/// model.refresh()
/// try await running.wait(until: { $0 == false }, after: 1)
/// XCTAssertEqual(running.values, [false, true, false])
/// running.stop()
/// ```
///
/// The same closure form works for every face of a load:
///
/// <!-- compile: context ModelTests -->
/// ```swift
/// ObservationRecorder { model.$feed.progress }          // a @Loadable or @Process property
/// ObservationRecorder { model.attempt(\.feed) }         // a LoadableSupport key path
/// ObservationRecorder { loader.isRunning }              // a loader object
/// ```
///
/// ``IsRunningRecorder``, ``ProgressRecorder`` and ``AttemptRecorder`` name the three usual
/// kinds, beside `StateRecorder` for the states.
///
/// How it sees every change: Observation tells the recorder just *before* each change, when
/// the value it reads is still the one the previous change wrote. The recorder reads it
/// then, so each value is recorded as the next change begins, and the latest one whenever
/// ``values`` is read. A value no change follows is therefore part of ``values`` only while it
/// is current, which it is until the next change.
///
/// > Important: Read only the value to record in the closure: a change to anything else it
/// > reads records the value again, unchanged. Read observable state: a plain property is
/// > never seen to change.
@MainActor
public final class ObservationRecorder<Value> {
  private let read: @MainActor () -> Value
  /// The values that later changes have replaced, oldest first.
  private var replaced: [Value]
  private var changes = 0
  private var isRecording = true
  private var waiters: [Waiter] = []
  private var nextWaiterID = 0

  private struct Waiter {
    let id: Int
    /// The index of the first value that may satisfy the wait.
    let from: Int
    let isSatisfied: @MainActor (Value) -> Bool
    let continuation: CheckedContinuation<Void, any Error>
  }

  /// Starts recording what `read` reads, beginning with its current value.
  ///
  /// - Parameter read: Reads the observable value to record, such as
  ///   `{ model.$numbers.isRunning }`.
  public init(_ read: @escaping @MainActor () -> Value) {
    self.read = read
    replaced = []
    replaced.append(track())
  }

  /// Every value so far, oldest first: the value when recording began, the value after
  /// each change, and last the current one.
  public var values: [Value] { changes == 0 ? replaced : replaced + [read()] }

  /// The most recent value.
  public var last: Value { changes == 0 ? replaced[replaced.count - 1] : read() }

  /// Stops recording. Later changes are not recorded; ``values`` keeps what was recorded and
  /// no longer reads the current value.
  public func stop() {
    guard isRecording else { return }
    if changes > 0 { replaced.append(read()) }
    changes = 0
    isRecording = false
  }

  /// Waits until a value satisfies `predicate` — the current one, or one recorded after the
  /// first `after` values — and returns it.
  ///
  /// - Parameters:
  ///   - predicate: The condition, such as `{ $0 == false }`.
  ///   - after: How many recorded values to skip: `1` skips the value recording began with.
  ///     `nil` (the default) looks at the current value and every later one.
  ///   - timeout: How long, in real time, to wait before failing; must be positive.
  /// - Returns: The first value from there on that satisfies `predicate`.
  /// - Throws: ``WaitTimeout`` naming every value seen, when none satisfied `predicate` in
  ///   time; `CancellationError` when the waiting task is cancelled.
  @discardableResult
  public func wait(
    until predicate: @escaping @MainActor (Value) -> Bool,
    after: Int? = nil,
    timeout: Duration = .seconds(5)
  ) async throws -> Value {
    guard timeout > .zero else {
      throw WaitTimeout("ObservationRecorder.wait: timeout must be positive, got \(timeout)")
    }
    let from = after ?? (values.count - 1)
    if let value = firstSatisfying(predicate, from: from) { return value }
    nextWaiterID += 1
    let id = nextWaiterID
    let timer = Task { [weak self] in
      try? await ContinuousClock().sleep(for: timeout)
      guard !Task.isCancelled, let self else { return }
      let seen = self.values.map { String(reflecting: $0) }.joined(separator: ", ")
      self.fail(
        id,
        WaitTimeout(
          "ObservationRecorder.wait: waited \(timeout) for a value that satisfies the "
            + "condition; values seen: [\(seen)]"))
    }
    defer { timer.cancel() }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        waiters.append(
          Waiter(id: id, from: from, isSatisfied: predicate, continuation: continuation))
      }
    } onCancel: {
      Task { @MainActor [weak self] in self?.fail(id, CancellationError()) }
    }
    // Every value but the last stays as recorded, and a current value that a change
    // replaces keeps its place: the value that satisfied the wait is still there.
    return firstSatisfying(predicate, from: from) ?? last
  }

  /// Waits until `count` values in all have been recorded (the first one included), and
  /// returns them.
  ///
  /// - Parameters:
  ///   - count: The number of values to wait for; at least 1.
  ///   - timeout: How long, in real time, to wait before failing; must be positive.
  /// - Returns: The first `count` values.
  /// - Throws: ``WaitTimeout`` when fewer values were recorded in time.
  @discardableResult
  public func wait(forCount count: Int, timeout: Duration = .seconds(5)) async throws -> [Value] {
    guard count >= 1 else {
      throw WaitTimeout(
        "ObservationRecorder.wait(forCount:): count must be at least 1, got \(count)")
    }
    _ = try await wait(until: { _ in true }, after: count - 1, timeout: timeout)
    return Array(values.prefix(count))
  }

  // MARK: - Recording

  /// Reads the value and asks to be told before its next change.
  private func track() -> Value {
    withObservationTracking {
      read()
    } onChange: { [weak self] in
      // Observation calls this synchronously, on the main actor that writes the value,
      // before the write: the value read now is the one the write replaces.
      MainActor.assumeIsolated { self?.willChange() }
    }
  }

  private func willChange() {
    guard isRecording else { return }
    let before = track()
    if changes > 0 { replaced.append(before) }
    changes += 1
    // The new value can be read once the write is over.
    Task { @MainActor [weak self] in self?.resumeWaiters() }
  }

  private func resumeWaiters() {
    for waiter in waiters {
      guard firstSatisfying(waiter.isSatisfied, from: waiter.from) != nil else { continue }
      waiters.removeAll { $0.id == waiter.id }
      waiter.continuation.resume()
    }
  }

  private func firstSatisfying(_ predicate: (Value) -> Bool, from: Int) -> Value? {
    values.dropFirst(max(from, 0)).first(where: predicate)
  }

  private func fail(_ id: Int, _ error: any Error) {
    guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
    waiters.remove(at: index).continuation.resume(throwing: error)
  }
}

/// Records a load's `isRunning`: `IsRunningRecorder { model.$numbers.isRunning }`.
public typealias IsRunningRecorder = ObservationRecorder<Bool>

/// Records a load's `progress`: `ProgressRecorder { model.$download.progress }`.
public typealias ProgressRecorder = ObservationRecorder<LoadingProgress?>

/// Records a retry's `attempt`: `AttemptRecorder { model.$feed.attempt }`.
public typealias AttemptRecorder = ObservationRecorder<RetryAttempt?>

import Foundation

/// Runs `operation` in a task of its own and returns its outcome, or throws `TimeoutError`
/// once `limit` has passed on `clock`, whichever comes first. The loser is cancelled.
///
/// At the deadline this returns at once, even when `operation` ignores cancellation: the
/// late outcome is dropped. That is the point of a timeout, and the one case where a load's
/// `await` may return while its block is still unwinding.
///
/// Cancelling the caller cancels both tasks and throws `CancellationError` once `operation`
/// has stopped — never before: an awaited load stopped by `cancel()`, `reset()`, a newer load
/// or its caller's cancellation returns once its block has stopped, timeout or not. An
/// `operation` whose task is cancelled before it starts never runs.
///
/// With a `pause`, the time `operation` spends waiting for the network (as the pause records
/// it) does not count: at the deadline, the timer waits out a pause under way, then moves
/// the deadline on by the time paused and sleeps again.
@MainActor
func race<Value: Sendable>(
  _ operation: @escaping @MainActor () async throws -> Value,
  limit: Duration,
  clock: any Clock<Duration>,
  pause: TimerPause? = nil
) async throws -> Value {
  let race = Race<Value>()
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation { continuation in
      race.begin(
        continuation,
        // This runs on the main actor, like `race` itself, so it cannot start before
        // `begin` has stored it (and cancelled it, if the caller already was).
        work: Task { @MainActor in
          guard !Task.isCancelled else {
            race.workEnded(.failure(CancellationError()))
            return
          }
          do {
            race.workEnded(.success(try await operation()))
          } catch {
            race.workEnded(.failure(error))
          }
        },
        timer: pause.map { pause in
          Task { @MainActor in
            guard await pausableSleep(limit: limit, clock: clock, pause: pause) else { return }
            race.timedOut()
          }
        }
          ?? Task {
            do { try await clock.sleep(for: limit) } catch { return }
            race.timedOut()
          })
    }
  } onCancel: {
    race.cancel()
  }
}

/// Sleeps on `clock` until `limit` has passed, not counting the time `pause` records; returns
/// `false` when the task is cancelled first.
@MainActor
private func pausableSleep(limit: Duration, clock: any Clock<Duration>, pause: TimerPause)
  async -> Bool
{
  var remaining = limit
  while true {
    do { try await clock.sleep(for: remaining) } catch { return false }
    await pause.untilResumed()
    guard !Task.isCancelled else { return false }
    remaining = limit + pause.pausedTotal - pause.stopwatch.elapsed
    if remaining <= .zero { return true }
  }
}

/// The shared end of a ``race(_:limit:clock:pause:)``: decides once, resumes the caller once.
///
/// - The work ends first: its outcome answers (`CancellationError` if the caller was
///   cancelled meanwhile); the timer is cancelled.
/// - The timer fires first, and the caller is not cancelled: `TimeoutError` answers at once;
///   the work is cancelled and its late outcome dropped.
/// - The caller is cancelled: both tasks are cancelled, and the answer waits for the work to
///   end; a timer firing meanwhile changes nothing.
private final class Race<Value: Sendable>: @unchecked Sendable {
  // Safe to share: every stored property is read and written only while holding `lock`.
  // The continuation is resumed exactly once, outside the lock.
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Value, any Error>?
  private var work: Task<Void, Never>?
  private var timer: Task<Void, Never>?
  /// An answer decided before `begin` stored the continuation.
  private var early: Result<Value, any Error>?
  private var isDecided = false
  private var isCancelled = false

  func begin(
    _ continuation: CheckedContinuation<Value, any Error>,
    work: Task<Void, Never>,
    timer: Task<Void, Never>
  ) {
    let (early, cancelled): (Result<Value, any Error>?, Bool) = lock.withLock {
      if isDecided { return (self.early, false) }
      self.continuation = continuation
      self.work = work
      self.timer = timer
      return (nil, isCancelled)
    }
    if let early {
      work.cancel()
      timer.cancel()
      continuation.resume(with: early)
    } else if cancelled {
      // Cancelled before the tasks existed: stop them; the work's end answers.
      work.cancel()
      timer.cancel()
    }
  }

  /// The work ended with `outcome`.
  func workEnded(_ outcome: Result<Value, any Error>) {
    let (continuation, answer, timer) = decide { cancelled in
      cancelled ? .failure(CancellationError()) : outcome
    }
    timer?.cancel()
    if let answer { continuation?.resume(with: answer) }
  }

  /// The deadline passed.
  func timedOut() {
    let (continuation, answer, work):
      (CheckedContinuation<Value, any Error>?, Result<Value, any Error>?, Task<Void, Never>?) =
        lock.withLock {
          // A cancelled race waits for its work to stop, whatever the clock says.
          guard !isDecided, !isCancelled else { return (nil, nil, nil) }
          isDecided = true
          let answer: Result<Value, any Error> = .failure(TimeoutError())
          if self.continuation == nil { early = answer }
          defer { clear() }
          return (self.continuation, answer, self.work)
        }
    work?.cancel()
    if let answer { continuation?.resume(with: answer) }
  }

  /// The caller was cancelled: stop both tasks; the work's end will answer.
  func cancel() {
    let tasks: [Task<Void, Never>] = lock.withLock {
      guard !isDecided, !isCancelled else { return [] }
      isCancelled = true
      return [work, timer].compactMap { $0 }
    }
    for task in tasks { task.cancel() }
  }

  /// Decides the answer from the work's end, under the lock; returns the continuation to
  /// resume (if `begin` stored it), the answer (`nil` when already decided) and the timer.
  private func decide(
    _ answer: (_ cancelled: Bool) -> Result<Value, any Error>
  ) -> (CheckedContinuation<Value, any Error>?, Result<Value, any Error>?, Task<Void, Never>?) {
    lock.withLock {
      guard !isDecided else { return (nil, nil, nil) }
      isDecided = true
      let result = answer(isCancelled)
      if self.continuation == nil { early = result }
      defer { clear() }
      return (self.continuation, result, timer)
    }
  }

  /// Drops the references kept for the race, under the lock, once it is decided.
  private func clear() {
    continuation = nil
    work = nil
    timer = nil
  }
}

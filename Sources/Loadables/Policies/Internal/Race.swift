import Foundation

/// Runs `operation` in a task of its own and returns its outcome, or throws `TimeoutError`
/// once `limit` has passed on `clock`, whichever comes first. The loser is cancelled.
///
/// Unlike a task group, this returns at the deadline even when `operation` ignores
/// cancellation: the late outcome is dropped. Cancelling the caller cancels both and
/// throws `CancellationError` at once.
@MainActor
func race<Value: Sendable>(
  _ operation: @escaping @MainActor () async throws -> Value,
  limit: Duration,
  clock: any Clock<Duration>
) async throws -> Value {
  let race = Race<Value>()
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation { continuation in
      race.begin(
        continuation,
        work: Task { @MainActor in
          do {
            race.finish(.success(try await operation()))
          } catch {
            race.finish(.failure(error))
          }
        },
        timer: Task {
          do { try await clock.sleep(for: limit) } catch { return }
          race.finish(.failure(TimeoutError()))
        })
    }
  } onCancel: {
    race.finish(.failure(CancellationError()))
  }
}

/// The shared end of a ``race(_:limit:clock:)``: the first outcome resumes the caller and
/// cancels both tasks; later ones are dropped.
private final class Race<Value: Sendable>: @unchecked Sendable {
  // Safe to share: every stored property is read and written only while holding `lock`.
  // The continuation is resumed exactly once, outside the lock.
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Value, any Error>?
  private var tasks: [Task<Void, Never>] = []
  private var early: Result<Value, any Error>?
  private var isDone = false

  func begin(
    _ continuation: CheckedContinuation<Value, any Error>,
    work: Task<Void, Never>,
    timer: Task<Void, Never>
  ) {
    let early: Result<Value, any Error>? = lock.withLock {
      if isDone { return self.early }
      self.continuation = continuation
      tasks = [work, timer]
      return nil
    }
    if let early {
      // Cancelled before the tasks existed: stop them and answer now.
      work.cancel()
      timer.cancel()
      continuation.resume(with: early)
    }
  }

  func finish(_ outcome: Result<Value, any Error>) {
    let (continuation, tasks): (CheckedContinuation<Value, any Error>?, [Task<Void, Never>]) =
      lock.withLock {
        guard !isDone else { return (nil, []) }
        isDone = true
        if self.continuation == nil { early = outcome }
        defer {
          self.continuation = nil
          self.tasks = []
        }
        return (self.continuation, self.tasks)
      }
    for task in tasks { task.cancel() }
    continuation?.resume(with: outcome)
  }
}

import Foundation
import XCTest

/// Awaits `task` for at most `timeout` of real time and returns whether it finished. When it
/// did not, records a failure naming `what` (what the test waited for) at the caller's line
/// and returns, leaving the task behind: a library that never resumes it fails the test
/// instead of hanging it.
@MainActor
func finishes(
  _ task: Task<Void, Never>, within timeout: Duration = .seconds(10), _ what: String,
  file: StaticString = #filePath, line: UInt = #line
) async -> Bool {
  let finished = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
    let race = FirstToFinish(continuation)
    Task {
      await task.value
      race.end(true)
    }
    race.start(
      deadline: Task {
        try? await Task.sleep(for: timeout)
        race.end(false)
      })
  }
  if !finished { XCTFail("\(what): still waiting after \(timeout)", file: file, line: line) }
  return finished
}

/// A race between a task and its deadline: the first to end resumes the waiting test and
/// cancels the deadline; the other is ignored.
private final class FirstToFinish: @unchecked Sendable {
  // Safe: `continuation` and `deadline` are read and written only while holding `lock`.
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Bool, Never>?
  private var deadline: Task<Void, Never>?

  init(_ continuation: CheckedContinuation<Bool, Never>) { self.continuation = continuation }

  /// Keeps `deadline` to cancel it when the task wins; cancels it now if the task has won.
  func start(deadline: Task<Void, Never>) {
    let ended = lock.withLock {
      self.deadline = deadline
      return continuation == nil
    }
    if ended { deadline.cancel() }
  }

  func end(_ finished: Bool) {
    let (continuation, deadline) = lock.withLock {
      defer {
        self.continuation = nil
        self.deadline = nil
      }
      return (self.continuation, self.deadline)
    }
    continuation?.resume(returning: finished)
    if finished { deadline?.cancel() }
  }
}

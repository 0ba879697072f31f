/// Tasks waiting in line to be resumed, first in, first out, and the ids of those cancelled
/// before they got in line: the waits of ``EventGate`` and ``ScriptedFake``.
///
/// Not safe to share on its own: its owner keeps it behind the owner's lock, and resumes the
/// continuations it hands out after leaving the lock.
struct ContinuationQueue<Value> {
  private var line: [(id: Int, continuation: CheckedContinuation<Value, any Error>)] = []
  private var cancelledIDs: Set<Int> = []

  /// How many tasks wait.
  var count: Int { line.count }

  /// Whether no task waits.
  var isEmpty: Bool { line.isEmpty }

  /// Whether waiter `id` was cancelled before it got in line (forgetting it): it must not
  /// wait, and throws `CancellationError` instead.
  mutating func takeCancellation(_ id: Int) -> Bool {
    cancelledIDs.remove(id) != nil
  }

  /// Puts waiter `id` in line; ask ``takeCancellation(_:)`` first.
  mutating func append(_ id: Int, _ continuation: CheckedContinuation<Value, any Error>) {
    line.append((id, continuation))
  }

  /// Takes waiter `id` out of line, to resume with `CancellationError`; `nil` when it is not
  /// in line yet (it is remembered, for ``takeCancellation(_:)``) or was resumed already.
  mutating func cancel(_ id: Int) -> CheckedContinuation<Value, any Error>? {
    guard let index = line.firstIndex(where: { $0.id == id }) else {
      cancelledIDs.insert(id)
      return nil
    }
    return line.remove(at: index).continuation
  }

  /// Takes the first waiter out of line; `nil` when none waits.
  mutating func removeFirst() -> CheckedContinuation<Value, any Error>? {
    line.isEmpty ? nil : line.removeFirst().continuation
  }

  /// Takes every waiter out of line, first first.
  mutating func removeAll() -> [CheckedContinuation<Value, any Error>] {
    defer { line = [] }
    return line.map(\.continuation)
  }
}

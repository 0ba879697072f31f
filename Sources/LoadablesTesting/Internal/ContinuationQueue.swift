/// Tasks waiting in line to be resumed, first in, first out, and the ids of those cancelled
/// before they got in line: the waits of ``EventGate`` and ``ScriptedFake``.
///
/// Not safe to share on its own: its owner keeps it behind the owner's lock, and resumes the
/// continuations it hands out after leaving the lock.
struct ContinuationQueue<Value> {
  private var line: [(id: Int, continuation: CheckedContinuation<Value, any Error>)] = []
  private var cancelledIDs: Set<Int> = []
  /// The waiters counted in but not in line yet: one may get in line after a younger one
  /// (its task ran later), and the line keeps its place for it.
  private var entering: Set<Int> = []

  /// How many tasks wait.
  var count: Int { line.count }

  /// Whether no task waits.
  var isEmpty: Bool { line.isEmpty }

  /// Whether waiter `id` was cancelled before it got in line (forgetting it): it must not
  /// wait, and throws `CancellationError` instead.
  mutating func takeCancellation(_ id: Int) -> Bool {
    guard cancelledIDs.remove(id) != nil else { return false }
    entering.remove(id)
    return true
  }

  /// Waiter `id` (ids count up in the order waiters arrive) will get in line: until it does,
  /// ``removeFirst()`` takes no younger waiter. Optional: a waiter not announced takes its
  /// place when it gets in line.
  mutating func expect(_ id: Int) {
    entering.insert(id)
  }

  /// Puts waiter `id` in line, in the order of the ids; ask ``takeCancellation(_:)`` first.
  mutating func append(_ id: Int, _ continuation: CheckedContinuation<Value, any Error>) {
    entering.remove(id)
    let index = line.firstIndex { $0.id > id } ?? line.endIndex
    line.insert((id, continuation), at: index)
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

  /// Takes the first waiter out of line; `nil` when none waits, or an older one announced
  /// with ``expect(_:)`` is not in line yet.
  mutating func removeFirst() -> CheckedContinuation<Value, any Error>? {
    guard let first = line.first else { return nil }
    if let oldest = entering.min(), oldest < first.id { return nil }
    return line.removeFirst().continuation
  }

  /// Takes every waiter out of line, first first.
  mutating func removeAll() -> [CheckedContinuation<Value, any Error>] {
    defer { line = [] }
    return line.map(\.continuation)
  }
}

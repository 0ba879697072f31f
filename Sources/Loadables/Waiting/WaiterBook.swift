/// The order a ``HandOffLine`` serves its waiters in, as a value with no lock and no tasks:
/// the highest ``LoadPriority`` first, first in first out within a priority.
///
/// Waiters are kept in one array in the order they took their place at their priority; the
/// next to serve is the first one of the highest priority present. A raised waiter moves to
/// the end of the array, so it is last among the waiters of its new priority. With every
/// waiter at one priority (the common case) the first one is served, as a plain queue would.
struct WaiterBook<Element> {
  private var waiters: [(id: Int, priority: LoadPriority, element: Element)] = []

  init() {}

  var count: Int { waiters.count }
  var isEmpty: Bool { waiters.isEmpty }

  /// The ids in the order they would be served.
  var servingOrder: [Int] {
    var copy = self
    var ids: [Int] = []
    while let next = copy.removeNextIndex() { ids.append(copy.waiters.remove(at: next).id) }
    return ids
  }

  /// Adds a waiter at the end of its priority.
  mutating func append(id: Int, priority: LoadPriority, _ element: Element) {
    waiters.append((id, priority, element))
  }

  /// Removes and returns the next waiter to serve: the first of the highest priority.
  mutating func removeNext() -> Element? {
    guard let index = removeNextIndex() else { return nil }
    return waiters.remove(at: index).element
  }

  private func removeNextIndex() -> Int? {
    guard var best = waiters.indices.first else { return nil }
    var index = best + 1
    // Stops at the first waiter of the highest priority there is: nothing outranks it.
    while waiters[best].priority < .userInitiated, index < waiters.count {
      if waiters[index].priority > waiters[best].priority { best = index }
      index += 1
    }
    return best
  }

  /// Removes the waiter `id` (cancelled while it waited) and returns it; `nil` when it is
  /// not in line.
  mutating func remove(id: Int) -> Element? {
    guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
    return waiters.remove(at: index).element
  }

  /// Raises the waiter `id` to `priority`, moving it to the end of that priority. Returns
  /// whether it moved: not when it is not in line, nor when it already waits at `priority`
  /// or higher (a raise never lowers, nor reorders within a priority).
  @discardableResult
  mutating func raise(id: Int, to priority: LoadPriority) -> Bool {
    guard let index = waiters.firstIndex(where: { $0.id == id }),
      waiters[index].priority < priority
    else { return false }
    var waiter = waiters.remove(at: index)
    waiter.priority = priority
    waiters.append(waiter)
    return true
  }

  /// Removes every waiter and returns them, in the order they arrived.
  mutating func removeAll() -> [Element] {
    defer { waiters = [] }
    return waiters.map(\.element)
  }
}

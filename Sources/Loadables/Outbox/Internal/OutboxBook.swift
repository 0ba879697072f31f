import Foundation

/// Decides each edit's ``OutboxItem/Status-swift.enum`` from facts alone: the edits of one
/// scope, in the order they were enqueued, and whether the network is there. No tasks, no
/// clock reads, no connectivity reads.
///
/// The outbox (the runner) gathers the facts at each transition — an edit enqueued,
/// registered, retried or discarded; its scope's lane starting a send, a wait for the network
/// or a backoff; a send returning — writes the statuses this returns, and tells observers when
/// one changed.
///
/// | facts of an edit, first that applies | status |
/// |---|---|
/// | a permanent failure (or a record that does not read back) | `failed` |
/// | its lane sends it | `sending` |
/// | its lane waits out a backoff after its failed send | `backingOff` |
/// | its lane waits to write its record again | `waitingToSave` |
/// | its value or its type's handler is unknown | `waitingForHandler` |
/// | another edit of its scope goes first (the lane's edit, else the first not failed) | `waitingBehind` that edit |
/// | offline | `waitingForNetwork` |
/// | otherwise | `ready` |
struct OutboxBook {
  /// What the outbox knows of one edit.
  struct Edit: Equatable {
    var id: OutboxItem.ID
    /// The reason of a permanent failure, or of a record that does not read back.
    var failure: String?
    /// Whether the edit's value is known and a handler for its type is registered.
    var hasHandler: Bool
    /// What its scope's lane does with it now.
    var activity: Activity
  }

  /// What a scope's lane does with one edit.
  enum Activity: Equatable {
    /// Nothing: the edit waits for its turn, or for the network, or the lane has not reached
    /// it yet.
    case idle
    /// Its handler runs.
    case sending
    /// Send `attempt` failed; the lane sleeps until `nextTry` (by the store's clock).
    case backingOff(attempt: Int, nextTry: Date)
    /// Writing its record failed `attempt` times; the lane sleeps until `nextTry`.
    case savingAgain(attempt: Int, nextTry: Date)
  }

  /// The id of the edit that goes first in a scope: the one its lane sends or waits on, else
  /// the first that has not failed; `nil` when every edit failed.
  ///
  /// - Parameter edits: One scope's edits, in the order they were enqueued.
  static func head(of edits: some Sequence<Edit>) -> OutboxItem.ID? {
    var firstInLine: OutboxItem.ID?
    for edit in edits where edit.failure == nil {
      if edit.activity != .idle { return edit.id }
      if firstInLine == nil { firstInLine = edit.id }
    }
    return firstInLine
  }

  /// The status of `edit`.
  ///
  /// - Parameters:
  ///   - edit: One edit of a scope.
  ///   - head: The scope's ``head(of:)``.
  ///   - isOnline: Whether the store's connectivity says online (`true` without one).
  /// - Returns: Its status.
  static func status(of edit: Edit, head: OutboxItem.ID?, isOnline: Bool) -> OutboxItem.Status {
    if let failure = edit.failure { return .failed(failure) }
    switch edit.activity {
    case .sending: return .sending
    case .backingOff(let attempt, let nextTry):
      return .backingOff(attempt: attempt, nextTry: nextTry)
    case .savingAgain(let attempt, let nextTry):
      return .waitingToSave(attempt: attempt, nextTry: nextTry)
    case .idle: break
    }
    if !edit.hasHandler { return .waitingForHandler }
    if let head, head != edit.id { return .waitingBehind(head) }
    return isOnline ? .ready : .waitingForNetwork
  }

  /// The status of each of `edits`, in the same order.
  ///
  /// - Parameters:
  ///   - edits: One scope's edits, in the order they were enqueued.
  ///   - isOnline: Whether the store's connectivity says online (`true` without one).
  /// - Returns: One status per edit.
  static func statuses(of edits: [Edit], isOnline: Bool) -> [OutboxItem.Status] {
    let head = head(of: edits)
    return edits.map { status(of: $0, head: head, isOnline: isOnline) }
  }
}

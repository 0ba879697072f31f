/// How an edit ended, or how far it got: what ``EditTicket/outcome(until:)`` returns.
///
/// <!-- compile: context Outbox -->
/// ```swift
/// switch await store.edit(RenamePost(id: 1, title: "New")).outcome() {
/// case .committed: print("saved on the server")
/// case .rolledBack(let error), .failed(let error): print("not saved: \(error)")
/// case .discarded: print("discarded")
/// case .queued, .unfinished: print("not done yet")
/// }
/// ```
///
/// | outcome | the edit | its optimistic change |
/// |---|---|---|
/// | `queued` | is durably queued (only with ``EditTicket/Stage/queued``): it survives a relaunch and is sent when its turn comes | shows |
/// | `committed` | its handler succeeded | stays until a fetch carries it |
/// | `rolledBack` | sent with ``EditDelivery/now`` and failed (or no network at its turn): it is gone | rolled back |
/// | `failed` | failed for good (``OutboxFailure/permanent(_:)``): it stays, failed, for ``Outbox/retry(_:)`` or ``Outbox/discard(_:)`` | rolled back |
/// | `discarded` | was discarded (``Outbox/discard(_:)``, or a removal with `pendingEdits: .discard`) | rolled back |
/// | `unfinished` | has not ended: the caller was cancelled, or the store went away (a saved edit is sent after the next launch) | as it was |
public enum EditOutcome: Sendable, CustomStringConvertible {
  /// The edit is durably queued: saved (or, in a store with no persistence, in the outbox),
  /// to be sent when its turn comes. Returned only to a caller waiting until
  /// ``EditTicket/Stage/queued``.
  case queued
  /// The edit's handler succeeded: the change is committed.
  case committed
  /// The edit, sent once with ``EditDelivery/now``, failed with this error (or found no
  /// network, ``EditOffline``): its change is rolled back and it left the outbox.
  case rolledBack(any Error)
  /// The edit failed for good with this error (the one inside
  /// ``OutboxFailure/permanent(_:)``; an ``EditFailure`` with its type name when another
  /// process over a shared folder sent it): its change is rolled back, and it stays in the
  /// outbox, failed, until ``Outbox/retry(_:)`` or ``Outbox/discard(_:)``. A retried edit
  /// has no caller waiting for it any more.
  case failed(any Error)
  /// The edit was discarded: its change is rolled back and it left the outbox.
  case discarded
  /// The wait ended before the edit did: the caller was cancelled, or the store went away.
  case unfinished

  /// Whether the edit committed.
  ///
  /// <!-- compile: context Outbox -->
  /// ```swift
  /// let saved = await store.edit(rename).outcome().isCommitted
  /// ```
  public var isCommitted: Bool {
    if case .committed = self { return true }
    return false
  }

  /// Names the outcome, with its error.
  public var description: String {
    switch self {
    case .queued: "queued"
    case .committed: "committed"
    case .rolledBack(let error): "rolled back: \(error)"
    case .failed(let error): "failed: \(error)"
    case .discarded: "discarded"
    case .unfinished: "unfinished"
    }
  }
}

/// How an edit is delivered: kept durable until it is sent, or sent now only.
///
/// <!-- compile: context Outbox -->
/// ```swift
/// store.edit(RenamePost(id: 1, title: "New"))  // .durable: saved, sent when it can be
/// store.edit(LikePost(id: 1), delivery: .now)  // sent now, or rolled back
/// ```
public enum EditDelivery: Sendable, Equatable {
  /// Saved before it is sent (with a ``LoaderStore/persistence``), sent when its turn comes
  /// and the network is there, retried after transient failures for as long as it takes,
  /// restored after a relaunch. The default.
  case durable
  /// Sent when its turn in its scope comes, once, and never saved: any error, or no network
  /// at its turn, rolls the change back and ends the edit (``EditOutcome/rolledBack(_:)``).
  case now
}

/// The error of an edit sent with ``EditDelivery/now`` that found no network at its turn.
public struct EditOffline: Error, Sendable, Equatable, CustomStringConvertible {
  /// Makes the error.
  public init() {}

  /// Says the network was not there.
  public var description: String { "the network was not there when the edit's turn came" }
}

/// The error ``EditTicket/wait(until:)`` throws when an edit was discarded, or the wait
/// ended before the edit did because the store went away.
public struct EditNotCommitted: Error, CustomStringConvertible {
  /// How the edit ended (``EditOutcome/discarded`` or ``EditOutcome/unfinished``).
  public let outcome: EditOutcome

  /// Names the outcome.
  public var description: String { "the edit was not committed: \(outcome)" }
}

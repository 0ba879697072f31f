public import Foundation

/// One edit in the ``Outbox``, as a screen shows it.
///
/// ```swift
/// ForEach(store.outbox.items) { item in
///   switch item.status {
///   case .failed(let reason): FailedRow(item.name, reason, retry: { store.outbox.retry(item.id) })
///   default: Text("\(item.name) waiting to sync")
///   }
/// }
/// ```
public struct OutboxItem: Identifiable, Equatable, Sendable {
  /// A stable id, made when the edit was enqueued and kept across relaunches.
  public let id: String
  /// The edit type's ``OutboxEdit/name``.
  public let name: String
  /// A description of the edit's ``OutboxEdit/scope``.
  public let scope: String
  /// Where the edit is.
  public var status: Status
  /// How many sends were tried in this launch.
  public var attempt: Int
  /// The error of the last transient failure, while the edit waits to be sent again; `nil`
  /// before any and after a success.
  public var lastError: String?
  /// When the edit was enqueued (wall clock).
  public let enqueuedAt: Date

  /// Where an edit of the outbox is.
  public enum Status: Equatable, Sendable {
    /// Waiting to be sent: for its turn in its scope, for the network, or for a backoff.
    case pending
    /// Its handler runs now.
    case sending
    /// Failed for good (or cannot be read back): its change is rolled back, and it waits for
    /// ``Outbox/retry(_:)`` or ``Outbox/discard(_:)``. The reason describes the error.
    case failed(String)
    /// Restored, or enqueued, with no handler registered for its type: it stays, and holds
    /// up later edits of its scope, until ``LoaderStore/register(_:backoff:handler:)``.
    case waitingForHandler
  }
}

/// Something the outbox could not do as it should, reported in ``Outbox/issues``; the edit
/// it names is never dropped because of it.
///
/// ```swift
/// for issue in store.outbox.issues { logger.warning("\(issue)") }
/// ```
public struct OutboxIssue: Equatable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Equatable, Sendable {
    /// An edit could not be saved (a full disk, an edit that does not encode): it stays in
    /// memory and is saved again before it is sent.
    case notSaved
    /// A sent edit's record could not be removed: after a relaunch it is sent again with the
    /// same idempotency key.
    case notRemoved
    /// The saved outbox held a file it could not read, which the backend removed, or a
    /// record whose edit does not decode, which stays as a failed edit.
    case unreadable
    /// No handler is registered for an edit's type, and it holds up its scope.
    case noHandler
  }

  /// What went wrong.
  public let kind: Kind
  /// The id of the edit concerned, when known.
  public let itemID: OutboxItem.ID?
  /// Says what happened, with the underlying error.
  public let message: String

  /// The kind, the edit and the message.
  public var description: String {
    "outbox \(kind)" + (itemID.map { " \($0)" } ?? "") + ": \(message)"
  }
}

/// The saved form of a queued edit: the edit's encoded value with what the outbox needs to
/// order, resend and show it without decoding the edit.
struct OutboxRecord: Codable, Equatable {
  var id: String
  var name: String
  var scopeID: String
  var scope: String
  var idempotencyKey: String
  var sequence: UInt64
  var enqueuedAt: Date
  /// The reason of a permanent failure; `nil` while the edit is to be sent.
  var failure: String?
  /// The edit, as JSON.
  var payload: Data

  /// The rules of the outbox's backend: its own version (an app update keeps queued edits),
  /// no age limit and no byte budget (nothing evicts a queued edit).
  static let rules = PersistenceRules(version: "loadables-outbox-1")

  static func key(_ id: String) -> PersistentKey { PersistentKey(identity: "outbox:" + id) }
}

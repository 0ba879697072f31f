public import Foundation

/// One edit in the ``Outbox``, as a screen shows it: what it is, and why it is not done yet.
///
/// <!-- compile: context OutboxView -->
/// ```swift
/// ForEach(store.outbox.items) { item in
///   switch item.status {
///   case .failed(let reason): FailedRow(item.name, reason, retry: { store.outbox.retry(item.id) })
///   case .waitingForNetwork: Text("\(item.name) waits for the network")
///   default: Text("\(item.name) waiting to sync")
///   }
/// }
/// ```
///
/// A screen finds the pending edit of what it shows by its scope, and reads it as the app's
/// own type:
///
/// <!-- compile: context Outbox -->
/// ```swift
/// let pendingTitle = store.outbox.items
///   .last { $0.scopeKey == ["posts", post.id] }?
///   .edit(as: RenamePost.self)?.title
/// ```
public struct OutboxItem: Identifiable, Equatable, Sendable {
  /// A stable id, made when the edit was enqueued and kept across relaunches.
  public let id: String
  /// The edit type's ``OutboxEdit/name``.
  public let name: String
  /// The edit's ``OutboxEdit/scope``; `nil` only while its value cannot be read: an edit
  /// restored from an earlier launch whose type is not registered yet, or a saved record that
  /// does not read back.
  public internal(set) var scopeKey: LoadKey?
  /// The scope's description, as saved with the record (shown while ``scopeKey`` is `nil`).
  let scopeText: String
  /// The edit, once its value is known (at enqueue, or once its type is registered).
  var value: (any OutboxEdit)?
  /// The edit as JSON, as saved; `nil` when it does not encode or does not read back.
  let payload: Data?
  /// Where the edit is, and what it waits for. Observable through ``Outbox/items``: the
  /// outbox decides it again at each step of the edit's way, and tells observers each change.
  public var status: Status
  /// How many sends were tried in this launch.
  public var attempt: Int
  /// The error of the last transient failure, while the edit waits to be sent again; `nil`
  /// before any and after a success.
  public var lastError: String?
  /// Why the edit failed for good, while its ``status`` is ``Status-swift.enum/failed(_:)``:
  /// the error itself (``EditFailure/error``) in the process whose handler threw it, and its
  /// type name and reason always, after a relaunch too; `nil` while it is not failed.
  ///
  /// <!-- compile: context Outbox -->
  /// ```swift
  /// for item in store.outbox.items {
  ///   if let refusal = item.failure?.error as? APIError, refusal.status == 422 {
  ///     store.outbox.discard(item.id)  // the server will never take it
  ///   }
  /// }
  /// ```
  public internal(set) var failure: EditFailure?
  /// When the edit was enqueued (wall clock).
  public let enqueuedAt: Date

  /// The edit as the app's type, or `nil` when it is of another type (or does not read back
  /// as `Edit`): the value enqueued, or, for an edit restored from an earlier launch, its
  /// saved value decoded.
  ///
  /// <!-- compile: context OutboxView -->
  /// ```swift
  /// if let rename = item.edit(as: RenamePost.self) {
  ///   Text("Renaming to \(rename.title)")
  /// }
  /// ```
  ///
  /// - Parameter type: The edit type to read it as.
  /// - Returns: The edit, or `nil`.
  public func edit<Edit: OutboxEdit>(as type: Edit.Type) -> Edit? {
    if let value { return value as? Edit }
    guard name == Edit.name, let payload else { return nil }
    return try? JSONDecoder().decode(Edit.self, from: payload)
  }

  /// Whether two items show the same edit in the same state (the edit's value is compared
  /// through its saved form).
  ///
  /// - Parameters:
  ///   - lhs: An item.
  ///   - rhs: Another item.
  /// - Returns: Whether they are equal.
  public static func == (lhs: OutboxItem, rhs: OutboxItem) -> Bool {
    lhs.id == rhs.id && lhs.name == rhs.name && lhs.scopeKey == rhs.scopeKey
      && lhs.scopeText == rhs.scopeText && lhs.payload == rhs.payload
      && (lhs.value == nil) == (rhs.value == nil) && lhs.status == rhs.status
      && lhs.attempt == rhs.attempt && lhs.lastError == rhs.lastError
      && lhs.failure == rhs.failure && lhs.enqueuedAt == rhs.enqueuedAt
  }

  /// Where an edit of the outbox is, and the reason it is not done yet: what a row shows
  /// beside an edit that has not synced.
  ///
  /// <!-- compile: context OutboxView -->
  /// ```swift
  /// switch item.status {
  /// case .ready, .sending: Text("Syncing…")
  /// case .waitingForNetwork: Text("Waiting for the network")
  /// case .backingOff(let attempt, let nextTry):
  ///   Text("Attempt \(attempt) failed, trying again \(nextTry, style: .relative)")
  /// case .waitingBehind: Text("Waiting for an earlier change")
  /// case .waitingToSave: Text("Not saved yet")
  /// case .waitingForHandler: Text("This version of the app cannot send it")
  /// case .failed(let reason): Text("Failed: \(reason)")
  /// }
  /// ```
  ///
  /// When several reasons hold, the first of this list is shown: failed, sending, backing off,
  /// waiting to save, waiting for a handler, waiting behind an earlier edit, waiting for the
  /// network, ready. So an edit behind another one shows ``waitingBehind(_:)`` while
  /// offline: the edit it names shows ``waitingForNetwork``.
  ///
  /// An edit counts in ``Outbox/pendingCount`` (and keeps ``Outbox/untilIdle()`` waiting)
  /// when the outbox sends it on its own: every status but ``failed(_:)``,
  /// ``waitingForHandler``, and ``waitingBehind(_:)`` an edit that waits for its handler.
  /// Those are *stuck*: nothing happens to them until the app acts (registers the type,
  /// retries, discards); ``Outbox/stuckCount`` counts them.
  public enum Status: Equatable, Sendable {
    /// First in its scope with nothing holding it up: its send starts at once.
    case ready
    /// Its handler runs now.
    case sending
    /// First in its scope, waiting for the store's ``LoaderStore/connectivity`` to say
    /// online. Waiting spends no attempt.
    case waitingForNetwork
    /// Send `attempt` (``OutboxItem/attempt``, from 1 in each launch) failed with a transient
    /// error (``OutboxItem/lastError``); the next send starts at `nextTry`, after the
    /// handler's backoff.
    ///
    /// `nextTry` is read on the store's clock, as ``SharedEntry/fetchedAt`` is: the store's
    /// `startDate` plus the clock's time, so with a `ManualClock` it comes when the test
    /// advances the clock that far.
    case backingOff(attempt: Int, nextTry: Date)
    /// Another edit of its scope goes first: the one named, which its scope's lane sends or
    /// waits on (its own status says what for). Edits of one scope are sent in order.
    case waitingBehind(OutboxItem.ID)
    /// Its record could not be written (a full disk) `attempt` times; it is written again at
    /// `nextTry` (on the store's clock, after the handler's backoff) and sent only once
    /// written. See ``OutboxIssue/Kind-swift.enum/notSaved``.
    case waitingToSave(attempt: Int, nextTry: Date)
    /// No handler is registered for its type (restored, or enqueued before
    /// ``LoaderStore/register(_:backoff:handler:)``): it stays, and holds up later edits of its
    /// scope (they show ``waitingBehind(_:)`` naming it), until its type is registered or it
    /// is discarded. Reported in ``Outbox/issues`` (``OutboxIssue/Kind-swift.enum/noHandler``)
    /// once the code that made the store or enqueued it has yielded the main actor without
    /// registering its type, whether or not other edits wait behind it; it is never dropped.
    case waitingForHandler
    /// Failed for good (or cannot be read back): its change is rolled back, and it waits for
    /// ``Outbox/retry(_:)`` or ``Outbox/discard(_:)``. The reason describes the error;
    /// ``OutboxItem/failure`` holds it, by type.
    case failed(String)

    /// Whether the edit failed for good: ``failed(_:)``.
    ///
    /// ```swift
    /// let failed = store.outbox.items.filter(\.status.isFailed)
    /// ```
    public var isFailed: Bool {
      if case .failed = self { return true }
      return false
    }
  }
}

/// Something the outbox could not do as it should, reported in ``Outbox/issues``; the edit
/// it names is never dropped because of it.
///
/// <!-- compile: context Outbox -->
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
    /// No handler is registered for an edit's type: it waits (with any later edit of its
    /// scope) until its type is registered. Reported once per edit, whether or not another
    /// edit waits behind it.
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

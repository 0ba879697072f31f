/// An edit the app may have to send later: a `Codable` value that the ``LoaderStore`` writes
/// to disk before sending it, sends in order within its ``scope`` with a handler registered
/// for its type, and whose optimistic change it shows until the edit commits.
///
/// Because the edit is a value and not a closure, it survives a relaunch: the store restores
/// it, lays its change over the restored values again once its type is registered, and sends
/// it.
///
/// ```swift
/// struct RenamePost: OutboxEdit {
///   static let name = "RenamePost"  // stable: it names the saved records
///   let id: Post.ID
///   let title: String
///
///   var scope: LoadKey { ["posts", id] }
///   var invalidates: [LoadKey] { [["posts", id]] }
///
///   func applyOptimistically(to edit: inout SharedEdit, in store: LoaderStore) {
///     edit.update(matching: ["posts", id], in: store, as: Post.self) { $0.title = title }
///   }
/// }
///
/// store.register(RenamePost.self) { edit, context in
///   try await api.rename(edit.id, to: edit.title, idempotencyKey: context.idempotencyKey)
/// }
/// store.edit(RenamePost(id: post.id, title: "New title"))
/// ```
///
/// > Important: ``name`` is saved with every queued edit and finds its handler after a
/// > relaunch: keep it the same across app versions. Renaming the Swift type is safe;
/// > changing ``name`` leaves the edits saved under the old one waiting for a handler.
/// > Changing the type's coding shape breaks the decoding of queued edits, which then show
/// > as failed (never dropped): keep old fields decodable.
public protocol OutboxEdit: Codable, Sendable {
  /// The stable name saved with each queued edit of this type, used to find its handler when
  /// the edit is restored. Required (no default from the type's name), so that renaming the
  /// type never orphans queued edits.
  static var name: String { get }

  /// The edits of one scope are sent one at a time, in the order they were enqueued; edits
  /// of different scopes are sent in parallel. Usually the key of what the edit changes,
  /// such as `["posts", id]`.
  var scope: LoadKey { get }

  /// Prefixes invalidated once the edit commits, so observed entries refresh the server's
  /// truth. Empty by default.
  var invalidates: [LoadKey] { get }

  /// Writes the edit's optimistic change with `edit`'s `set` and `update`, as in
  /// ``LoaderStore/edit(invalidating:_:perform:)``. Does nothing by default.
  ///
  /// Called when the edit is enqueued, when it is restored after a relaunch (once its type is
  /// registered), when ``Outbox/retry(_:)`` queues it again, and for each entry made while
  /// the edit waits (with `edit` then writing that entry only). So write entries through
  /// ``SharedEdit/update(matching:in:as:_:)``, or ``LoaderStore/existingLoader(for:as:)``,
  /// rather than making entries here. An `update` of an entry that has no value yet is kept
  /// and runs over the value the entry loads; a load in flight (a first load, or one waiting
  /// for the network) goes on.
  ///
  /// Write the change so that running it over a value that already carries it changes
  /// nothing: *set* the title, *add the id if it is missing*, rather than *add one to the
  /// count*. A server applies an edit before it answers, so a fetch that runs in between
  /// already carries the edit, and the committed change is still laid over that value
  /// until a fetch that started after the commit lands: a change that is not idempotent
  /// would show it twice until then.
  ///
  /// - Parameters:
  ///   - edit: The optimistic writes of this edit.
  ///   - store: The store whose entries to change.
  @MainActor func applyOptimistically(to edit: inout SharedEdit, in store: LoaderStore)
}

extension OutboxEdit {
  /// No prefix to invalidate.
  public var invalidates: [LoadKey] { [] }

  /// No optimistic change.
  ///
  /// - Parameters:
  ///   - edit: The optimistic writes of this edit (left untouched).
  ///   - store: The store.
  @MainActor public func applyOptimistically(to edit: inout SharedEdit, in store: LoaderStore) {}
}

/// What a handler learns about the send it is asked to make.
///
/// <!-- compile: context Outbox -->
/// ```swift
/// store.register(RenamePost.self) { edit, context in
///   try await api.rename(edit.id, to: edit.title, idempotencyKey: context.idempotencyKey)
/// }
/// ```
public struct OutboxContext: Sendable {
  /// A key made when the edit was enqueued and saved with it: the same for every attempt and
  /// after a relaunch, so a server that applies each key once applies a send repeated after
  /// a crash once. A new key is made only when ``Outbox/retry(_:)`` queues a failed edit
  /// again (the failed send had no effect).
  public let idempotencyKey: String
  /// The attempt in this launch, from 1.
  public let attempt: Int
  /// The id of the edit in ``Outbox/items``.
  public let id: OutboxItem.ID
}

/// The error a handler throws to say a send failed for good: the server refused the edit,
/// and sending it again would not help.
///
/// Any other error is taken as transient (no network, a timeout, a server error) and the
/// send is tried again after a backoff, for as long as it takes. A permanent failure rolls
/// the optimistic change back and leaves the edit in the outbox, failed, until the app
/// calls ``Outbox/retry(_:)`` or ``Outbox/discard(_:)``.
///
/// <!-- compile: context Outbox -->
/// ```swift
/// store.register(RenamePost.self) { edit, context in
///   do {
///     try await api.rename(edit.id, to: edit.title, idempotencyKey: context.idempotencyKey)
///   } catch let error as APIError where error.status == 422 {
///     throw OutboxFailure.permanent(error)
///   }
/// }
/// ```
public enum OutboxFailure: Error, CustomStringConvertible {
  /// The send failed for good, for the reason in the underlying error.
  case permanent(any Error)

  /// Describes the underlying error.
  public var description: String {
    switch self {
    case .permanent(let error): "permanent failure: \(error)"
    }
  }
}

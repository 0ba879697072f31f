// The outbox's entry points on the store: registering a handler per edit type, and
// enqueueing edits. The outbox itself is `Outbox/Outbox.swift`.

extension LoaderStore {
  /// Registers the code that sends edits of type `Edit`, and starts sending the queued
  /// edits of that type (those restored after a relaunch among them).
  ///
  /// The handler makes the change real, usually with one request. Pass
  /// ``OutboxContext/idempotencyKey`` to the server: a send repeated after a crash then has
  /// one effect. Throw ``OutboxFailure/permanent(_:)`` when sending again cannot help (the
  /// server refused the edit); any other error is retried after `backoff`, on the store's
  /// clock, for as long as it takes.
  ///
  /// <!-- compile: context Outbox -->
  /// ```swift
  /// store.register(RenamePost.self) { edit, context in
  ///   try await api.rename(edit.id, to: edit.title, idempotencyKey: context.idempotencyKey)
  /// }
  /// ```
  ///
  /// Register each type right after making the store: the optimistic changes of edits
  /// restored after a relaunch are laid over the entries once their type is registered.
  /// Registering a type again replaces its handler.
  ///
  /// - Parameters:
  ///   - type: The edit type.
  ///   - backoff: The wait before each resend after a transient failure; exponential from
  ///     one second up to a minute, with full jitter, by default.
  ///   - handler: Sends one edit; returns once the server has applied it.
  ///
  /// > Important: Two edit types with the same ``OutboxEdit/name`` stop the program with a
  /// > message naming both: the name is how a saved edit finds its handler.
  public func register<Edit: OutboxEdit>(
    _ type: Edit.Type,
    backoff: Backoff = .exponential(initial: .seconds(1), maxDelay: .seconds(60)),
    handler: @escaping @MainActor (Edit, OutboxContext) async throws -> Void
  ) {
    outbox.register(type, backoff: backoff, handler: handler)
  }

  /// Makes an edit: shows its optimistic change at once, saves it, and sends it when its turn
  /// in its ``OutboxEdit/scope`` comes and the network is there. Returns a ``EditTicket``
  /// the caller may await for the outcome.
  ///
  /// <!-- compile: context OutboxView -->
  /// ```swift
  /// Button("Rename") {
  ///   store.edit(RenamePost(id: post.id, title: title))
  /// }
  /// ```
  ///
  /// Or follow it in a process: running, then finished or failed.
  ///
  /// <!-- compile: context Outbox -->
  /// ```swift
  /// await $saving.run {
  ///   try await store.edit(RenamePost(id: post.id, title: title)).wait()
  /// }
  /// ```
  ///
  /// The change follows the rules of ``edit(invalidating:_:perform:)``: it is laid over each
  /// entry's fetched value, so a refresh, invalidation or poll never hides it while the edit
  /// waits; it is committed when the edit is sent, and rolled back exactly when the edit
  /// fails for good or is discarded. It is laid over entries made while the edit waits too.
  ///
  /// With a ``persistence`` (and ``EditDelivery/durable``, the default), the edit is written
  /// and flushed to storage before this returns, so it survives the app being killed at once.
  /// When the write fails (a full disk) the edit stays in memory and on screen, is reported
  /// in ``Outbox/issues``, and is written again, with backoff, before it is sent: it is never
  /// sent unsaved, so a crash can never leave an edit the server applied but the app forgot.
  /// The write runs on the main actor (one small file, written to a temporary file, flushed
  /// and renamed): durability before this returns is the point.
  ///
  /// With ``EditDelivery/now`` the edit is sent once, in its turn, and never saved: any error
  /// or no network rolls it back (``EditOutcome/rolledBack(_:)``).
  ///
  /// - Parameters:
  ///   - edit: The edit.
  ///   - delivery: Whether the edit is kept until sent (``EditDelivery/durable``, the
  ///     default) or sent now only (``EditDelivery/now``).
  /// - Returns: The edit's id in ``Outbox/items`` and its awaitable outcome.
  @discardableResult
  public func edit<Edit: OutboxEdit>(
    _ edit: Edit, delivery: EditDelivery = .durable
  ) -> EditTicket {
    outbox.enqueue(edit, delivery: delivery)
  }
}

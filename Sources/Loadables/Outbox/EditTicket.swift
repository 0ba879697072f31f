/// An edit handed to ``LoaderStore/edit(_:delivery:)``: its id in the outbox, and its
/// outcome, which the caller may await.
///
/// Await it where the app wants to follow the edit, as a `@Process` does: the process runs
/// until the edit commits, and fails when it fails for good.
///
/// <!-- compile: context OutboxMembers -->
/// ```swift
/// @Loadables.Process var saving: SingleProcessState
///
/// func rename(to title: String) async {
///   await $saving.run {
///     try await store.edit(RenamePost(id: post.id, title: title)).wait()
///   }
/// }
/// ```
///
/// To show "waiting to sync" rather than a spinner while offline, wait only until the edit is
/// durably queued: the process finishes once the edit is saved, and the outbox sends it
/// (``Outbox/items`` says where it is):
///
/// <!-- compile: context Outbox -->
/// ```swift
/// await $saving.run {
///   try await store.edit(RenamePost(id: post.id, title: title)).wait(until: .queued)
/// }
/// ```
///
/// Ignoring it is fine: the edit goes its way whether or not anyone awaits it, and nothing
/// is kept for a caller that never asks. An edit restored after a relaunch has no
/// `EditTicket`; follow it through ``Outbox/items``.
public struct EditTicket: Sendable, Identifiable {
  /// The edit's ``OutboxItem/id`` in ``Outbox/items`` (for ``Outbox/retry(_:)`` and
  /// ``Outbox/discard(_:)``).
  public let id: OutboxItem.ID
  let box: EditOutcomeBox

  /// How far an awaiting caller waits.
  public enum Stage: Sendable, Equatable {
    /// Until the edit is durably queued (saved with the store's persistence, or at once
    /// without one), or ends before that: a screen then shows "waiting to sync" from
    /// ``Outbox/items`` instead of a spinner. An edit sent with ``EditDelivery/now`` is never
    /// queued durably: its caller waits until it ends.
    case queued
    /// Until the edit ends: committed, rolled back, failed for good or discarded.
    case ended
  }

  /// Waits until the edit reaches `stage` and returns its outcome.
  ///
  /// <!-- compile: context Outbox -->
  /// ```swift
  /// let outcome = await store.edit(RenamePost(id: 1, title: "New")).outcome()
  /// ```
  ///
  /// Returns ``EditOutcome/unfinished`` at once when the calling task is cancelled (the edit
  /// goes on), and when the store goes away first. Each caller may wait; the outcome is the
  /// edit's first end (a failed edit retried later is not followed).
  ///
  /// - Parameter stage: How far to wait; until the edit ends by default.
  /// - Returns: The outcome: ``EditOutcome/queued`` when waiting until
  ///   ``Stage/queued`` and the edit got there first, else how it ended.
  public func outcome(until stage: Stage = .ended) async -> EditOutcome {
    await box.wait(until: stage)
  }

  /// Waits as ``outcome(until:)`` does, and throws unless the edit committed (or, with
  /// ``Stage/queued``, was durably queued): made for a `@Process` run, which then shows
  /// running, then finished or failed.
  ///
  /// <!-- compile: context Outbox -->
  /// ```swift
  /// await $saving.run { try await store.edit(rename).wait() }
  /// ```
  ///
  /// - Parameter stage: How far to wait; until the edit ends by default.
  /// - Throws: The edit's error when it failed for good or was rolled back: the handler's own
  ///   (match it by type), or, when the other process over a shared folder sent the edit, an
  ///   ``EditFailure`` naming its type; ``EditNotCommitted`` when it was discarded or the
  ///   store went away; `CancellationError` when the calling task is cancelled.
  public func wait(until stage: Stage = .ended) async throws {
    let outcome = await box.wait(until: stage)
    switch outcome {
    case .queued, .committed: return
    case .rolledBack(let error), .failed(let error): throw error
    case .unfinished where Task.isCancelled: throw CancellationError()
    case .discarded, .unfinished: throw EditNotCommitted(outcome: outcome)
    }
  }
}

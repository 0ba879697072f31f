// Outbox spellings of 0.3 folded into `LoaderStore.edit(_:delivery:)` and the typed
// `OutboxItem` in 0.4.

extension LoaderStore {
  /// Queues `edit` to be sent, and returns its id in ``Outbox/items``.
  ///
  /// - Parameter edit: The edit.
  /// - Returns: The edit's id.
  @available(
    *, deprecated,
    message: "use edit(_:), which returns a EditTicket to await; its id is EditTicket.id"
  )
  @discardableResult
  public func enqueue<Edit: OutboxEdit>(_ edit: Edit) -> OutboxItem.ID {
    outbox.enqueue(edit, delivery: .durable).id
  }
}

extension OutboxItem {
  /// A description of the edit's scope.
  @available(*, deprecated, message: "use scopeKey, the scope as a LoadKey")
  public var scope: String { scopeKey.map { "\($0)" } ?? scopeText }
}

/// Why an edit of the outbox failed for good: the error's type and description, kept with the
/// edit's saved record, and the error itself in the process whose handler threw it.
///
/// A handler refuses an edit by throwing ``OutboxFailure/permanent(_:)``; the edit stays,
/// failed, with this as its ``OutboxItem/failure``. In the process that sent it, ``error`` is
/// the handler's error, to match by type; after a relaunch (or when the other process over a
/// shared folder sent it) that value is gone, and ``typeName`` still tells which type it was:
///
/// <!-- compile: context OutboxView -->
/// ```swift
/// if let failure = item.failure {
///   if let refusal = failure.error as? APIError {
///     Text("Refused: \(refusal.status)")
///   } else if failure.hasType(APIError.self) {
///     Text("Refused by the server: \(failure.reason)")
///   } else {
///     Text("Failed: \(failure.reason)")
///   }
/// }
/// ```
///
/// An ``EditTicket`` of an edit that failed for good throws the handler's error itself when
/// this process sent it, and this failure when the other process over a shared folder did.
public struct EditFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// The error's type, as `String(reflecting:)` spells it (`"MyApp.APIError"`); empty when
  /// unknown (a record saved by a version of the library that did not keep it).
  public let typeName: String
  /// The error's description: the reason ``OutboxItem/Status-swift.enum/failed(_:)`` shows.
  public let reason: String
  /// The error the handler threw, in the process that sent the edit; `nil` once it is only
  /// read back from the saved record (after a relaunch, or sent by another process).
  public let error: (any Error)?

  /// The failure of `error`, as the handler threw it.
  init(_ error: any Error, reason: String? = nil) {
    typeName = String(reflecting: type(of: error))
    self.reason = reason ?? "\(error)"
    self.error = error
  }

  /// A failure read back from a saved record: its type name and reason, no error value.
  init(typeName: String, reason: String) {
    self.typeName = typeName
    self.reason = reason
    error = nil
  }

  /// Whether the error was of type `type`, live or read back (by its type name).
  ///
  /// <!-- compile: context Outbox -->
  /// ```swift
  /// let refused = store.outbox.items.filter { $0.failure?.hasType(APIError.self) == true }
  /// ```
  ///
  /// - Parameter type: The error type to compare with.
  /// - Returns: Whether ``typeName`` names `type`.
  public func hasType<E: Error>(_ type: E.Type) -> Bool {
    if let error { return error is E }
    return typeName == String(reflecting: type)
  }

  /// The reason.
  public var description: String { reason }

  /// Whether two failures name the same type and reason (the error values are not compared).
  ///
  /// - Parameters:
  ///   - lhs: A failure.
  ///   - rhs: Another failure.
  /// - Returns: Whether they are equal.
  public static func == (lhs: EditFailure, rhs: EditFailure) -> Bool {
    lhs.typeName == rhs.typeName && lhs.reason == rhs.reason
  }
}

import Foundation

/// Why a persistence backend could not do what it was asked.
///
/// No error is a crash: the store reports it as an event and keeps the entry in memory.
///
/// <!-- compile: context Persistence -->
/// ```swift
/// do {
///   try backend.write(record, rules: rules)
/// } catch .unwritableDirectory(let path, _) {
///   print("keeping \(path) in memory only")
/// } catch {
///   print(error)
/// }
/// ```
public enum PersistenceError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A key part cannot be encoded stably (see ``PersistentKey``).
  case unencodableKey(key: String, reason: String)

  /// The directory cannot be created or written to (read-only, no permission, or a file
  /// stands in its path).
  case unwritableDirectory(path: String, errno: Int32)

  /// An input-output call failed: `ENOSPC` when the disk is full, `EIO` for a failing device.
  case io(operation: String, path: String, errno: Int32)

  /// Whether the disk (or the user's quota) is full.
  public var isDiskFull: Bool {
    guard case .io(_, _, let code) = self else { return false }
    return code == ENOSPC || code == EDQUOT
  }

  /// A sentence naming what failed, where and why.
  public var description: String {
    switch self {
    case .unencodableKey(let key, let reason):
      "cannot persist key \(key): \(reason)"
    case .unwritableDirectory(let path, let code):
      "cannot write to directory \(path): \(String(cString: strerror(code))) (errno \(code))"
    case .io(let operation, let path, let code):
      "\(operation) failed for \(path): \(String(cString: strerror(code))) (errno \(code))"
    }
  }
}

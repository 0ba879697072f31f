/// Throw from a load's block to cancel the load, as `cancel()` does: the state the load
/// replaced comes back.
///
/// <!-- compile: context Model -->
/// ```swift
/// $numbers.load {
///   guard isSignedIn else { throw CancelLoadable() }
///   return try await api.numbers()
/// }
/// ```
public struct CancelLoadable: Error, Sendable, Hashable {
  /// Creates the error.
  public init() {}
}

/// Throw from a load's block to reset the state to `.absent` and end the load.
public struct ResetLoadable: Error, Sendable, Hashable {
  /// Creates the error.
  public init() {}
}

/// Throw from a process's block to cancel the process, as `cancel()` does: the state the
/// job replaced comes back.
public struct CancelProcess: Error, Sendable, Hashable {
  /// Creates the error.
  public init() {}
}

/// Throw from a process's block to reset the state to `.idle` and end the process.
public struct ResetProcess: Error, Sendable, Hashable {
  /// Creates the error.
  public init() {}
}

/// The error of a load or process that took longer than allowed.
///
/// Throw it from an `onInterrupt` handler to end a load with `.error(TimeoutError())`:
///
/// ```swift
/// $numbers.load(interrupts: [.seconds(10)]) {
///   try await api.numbers()
/// } onInterrupt: { _ in
///   throw TimeoutError()
/// }
/// ```
public struct TimeoutError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Creates the error.
  public init() {}

  /// `timed out: the work took longer than allowed`.
  public var description: String { "timed out: the work took longer than allowed" }
}

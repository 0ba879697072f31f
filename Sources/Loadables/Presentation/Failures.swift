/// The failure a ``LoadableState`` holds: its error, comparable across renders.
///
/// Views compare failures to act once when a state *turns* to an error rather than on every
/// render: ``LoadableState/failure`` gives one, and ``FailureTransition`` decides whether a
/// change between two of them is a new failure. Two failures are equal when their errors
/// are, by the rule of ``LoadableState``'s equality: same type and, for an `Equatable` type,
/// equal values.
///
/// <!-- compile: context Failures -->
/// ```swift
/// let before = LoadableState<[Int]>.loading.failure  // nil
/// let after = LoadableState<[Int]>.error(APIError.offline).failure
/// FailureTransition.newFailure(from: before, to: after)  // after: the state turned to an error
/// ```
public struct LoadableFailure: Equatable, Sendable {
  /// The error the load failed with.
  public let error: any Error

  /// Creates a failure for an error.
  ///
  /// - Parameter error: The error the load failed with.
  public init(_ error: any Error) {
    self.error = error
  }

  /// Whether two failures hold equal errors: the same type and, when it is `Equatable`, equal
  /// values.
  ///
  /// - Parameters:
  ///   - lhs: A failure.
  ///   - rhs: Another failure.
  /// - Returns: `true` when the errors are equal.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    errorsAreEqual(lhs.error, rhs.error)
  }
}

/// The failure a ``ProcessState`` holds: which job failed and its error, comparable across
/// renders.
///
/// Two failures are equal when they name the same job and their errors are equal (same type
/// and, for an `Equatable` type, equal values). A failure of another job is a new failure.
///
/// <!-- compile: context Failures -->
/// ```swift
/// let failure = ProcessState<Action>.failed(process: .save, error: APIError.offline).failure
/// failure?.process  // .save
/// ```
public struct ProcessFailure<ProcessKind: Equatable>: Equatable {
  /// The job that failed.
  public let process: ProcessKind

  /// The error it failed with.
  public let error: any Error

  /// Creates a failure of a job.
  ///
  /// - Parameters:
  ///   - process: The job that failed.
  ///   - error: The error it failed with.
  public init(process: ProcessKind, error: any Error) {
    self.process = process
    self.error = error
  }

  /// Whether two failures name the same job and hold equal errors.
  ///
  /// - Parameters:
  ///   - lhs: A failure.
  ///   - rhs: Another failure.
  /// - Returns: `true` when the jobs and the errors are equal.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.process == rhs.process && errorsAreEqual(lhs.error, rhs.error)
  }
}

extension ProcessFailure: Sendable where ProcessKind: Sendable {}

extension LoadableState {
  /// The failure this state holds: a ``LoadableFailure`` for ``error(_:)``, `nil` otherwise.
  ///
  /// Unlike ``error``, the result is `Equatable`, so a view can watch it for changes without
  /// the value type being `Equatable`.
  public var failure: LoadableFailure? {
    if case .error(let error) = self { return LoadableFailure(error) }
    return nil
  }
}

extension ProcessState where ProcessKind: Equatable {
  /// The failure this state holds: a ``ProcessFailure`` for
  /// ``failed(process:error:)``, `nil` otherwise.
  public var failure: ProcessFailure<ProcessKind>? {
    if case .failed(let process, let error) = self {
      return ProcessFailure(process: process, error: error)
    }
    return nil
  }
}

/// Decides when a watched state has *turned* to an error.
///
/// This is the decision behind the `onLoadableError` and `onProcessFailed` view modifiers,
/// kept out of the views so it is tested without SwiftUI. A state turns to an error when it
/// holds a failure that differs from the failure it held before: from no failure (absent,
/// loading, loaded, idle, running, finished) to a failure, or from one failure to a different
/// one (another error, or another job). Staying on an equal failure is not a new failure, so
/// re-rendering a view that shows an error does not report it again.
///
/// <!-- compile: context Failures -->
/// ```swift
/// FailureTransition.newFailure(from: nil, to: failure)      // failure
/// FailureTransition.newFailure(from: failure, to: failure)  // nil: nothing changed
/// FailureTransition.newFailure(from: failure, to: nil)      // nil: recovered
/// ```
///
/// > Important: A view sees the state once per render. A load that fails again with an equal
/// > error before the view renders its `.loading` state (or a silent reload, which never
/// > writes `.loading`) leaves an equal failure in place, and no new failure is reported.
public enum FailureTransition {
  /// The failure to report for a change of a watched state, or `nil` when there is none.
  ///
  /// - Parameters:
  ///   - old: The failure the state held before, or `nil`.
  ///   - new: The failure it holds now, or `nil`.
  /// - Returns: `new` when it is a failure that differs from `old`, otherwise `nil`.
  public static func newFailure<Failure: Equatable>(from old: Failure?, to new: Failure?)
    -> Failure?
  {
    guard let new, old != new else { return nil }
    return new
  }
}

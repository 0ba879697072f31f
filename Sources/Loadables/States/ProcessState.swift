/// The phase of a job that runs asynchronously: idle, running, failed or finished.
///
/// Use a `ProcessState` for work that produces no value to show (saving, deleting, sending),
/// or for the *phase* of a request whose data lives elsewhere, such as in a store. The
/// `ProcessKind` tells which of several jobs sharing one state is meant; use
/// ``SingleProcess`` (``SingleProcessState``) when there is only one.
///
/// <!-- compile: context ModelTypes -->
/// ```swift
/// enum Action: Equatable, Sendable { case save, delete }
///
/// @MainActor @Observable final class EditorModel {
///   @ObservationIgnored @Loadables.Process var action: ProcessState<Action>
///
///   func save() { $action.run(.save) { try await api.save() } }
/// }
/// ```
///
/// and in the view:
///
/// <!-- compile: context ModelView -->
/// ```swift
/// if model.action.isRunning(.save) { ProgressView() }
/// ```
public enum ProcessState<ProcessKind> {
  /// No job has run yet, or the state was reset.
  case idle

  /// The given job is running.
  case running(ProcessKind)

  /// The given job failed with an error.
  case failed(process: ProcessKind, error: any Error)

  /// The given job finished successfully.
  case finished(ProcessKind)

  /// Creates a state with the given initial value.
  ///
  /// - Parameter initialState: The state to start from.
  public init(initialState: ProcessState) {
    self = initialState
  }
}

/// The state of a job that has one kind only.
public typealias SingleProcessState = ProcessState<SingleProcess>

// MARK: - Transitions that act only while running

extension ProcessState {
  /// Sets the state to ``running(_:)`` with the given job.
  ///
  /// - Parameter process: The job that starts.
  public mutating func start(_ process: ProcessKind) { self = .running(process) }

  /// Turns a running job into ``finished(_:)``; does nothing unless the state is
  /// ``running(_:)``.
  public mutating func finish() {
    guard case .running(let process) = self else { return }
    self = .finished(process)
  }

  /// Turns a running job into ``failed(process:error:)``; does nothing unless the state is
  /// ``running(_:)``.
  ///
  /// - Parameter error: The error the job failed with.
  public mutating func fail(with error: any Error) {
    guard case .running(let process) = self else { return }
    self = .failed(process: process, error: error)
  }

  /// Sets the state to ``idle``.
  public mutating func reset() { self = .idle }
}

// MARK: - Setters

extension ProcessState {
  /// Sets the state to ``idle``.
  public mutating func setIdle() { self = .idle }

  /// Sets the state to ``running(_:)``.
  ///
  /// - Parameter process: The job that is running.
  public mutating func setRunning(_ process: ProcessKind) { self = .running(process) }

  /// Sets the state to ``failed(process:error:)``.
  ///
  /// - Parameters:
  ///   - process: The job that failed.
  ///   - error: The error it failed with.
  public mutating func setFailed(_ process: ProcessKind, error: any Error) {
    self = .failed(process: process, error: error)
  }

  /// Sets the state to ``finished(_:)``.
  ///
  /// - Parameter process: The job that finished.
  public mutating func setFinished(_ process: ProcessKind) { self = .finished(process) }
}

extension ProcessState where ProcessKind == SingleProcess {
  /// Creates a state with the given initial value.
  ///
  /// - Parameter initialState: The state to start from.
  public init(initialState: SingleProcessState) {
    self = initialState
  }

  /// Sets the state to ``running(_:)`` with a new ``SingleProcess``.
  public mutating func start() { self = .running(SingleProcess()) }

  /// Sets the state to ``running(_:)`` with a new ``SingleProcess``.
  public mutating func setRunning() { self = .running(SingleProcess()) }

  /// Sets the state to ``failed(process:error:)`` with a new ``SingleProcess``.
  ///
  /// - Parameter error: The error the job failed with.
  public mutating func setFailed(with error: any Error) {
    self = .failed(process: SingleProcess(), error: error)
  }

  /// Sets the state to ``finished(_:)`` with a new ``SingleProcess``.
  public mutating func setFinished() { self = .finished(SingleProcess()) }
}

// MARK: - Queries

extension ProcessState {
  /// Whether the state is ``idle``.
  public var isIdle: Bool {
    if case .idle = self { return true }
    return false
  }

  /// Whether the state is ``running(_:)``, whatever the job.
  public var isRunning: Bool {
    if case .running = self { return true }
    return false
  }

  /// Whether the state is ``failed(process:error:)``, whatever the job.
  public var hasFailed: Bool {
    if case .failed = self { return true }
    return false
  }

  /// Whether the state is ``finished(_:)``, whatever the job.
  public var hasFinished: Bool {
    if case .finished = self { return true }
    return false
  }

  /// The job of a running, failed or finished state; `nil` when idle.
  public var process: ProcessKind? {
    switch self {
    case .idle: nil
    case .running(let process), .finished(let process), .failed(let process, _): process
    }
  }

  /// The error of a failed state, otherwise `nil`.
  public var error: (any Error)? {
    if case .failed(_, let error) = self { return error }
    return nil
  }
}

extension ProcessState where ProcessKind: Equatable {
  /// Whether the given job is running.
  ///
  /// - Parameter process: The job to look for.
  /// - Returns: `true` when the state is `.running(process)`.
  public func isRunning(_ process: ProcessKind) -> Bool {
    if case .running(let running) = self { return running == process }
    return false
  }

  /// Whether the given job has failed.
  ///
  /// - Parameter process: The job to look for.
  /// - Returns: `true` when the state is `.failed(process: process, error: _)`.
  public func hasFailed(_ process: ProcessKind) -> Bool {
    if case .failed(let failed, _) = self { return failed == process }
    return false
  }

  /// Whether the given job has finished.
  ///
  /// - Parameter process: The job to look for.
  /// - Returns: `true` when the state is `.finished(process)`.
  public func hasFinished(_ process: ProcessKind) -> Bool {
    if case .finished(let finished) = self { return finished == process }
    return false
  }
}

// MARK: - Conformances

extension ProcessState: Sendable where ProcessKind: Sendable {}

extension ProcessState: Equatable where ProcessKind: Equatable {
  /// Whether two states are equal.
  ///
  /// Failed states are equal only when their jobs are equal and their errors have the same
  /// type and, if that type is `Equatable`, compare equal.
  // Inlinable for the reason given at `LoadableState`'s `==`: an `@Observable` setter calls
  // it on every write.
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.idle, .idle): true
    case (.running(let l), .running(let r)), (.finished(let l), .finished(let r)): l == r
    case (.failed(let l, let le), .failed(let r, let re)): l == r && errorsAreEqual(le, re)
    default: false
    }
  }
}

extension ProcessState: Hashable where ProcessKind: Hashable {
  /// Hashes the case, the job, and a failure's error type (and value, when it is hashable).
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .idle: hasher.combine(0)
    case .running(let process):
      hasher.combine(1)
      hasher.combine(process)
    case .failed(let process, let error):
      hasher.combine(2)
      hasher.combine(process)
      hashError(error, into: &hasher)
    case .finished(let process):
      hasher.combine(3)
      hasher.combine(process)
    }
  }
}

extension ProcessState: CustomDebugStringConvertible {
  /// A description for logs and test failures: the case and the debug description of its
  /// payload, such as `running(MyApp.Action.save)`.
  public var debugDescription: String {
    switch self {
    case .idle: "idle"
    case .running(let process): "running(\(String(reflecting: process)))"
    case .failed(let process, let error):
      "failed(\(String(reflecting: process)), \(String(reflecting: error)))"
    case .finished(let process): "finished(\(String(reflecting: process)))"
    }
  }
}

public import Loadables

/// The phase of a ``Loadables/ProcessState`` without its job: what a test compares when the
/// job is a ``Loadables/SingleProcess``, whose UUID and date differ on every run.
///
/// Two `SingleProcessState` values from two runs never compare equal, so a test cannot
/// write the states it expects. It can write their phases:
///
/// <!-- compile: context ModelTests -->
/// ```swift
/// let recorder = StateRecorder(model.$saving)  // a SingleProcessState
/// model.save()
/// try await recorder.wait(until: \.hasFinished)
/// XCTAssertEqual(recorder.states.map(\.phase), [.idle, .running, .finished])
/// ```
///
/// `.failed` keeps the error and compares it as the states do: equal when both errors have
/// the same type and, if that type is `Equatable`, compare equal.
public enum ProcessPhase: Equatable, Sendable, CustomStringConvertible {
  /// ``Loadables/ProcessState/idle``.
  case idle
  /// ``Loadables/ProcessState/running(_:)``, whatever the job.
  case running
  /// ``Loadables/ProcessState/failed(process:error:)``, whatever the job.
  case failed(any Error)
  /// ``Loadables/ProcessState/finished(_:)``, whatever the job.
  case finished

  /// Whether two phases are the same; two failures compare their errors as
  /// ``Loadables/ProcessState`` does.
  public static func == (lhs: ProcessPhase, rhs: ProcessPhase) -> Bool {
    switch (lhs, rhs) {
    case (.idle, .idle), (.running, .running), (.finished, .finished): true
    case (.failed(let left), .failed(let right)):
      // The library's rule for errors, through a state whose job is always equal.
      ProcessState<Int>.failed(process: 0, error: left)
        == ProcessState<Int>.failed(process: 0, error: right)
    default: false
    }
  }

  /// `idle`, `running`, `failed(<error>)` or `finished`.
  public var description: String {
    switch self {
    case .idle: "idle"
    case .running: "running"
    case .failed(let error): "failed(\(String(reflecting: error)))"
    case .finished: "finished"
    }
  }
}

extension ProcessState {
  /// The state's phase without its job, for comparing states whose jobs differ on every run.
  ///
  /// <!-- compile: context ProcessRecorder -->
  /// ```swift
  /// XCTAssertEqual(recorder.states.map(\.phase), [.idle, .running, .failed(SaveError())])
  /// ```
  public var phase: ProcessPhase {
    switch self {
    case .idle: .idle
    case .running: .running
    case .failed(_, let error): .failed(error)
    case .finished: .finished
    }
  }
}

/// What a button that starts a job shows — its stage, its title, whether it can be tapped —
/// decided from the job's ``ProcessState`` without SwiftUI.
///
/// A save button driven by `@Process` makes the same decisions on every screen: it is
/// disabled while any job of that state runs (starting another would cancel it), it reads
/// "Saving…" while its own job runs, "Saved" once it finished, and offers to try again after a
/// failure. `ProcessButtonPresentation` makes them in one plain value; the view maps them to a
/// `Button`.
///
/// <!-- compile: context ViewMembers -->
/// ```swift
/// @Loadables.Process var action: ProcessState<BookAction>
///
/// var body: some View {
///   let save = ProcessButtonPresentation(
///     state: action, process: .save, isRunning: $action.isRunning, canRun: !draft.title.isEmpty)
///   Button(save.title(ready: "Save", running: "Saving…", succeeded: "Saved", failed: "Try Again")) {
///     $action.run(.save) { try await api.save(draft) }
///   }
///   .disabled(!save.isEnabled)
/// }
/// ```
///
/// | state (of this job) | not running | a job runs |
/// |---|---|---|
/// | `.idle`, or another job's state | ``Stage/ready``, enabled | ``Stage/ready``, disabled |
/// | `.running` | ``Stage/ready`` (the job was cancelled), enabled | ``Stage/running``, disabled |
/// | `.finished` | ``Stage/succeeded``, enabled | ``Stage/succeeded``, disabled |
/// | `.failed` | ``Stage/failed``, enabled | ``Stage/failed``, disabled |
///
/// "Enabled" also needs `canRun` (a valid form, say).
///
/// A job with ``LoadPolicy/waitsForNetwork(_:)-type.method`` that waits while offline stays
/// ``Stage/running``; pass the wrapper's `isWaitingForNetwork` and ``isWaitingForNetwork`` says
/// so, and ``title(ready:running:waiting:succeeded:failed:)`` can read "Waiting for the
/// network" instead of "Saving…".
public struct ProcessButtonPresentation: Equatable, Sendable {
  /// Where the button's job stands.
  public enum Stage: Equatable, Sendable {
    /// The job has not run, was cancelled, or another job ran last: offer to run it.
    case ready

    /// The job is running: show progress.
    case running

    /// The job finished.
    case succeeded

    /// The job failed: offer to run it again.
    case failed
  }

  /// Where the button's job stands.
  public let stage: Stage

  /// Whether the button can be tapped: the screen allows it (`canRun`) and no job of the state
  /// runs, so a tap never cancels a running job.
  public let isEnabled: Bool

  /// Whether to show progress beside (or in place of) the title: the job runs.
  public var showsProgress: Bool { stage == .running }

  /// Whether the button's running job waits for the network instead of failing while
  /// offline; `false` unless the stage is ``Stage/running``.
  public let isWaitingForNetwork: Bool

  /// Decides what a button for a job shows.
  ///
  /// - Parameters:
  ///   - state: The state of the jobs, such as a `@Process` property.
  ///   - process: The job the button starts; `nil` for any job of the state (a
  ///     ``SingleProcessState``, whose every run is a new ``SingleProcess``).
  ///   - isRunning: Whether a job is in flight, silent or not (the wrapper's `isRunning`).
  ///   - isWaitingForNetwork: Whether the running job waits for the network (the wrapper's
  ///     `isWaitingForNetwork`); ignored unless the button's own job runs.
  ///   - canRun: Whether the screen allows the job now, such as a valid form.
  public init<ProcessKind: Equatable>(
    state: ProcessState<ProcessKind>,
    process: ProcessKind? = nil,
    isRunning: Bool,
    isWaitingForNetwork: Bool = false,
    canRun: Bool = true
  ) {
    isEnabled = canRun && !isRunning
    let isThisJob = process.map { state.process == $0 } ?? true
    switch state {
    case .running where isThisJob && isRunning: stage = .running
    case .finished where isThisJob: stage = .succeeded
    case .failed where isThisJob: stage = .failed
    case .idle, .running, .finished, .failed: stage = .ready
    }
    self.isWaitingForNetwork = stage == .running && isWaitingForNetwork
  }

  /// The title for the button's stage.
  ///
  /// - Parameters:
  ///   - ready: The title that offers to run the job, such as "Save".
  ///   - running: The title while it runs, such as "Saving…".
  ///   - waiting: The title while it runs and waits for the network, such as "Waiting for the
  ///     network"; `running` when `nil`.
  ///   - succeeded: The title once it finished, such as "Saved"; `ready` when `nil`.
  ///   - failed: The title after a failure, such as "Try Again"; `ready` when `nil`.
  /// - Returns: The title to show.
  public func title(
    ready: String, running: String, waiting: String? = nil, succeeded: String? = nil,
    failed: String? = nil
  ) -> String {
    switch stage {
    case .ready: ready
    case .running: isWaitingForNetwork ? waiting ?? running : running
    case .succeeded: succeeded ?? ready
    case .failed: failed ?? ready
    }
  }
}

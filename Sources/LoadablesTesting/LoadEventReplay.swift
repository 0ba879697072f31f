@_spi(Testing) public import Loadables

/// One subject's recorded load events, read back as what a test needs to do the same again:
/// how each of its loads ended, what its fetch answered at each attempt, and the states a
/// screen showed on the way.
///
/// A developer sees something wrong in a log or the inspector; the events of that entry (or
/// property, or loader) become a script for a ``ScriptedFake`` and the states to expect:
///
/// <!-- compile: context EventRecorder -->
/// ```swift
/// let replay = LoadEventReplay(recorder.events)
/// print(replay.testSketch)
/// // A test of entry ["posts", 42], from 6 recorded events:
/// // let fetch = ScriptedFake<Void, <#Value#>>([
/// //   .error(<#an error the retry retries#>),  // load 1, attempt 1
/// //   .value(<#value#>),  // load 1, attempt 2: finished after 0.21 s
/// //   .hold,  // load 2: cancelled after 1.00 s
/// // ])
/// // Expected states: loading, value, loading, value
/// ```
///
/// Only load events count (``LoadEventKind/started`` and the kinds that end a load); the
/// others are skipped. A load whose end was not recorded yet is left out.
public struct LoadEventReplay: Sendable, Equatable, CustomStringConvertible {
  /// What one call of a load's fetch did.
  public enum Answer: Sendable, Equatable, CustomStringConvertible {
    /// It returned a value.
    case value
    /// It threw; the error as it was printed, or `nil` for an earlier attempt of a retried
    /// load (the events record only the error a load ended with).
    case error(String?)
    /// It never answered: the load was cancelled, reset or superseded while it ran.
    case none

    /// "value", "error: …", "none".
    public var description: String {
      switch self {
      case .value: "value"
      case .error(let text): "error: \(text ?? "an error the retry retried")"
      case .none: "none"
      }
    }
  }

  /// One load: whether it was silent, what its fetch answered at each attempt, and how it
  /// ended.
  public struct Load: Sendable, Equatable {
    /// Whether the load kept the state on screen instead of showing a spinner.
    public var isSilent: Bool
    /// The fetch's answer at each attempt, in order.
    public var answers: [Answer]
    /// How the load ended: one of the kinds for which ``LoadEventKind/endsLoad`` is `true`.
    public var end: LoadEventKind
    /// How long the load ran, when it was measured.
    public var duration: Duration?
  }

  /// A state a screen showed, named for every state type: ``loading`` is `.loading` of a
  /// `LoadableState` and `.running` of a `ProcessState`.
  public enum Step: String, Sendable, Equatable, CustomStringConvertible {
    /// The spinner: `.loading`, `.running`.
    case loading
    /// The outcome: `.loaded(value)`, `.finished`.
    case value
    /// A failure: `.error`, `.failed`.
    case failure
    /// The reset state: `.absent`, `.idle`.
    case reset
    /// Back to the state the load replaced: a cancelled load's spinner leaves.
    case previous

    /// The step's name.
    public var description: String { rawValue }
  }

  /// The subject of the events, when they were of one subject.
  public let subject: LoadSubject?
  /// The loads, in the order they started.
  public let loads: [Load]
  /// How many events were read.
  public let eventCount: Int

  /// Reads `events`: the recorded events of one subject, oldest first.
  ///
  /// - Parameter events: The events, as a ``LoadEventRecorder`` or a log kept them.
  public init(_ events: [LoadEvent]) {
    let subjects = Set(events.map(\.subject))
    subject = subjects.count == 1 ? subjects.first : nil
    eventCount = events.count
    var loads: [Load] = []
    var started: LoadEvent?
    for event in events {
      if event.kind == .started {
        started = event
        continue
      }
      guard event.kind.endsLoad, let start = started else { continue }
      started = nil
      let attempts = Swift.max(1, event.attempt ?? 1)
      var answers = Array(repeating: Answer.error(nil), count: attempts - 1)
      switch event.kind {
      case .finished: answers.append(.value)
      case .failed: answers.append(.error(event.error.map { "\($0)" }))
      default: answers.append(.none)
      }
      loads.append(
        Load(isSilent: start.isSilent, answers: answers, end: event.kind, duration: event.duration))
    }
    self.loads = loads
  }

  /// The states a screen showed, in order, as the engine writes them: a silent load shows
  /// no spinner, a load superseded by another leaves its spinner for the next one, and a
  /// cancelled load brings back what it replaced only when it showed a spinner — the step
  /// shown before that spinner, or ``Step/previous`` when the events do not say.
  public var steps: [Step] {
    var steps: [Step] = []
    var spinnerUp = false
    var beforeSpinner: Step?
    for load in loads {
      if !load.isSilent, !spinnerUp {
        beforeSpinner = steps.last
        steps.append(.loading)
        spinnerUp = true
      }
      switch load.end {
      case .finished:
        steps.append(.value)
        spinnerUp = false
      case .failed:
        steps.append(.failure)
        spinnerUp = false
      case .reset:
        steps.append(.reset)
        spinnerUp = false
      case .cancelled:
        if spinnerUp { steps.append(beforeSpinner ?? .previous) }
        spinnerUp = false
      default:
        // Superseded: the next load takes over what is on screen.
        break
      }
    }
    return steps
  }

  /// The script of a ``ScriptedFake`` that answers as the recorded fetches did, and the
  /// states to expect, as Swift source to paste into a test; the values and errors are
  /// placeholders to fill in.
  public var testSketch: String {
    var lines = [
      "// A test of \(subject.map(\.description) ?? "these events"), from \(eventCount) recorded events:",
      "let fetch = ScriptedFake<Void, <#Value#>>([",
    ]
    for (index, load) in loads.enumerated() {
      for (attempt, answer) in load.answers.enumerated() {
        let isLast = attempt == load.answers.count - 1
        var comment = "load \(index + 1)"
        if load.answers.count > 1 { comment += ", attempt \(attempt + 1)" }
        if isLast {
          comment += ": \(load.end)"
          if let duration = load.duration { comment += " after \(LoadEvent.seconds(duration))" }
          if load.isSilent { comment += ", silent" }
        }
        lines.append("  \(Self.reply(answer)),  // \(comment)")
      }
    }
    lines.append("])")
    lines.append("// Expected states: " + steps.map(\.description).joined(separator: ", "))
    return lines.joined(separator: "\n")
  }

  /// The loads and the steps, in one line each.
  public var description: String {
    let loadLines = loads.enumerated().map { index, load in
      "load \(index + 1)\(load.isSilent ? " (silent)" : ""): "
        + load.answers.map(\.description).joined(separator: ", ") + " → \(load.end)"
    }
    return (loadLines + ["steps: " + steps.map(\.description).joined(separator: ", ")])
      .joined(separator: "\n")
  }

  private static func reply(_ answer: Answer) -> String {
    switch answer {
    case .value: ".value(<#value#>)"
    case .error(nil): ".error(<#an error the retry retries#>)"
    case .error(let text?): ".error(<#\(text)#>)"
    case .none: ".hold"
    }
  }
}

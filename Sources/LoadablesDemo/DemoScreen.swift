import Loadables

/// The demo's "views": the one line of text a SwiftUI body would show for each piece of the
/// model. Each reads the state and whether work is in flight, so it is re-rendered when
/// either changes.
@MainActor
enum DemoScreen {
  static func numbers(_ model: DemoModel) -> String {
    row("numbers", model.numbers, isRunning: model.$numbers.isRunning) { "\($0)" }
  }

  static func feed(_ model: DemoModel) -> String {
    row("feed", model.feed, isRunning: model.$feed.isRunning) { "\($0)" }
  }

  static func profile(_ model: DemoModel) -> String {
    row("profile", model.profile, isRunning: model.isRunning(\.profile)) {
      "\($0.name) (\($0.role))"
    }
  }

  static func saving(_ model: DemoModel) -> String {
    row("saving", model.saving, isRunning: model.$saving.isRunning)
  }

  static func publishing(_ model: DemoModel) -> String {
    row("publishing", model.publishing, isRunning: model.isRunning(\.publishing))
  }

  // MARK: - Rows

  /// `label: state`, plus a marker when `isRunning` tells more than the state does: a
  /// silent refresh in flight, or a `.loading` that no load will ever finish.
  private static func row<Value>(
    _ label: String,
    _ state: LoadableState<Value>,
    isRunning: Bool,
    value: (Value) -> String
  ) -> String {
    let text =
      switch state {
      case .absent: "absent"
      case .loading: "loading…"
      case .error(let error): "error: \(error)"
      case .loaded(let loaded): "loaded \(value(loaded))"
      }
    return "\(label): \(text)" + marker(shown: state.isLoading, running: isRunning)
  }

  private static func row(_ label: String, _ state: SingleProcessState, isRunning: Bool)
    -> String
  {
    let text =
      switch state {
      case .idle: "idle"
      case .running: "running…"
      case .failed(_, let error): "failed: \(error)"
      case .finished: "finished"
      }
    return "\(label): \(text)" + marker(shown: state.isRunning, running: isRunning)
  }

  /// Compares the spinner the state shows with whether work actually runs.
  private static func marker(shown spinner: Bool, running: Bool) -> String {
    switch (spinner, running) {
    case (false, true): "  (refreshing…)"
    case (true, false): "  (nothing running)"
    default: ""
    }
  }
}

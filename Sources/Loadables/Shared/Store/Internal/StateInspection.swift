/// What an inspector shows of a state: its phase, its value in one line, its error.
protocol InspectedState {
  var inspection: StateInspection { get }
}

/// A state in a few words; see ``InspectedState``.
struct StateInspection {
  var phase: EntrySnapshot.Phase
  var value: String?
  var error: (any Error)?
  var nextPage: String?
}

extension LoadableState: InspectedState {
  var inspection: StateInspection {
    switch self {
    case .absent: StateInspection(phase: .absent)
    case .loading: StateInspection(phase: .loading)
    case .error(let error): StateInspection(phase: .error, error: error)
    case .loaded(let value): StateInspection(phase: .loaded, value: oneLine(value))
    }
  }
}

extension PagedState: InspectedState {
  var inspection: StateInspection {
    var inspection = list.inspection
    if list.isLoaded {
      inspection.value =
        "\(items.count) item\(items.count == 1 ? "" : "s") in \(pages.count) "
        + "page\(pages.count == 1 ? "" : "s")"
    }
    switch nextPage {
    case .idle: inspection.nextPage = "idle"
    case .loading: inspection.nextPage = "loading"
    case .failed(let error):
      inspection.nextPage = "failed"
      if inspection.error == nil { inspection.error = error }
    case .end: inspection.nextPage = "end"
    }
    return inspection
  }
}

/// `value` described on one line of at most 80 characters.
private func oneLine(_ value: Any) -> String {
  var text = String(describing: value)
  text = text.split(whereSeparator: \.isNewline).joined(separator: " ")
  if text.count > 80 { text = String(text.prefix(79)) + "…" }
  return text
}

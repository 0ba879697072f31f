import Foundation
import Loadables

/// The demo's "views": the one line of text a SwiftUI body would show for each piece of the
/// model. Each reads the state and whether work is in flight, so it is re-rendered when
/// either changes.
@MainActor
enum DemoScreen {
  static func numbers(_ model: DemoModel) -> String {
    row("numbers", model.numbers, isRunning: model.$numbers.isRunning) { "\($0)" }
  }

  /// The feed, and the error of a failed refresh that kept it on screen. While the first
  /// load streams headlines in, the list shows with more to come: that is not a refresh.
  static func feed(_ model: DemoModel) -> String {
    row(
      "feed", model.feed, isRunning: model.$feed.isRunning,
      runningLabel: model.isStreamingFeed ? "more coming…" : "refreshing…"
    ) { "\($0)" }
      + (model.$feed.refreshError.map { "  (refresh failed: \($0))" } ?? "")
  }

  static func profile(_ model: DemoModel) -> String {
    row("profile", model.profile, isRunning: model.handle(\.profile).isRunning) {
      "\($0.name) (\($0.role))"
    }
  }

  static func saving(_ model: DemoModel) -> String {
    row("saving", model.saving, isRunning: model.$saving.isRunning)
  }

  static func publishing(_ model: DemoModel) -> String {
    row("publishing", model.publishing, isRunning: model.handle(\.publishing).isRunning)
  }

  /// The state, and the attempt a retry runs or waits to run. The attempt already tells
  /// that work is in flight, so no marker is shown beside it.
  static func quote(_ model: DemoModel) -> String {
    let state = model.quote
    guard let attempt = model.$quote.attempt else {
      return row("quote", state, isRunning: model.$quote.isRunning) { "\"\($0)\"" }
    }
    return row("quote", state, isRunning: state.isLoading) { "\"\($0)\"" }
      + describe(attempt, showingError: !state.isError)
  }

  static func report(_ model: DemoModel) -> String {
    row("report", model.report, isRunning: model.$report.isRunning) { "\"\($0)\"" }
  }

  /// The search field's text, and what was found for it.
  static func search(_ model: DemoModel) -> String {
    row("search \"\(model.query)\"", model.results, isRunning: model.handle(\.results).isRunning) {
      "\($0)"
    }
  }

  /// A summary line, then one line per file: a progress bar while it downloads, `waiting`
  /// while it waits for the limiter (loading, but no progress reported yet).
  static func downloads(_ model: DemoModel) -> String {
    var running = 0
    var waiting = 0
    var done = 0
    let lines = model.downloads.map { file in
      let name = file.name.padding(toLength: 12, withPad: " ", startingAt: 0)
      switch (file.state, file.progress) {
      case (.loading, let progress?):
        running += 1
        let fraction = progress.fraction ?? 0
        let percent = String(Int((fraction * 100).rounded()))
        let padding = String(repeating: " ", count: 4 - percent.count)
        return "\(name) \(bar(fraction))\(padding)\(percent)%"
      case (.loading, nil):
        waiting += 1
        return "\(name) waiting"
      case (.loaded, _):
        done += 1
        return "\(name) \(bar(1)) done"
      case (.absent, _):
        return "\(name) -"
      case (.error(let error), _):
        return "\(name) error: \(error)"
      }
    }
    let limit = model.downloadLimiter.limit
    let summary = "downloads (\(limit) at a time): \(running) running, \(waiting) waiting, "
    return ([summary + "\(done) done"] + lines.map { "  " + $0 }).joined(separator: "\n")
  }

  /// The feed and the detail screen of post 1, one under the other: both follow the post's
  /// shared entry, so they always agree. A silent refresh shows as `(refreshing…)` beside
  /// the state; it is the entry's fetch, so the marker reads the entry's `isRunning`.
  static func sharedPosts(_ model: DemoModel) -> String {
    let feed = model.feedScreen
    let detail = model.detailScreen
    var lines = [
      row("feed", feed.ids, isRunning: feed.entry.isRunning) {
        "\($0.count) \($0.count == 1 ? "post" : "posts")"
      }
    ]
    for row in feed.rows {
      lines.append(
        "  "
          + Self.row("row \(row.entry.key)", row.post, isRunning: row.entry.isRunning, value: post))
    }
    lines.append(
      row("detail \(detail.entry.key)", detail.post, isRunning: detail.entry.isRunning, value: post)
        + "   " + row("like", detail.liking, isRunning: detail.$liking.isRunning))
    return lines.joined(separator: "\n")
  }

  /// `"Loadables 1.0 is out" ♥ 13 (liked)`.
  private static func post(_ post: Post) -> String {
    "\"\(post.title)\" ♥ \(post.likes)" + (post.isLiked ? " (liked)" : "")

  }

  /// The feed's posts (first and last), then a footer: a spinner while the next page
  /// loads, its error and a retry when it failed.
  static func pagedFeed(_ model: DemoModel) -> String {
    let state = model.pagedFeed
    let isRunning = model.$pagedFeed.isRunning
    let list = row("feed", state.list, isRunning: isRunning && !state.nextPage.isLoading) {
      posts in
      guard let first = posts.first, let last = posts.last else { return "(no posts)" }
      return "\(posts.count) posts [\(first) … \(last)]"
    }
    let footer =
      switch state.nextPage {
      case .idle: "-"
      case .loading: "loading more…"
      case .failed(let error): "\(error) [retry]"
      case .end: "end of feed"
      }
    return list + "\nfooter: " + footer
  }

  // MARK: - Rows

  /// `  attempt 2 of 3, retrying in 0.3 s (last error: ...)`; the last error only when
  /// `showingError` (the state does not show it already).
  private static func describe(_ attempt: RetryAttempt, showingError: Bool) -> String {
    var text = "  attempt \(attempt.number) of \(attempt.maxAttempts)"
    if let delay = attempt.delay {
      let (seconds, attoseconds) = delay.components
      text += String(format: ", retrying in %g s", Double(seconds) + Double(attoseconds) / 1e18)
    }
    if showingError, let error = attempt.lastError { text += " (last error: \(error))" }
    return text
  }

  /// `[####------]` for 0.4.
  private static func bar(_ fraction: Double) -> String {
    let filled = Int((fraction * 10).rounded(.down))
    return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 10 - filled)
      + "]"
  }

  /// `label: state`, plus a marker when `isRunning` tells more than the state does: a
  /// silent refresh in flight (`runningLabel`), or a `.loading` that no load will ever finish.
  private static func row<Value>(
    _ label: String,
    _ state: LoadableState<Value>,
    isRunning: Bool,
    runningLabel: String = "refreshing…",
    value: (Value) -> String
  ) -> String {
    let text =
      switch state {
      case .absent: "absent"
      case .loading: "loading…"
      case .error(let error): "error: \(error)"
      case .loaded(let loaded): "loaded \(value(loaded))"
      }
    return "\(label): \(text)"
      + marker(shown: state.isLoading, running: isRunning, runningLabel: runningLabel)
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

  /// Compares the spinner the state shows with whether work actually runs; `runningLabel`
  /// names work that runs behind what is shown.
  private static func marker(
    shown spinner: Bool, running: Bool, runningLabel: String = "refreshing…"
  ) -> String {
    switch (spinner, running) {
    case (false, true): "  (\(runningLabel))"
    case (true, false): "  (nothing running)"
    default: ""
    }
  }
}

public import Foundation
public import Loadables

// The inspector as text, for a terminal (the demo's `--inspect`) or a test's failure message:
// a table of the entries and the outbox, and one entry's explanation and history. Plain ASCII
// columns, so it lines up in any terminal and in a log.

extension StoreInspector {
  /// The store as a table: a header line, one row per entry, then the outbox.
  ///
  /// ```
  /// store: 2 entries, fetching 1, online
  /// KEY           KIND   STATE            OBS  FRESHNESS      FETCH    EDITS  SAVED
  /// ["feed"]      paged  loaded +refresh  1    invalidated    running  0      no
  /// ["posts", 1]  value  loaded           0    fresh 58.00 s  -        1/1    yes
  /// outbox: empty
  /// ```
  ///
  /// - Parameter now: The time ages are counted from; by default the time of the snapshot.
  /// - Returns: The table, lines separated by newlines, without a final newline.
  public func renderTable(now: Date? = nil) -> String {
    let now = now ?? snapshot.date
    var lines = [header]
    var rows = [["KEY", "KIND", "STATE", "OBS", "FRESHNESS", "FETCH", "EDITS", "SAVED"]]
    for entry in snapshot.entries {
      rows.append([
        entry.id, entry.kind.description, Self.state(of: entry), "\(entry.observerCount)",
        Self.freshness(of: entry, now: now), Self.fetch(of: entry),
        entry.editCount == 0 ? "0" : "\(entry.pendingEditCount)/\(entry.editCount)",
        entry.isPersisted ? "yes" : "no",
      ])
    }
    if snapshot.entries.isEmpty {
      lines.append("(no entries)")
    } else {
      lines += Self.columns(rows)
    }
    if snapshot.outbox.isEmpty {
      lines.append("outbox: empty")
    } else {
      lines.append("outbox: \(snapshot.outbox.count) item\(snapshot.outbox.count == 1 ? "" : "s")")
      for item in snapshot.outbox {
        lines.append(
          "  \(item.name) [\(item.scopeKey.map { "\($0)" } ?? "?")] \(Self.status(of: item, now: now))"
        )
      }
    }
    return lines.joined(separator: "\n")
  }

  /// One entry: its state, why it is stale and who fetched it last
  /// (``EntryExplanation/lines(now:)``), then its history, one event a line, each with its
  /// age.
  ///
  /// ```
  /// ["posts", 1]: value String, loaded "Hello", 1 observer
  ///   stale: invalidated 0.50 s ago
  ///   last fetch: finished 1.20 s ago after 0.21 s
  ///   history (2):
  ///     1.41 s ago  started entry ["posts", 1]
  ///     1.20 s ago  finished entry ["posts", 1] after 0.21 s
  /// ```
  ///
  /// - Parameters:
  ///   - key: The entry's key.
  ///   - now: The time ages are counted from; by default the time of the snapshot.
  /// - Returns: The text, lines separated by newlines, without a final newline.
  public func renderEntry(_ key: LoadKey, now: Date? = nil) -> String {
    let now = now ?? snapshot.date
    let explanation = explain(key)
    var title = "\(key):"
    if let entry = explanation.entry {
      title += " \(entry.kind) \(entry.valueType), \(Self.state(of: entry))"
      if let value = entry.valueSummary { title += " \(value)" }
      title += ", \(entry.observerCount) observer\(entry.observerCount == 1 ? "" : "s")"
      if let error = entry.error { title += ", error: \(error)" }
    }
    var lines = [title]
    lines += explanation.lines(now: now).map { "  " + $0 }
    let history = explanation.history
    if history.isEmpty {
      lines.append("  history: none seen")
    } else {
      lines.append("  history (\(history.count)):")
      for event in history {
        let age = EntryExplanation.ago(event.date, now)
        lines.append(
          "    " + age + String(repeating: " ", count: max(1, 12 - age.count)) + "\(event)")
      }
    }
    return lines.joined(separator: "\n")
  }

  /// "store: 3 entries, fetching 1, offline (simulated)".
  private var header: String {
    var parts = ["\(snapshot.entries.count) entr\(snapshot.entries.count == 1 ? "y" : "ies")"]
    parts.append(snapshot.runningCount == 0 ? "idle" : "fetching \(snapshot.runningCount)")
    switch (snapshot.isOnline, snapshot.isSimulatingOffline) {
    case (_, true): parts.append("offline (simulated)")
    case (true?, false): parts.append("online")
    case (false?, false): parts.append("offline")
    case (nil, false): break
    }
    return "store: " + parts.joined(separator: ", ")
  }

  private static func state(of entry: EntrySnapshot) -> String {
    var state = entry.phase.description
    if entry.isRefreshing { state += " +refresh" }
    if entry.phase != .error, entry.error != nil { state += " !refresh failed" }
    if let nextPage = entry.nextPage, nextPage != "idle" { state += " next:\(nextPage)" }
    return state
  }

  private static func freshness(of entry: EntrySnapshot, now: Date) -> String {
    guard entry.staleness == .fresh else { return entry.staleness.description }
    guard let staleAt = entry.staleAt else { return "fresh" }
    return "fresh \(EntryExplanation.seconds(staleAt.timeIntervalSince(now)))"
  }

  private static func fetch(of entry: EntrySnapshot) -> String {
    var parts: [String] = []
    if entry.isRunning {
      parts.append(entry.isWaitingForNetwork ? "waiting for network" : "running")
      if let attempt = entry.attempt { parts.append("#\(attempt.number)/\(attempt.maxAttempts)") }
      if let fraction = entry.progress?.fraction { parts.append("\(Int(fraction * 100))%") }
    }
    if entry.failsNextFetch { parts.append("fails next") }
    return parts.isEmpty ? "-" : parts.joined(separator: " ")
  }

  private static func status(of item: OutboxItem, now: Date) -> String {
    switch item.status {
    case .ready: "ready"
    case .sending: "sending (attempt \(item.attempt))"
    case .waitingForNetwork: "waiting for the network"
    case .backingOff(let attempt, let nextTry):
      "backing off before attempt \(attempt), \(EntryExplanation.seconds(nextTry.timeIntervalSince(now))) left"
    case .waitingBehind(let id): "waiting behind \(id)"
    case .waitingToSave(let attempt, _): "waiting to be saved (attempt \(attempt))"
    case .waitingForHandler: "waiting for a handler"
    case .failed(let reason): "failed: \(reason)"
    }
  }

  /// `rows` in columns two spaces apart, the last one unpadded.
  private static func columns(_ rows: [[String]]) -> [String] {
    guard let count = rows.first?.count else { return [] }
    var widths = [Int](repeating: 0, count: count)
    for row in rows {
      for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    return rows.map { row in
      var line = ""
      for (index, cell) in row.enumerated() {
        if index == row.count - 1 {
          line += cell
        } else {
          line += cell + String(repeating: " ", count: widths[index] - cell.count + 2)
        }
      }
      return line
    }
  }
}

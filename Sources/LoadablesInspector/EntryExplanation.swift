public import Foundation
public import Loadables

/// Why an entry is stale, and who fetched it last: what ``StoreInspector/explain(_:)``
/// answers from the entry's snapshot and the events seen for it.
///
/// <!-- compile: context Inspector -->
/// ```swift
/// let why = inspector.explain(["posts", 42])
/// why.staleness       // .invalidated
/// why.lastInvalidation?.date
/// why.lastFetch?.duration
/// why.lastFetch?.attempt
/// why.lastFetch?.isSilent
/// print(why.lines(now: Date()).joined(separator: "\n"))
/// ```
public struct EntryExplanation: Sendable {
  /// The entry's key.
  public let key: LoadKey
  /// The entry's snapshot; `nil` when the store does not hold it.
  public let entry: EntrySnapshot?
  /// The events seen for the entry, oldest first.
  public let history: [LoadEvent]

  /// Explains the entry of `key` from its snapshot and its events.
  ///
  /// - Parameters:
  ///   - key: The entry's key.
  ///   - entry: Its snapshot, if the store holds it.
  ///   - history: Its events, oldest first.
  public init(key: LoadKey, entry: EntrySnapshot?, history: [LoadEvent]) {
    self.key = key
    self.entry = entry
    self.history = history
  }

  /// Whether the value is fresh, and why not; `nil` when the store does not hold the entry.
  public var staleness: EntrySnapshot.Staleness? { entry?.staleness }

  /// The last fetch that stored a value: the entry's last `finished` event.
  public var lastFetch: LoadEvent? { history.last { $0.kind == .finished } }

  /// The last load of the entry that ended, however it ended (finished, failed, cancelled,
  /// reset, superseded).
  public var lastEnd: LoadEvent? { history.last { $0.kind.endsLoad } }

  /// The last time the entry was invalidated (its last `entryInvalidated` event).
  public var lastInvalidation: LoadEvent? { history.last { $0.kind == .entryInvalidated } }

  /// The explanation in a few lines, with times counted back from `now`:
  ///
  /// ```
  /// stale: invalidated 2.10 s ago
  /// last fetch: finished 5.02 s ago after 0.21 s (attempt 1, silent)
  /// ```
  ///
  /// - Parameter now: The time the ages are counted from.
  /// - Returns: The lines.
  public func lines(now: Date) -> [String] {
    var lines: [String] = []
    guard let entry else {
      lines.append("not in the store")
      if let last = history.last { lines.append("last event: " + Self.line(last, now: now)) }
      return lines
    }
    switch entry.staleness {
    case .fresh:
      var line = "fresh"
      if let staleAt = entry.staleAt {
        line += " for \(Self.seconds(staleAt.timeIntervalSince(now))) more"
      }
      lines.append(line)
    case .invalidated:
      var line = "stale: invalidated"
      if let invalidation = lastInvalidation { line += " " + Self.ago(invalidation.date, now) }
      lines.append(line)
    case .aged:
      var line = "stale: aged"
      if let fetchedAt = entry.fetchedAt { line += ", fetched " + Self.ago(fetchedAt, now) }
      line += ", stale time \(Self.seconds(entry.staleTime))"
      lines.append(line)
    case .noValue:
      lines.append("stale: no value yet")
    case .notFetched:
      lines.append("stale: the value shown was never fetched (placeholder or starting value)")
    }
    if let fetch = lastFetch {
      lines.append("last fetch: " + Self.line(fetch, now: now))
    } else if let fetchedAt = entry.fetchedAt {
      lines.append("last fetch: " + Self.ago(fetchedAt, now) + " (before the inspector listened)")
    } else {
      lines.append("last fetch: none")
    }
    // A load that ended otherwise after the last fetch: failed, cancelled, superseded.
    if let end = history.lastIndex(where: { $0.kind.endsLoad }),
      end > (history.lastIndex { $0.kind == .finished } ?? -1)
    {
      lines.append("since then: " + Self.line(history[end], now: now))
    }
    return lines
  }

  /// One event as "finished 5.02 s ago after 0.21 s (attempt 1, silent)".
  static func line(_ event: LoadEvent, now: Date) -> String {
    var line = "\(event.kind)"
    if let wait = event.wait { line += " for \(wait)" }
    line += " " + ago(event.date, now)
    if let duration = event.duration { line += " after \(seconds(duration))" }
    var notes: [String] = []
    if let attempt = event.attempt { notes.append("attempt \(attempt)") }
    if event.isSilent { notes.append("silent") }
    if let error = event.error { notes.append("error: \(error)") }
    if let detail = event.detail { notes.append(detail) }
    if !notes.isEmpty { line += " (\(notes.joined(separator: ", ")))" }
    return line
  }

  /// "2.10 s ago", or "just now" within a hundredth of a second.
  static func ago(_ date: Date, _ now: Date) -> String {
    let interval = now.timeIntervalSince(date)
    return interval < 0.005 ? "just now" : "\(seconds(interval)) ago"
  }

  /// Seconds to the hundredth, the same in every locale: "2.10 s".
  static func seconds(_ interval: TimeInterval) -> String {
    let hundredths = Int((interval * 100).rounded())
    let sign = hundredths < 0 ? "-" : ""
    let magnitude = abs(hundredths)
    let fraction = magnitude % 100
    return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
  }

  /// A duration in seconds to the hundredth: "0.21 s".
  static func seconds(_ duration: Duration) -> String {
    let parts = duration.components
    return seconds(Double(parts.seconds) + Double(parts.attoseconds) / 1e18)
  }
}

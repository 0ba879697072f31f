/// How much a ``LoadEvent`` matters in a log: the level ``LoadEvents`` writes it at when it
/// logs to `os.Logger` (`LoadEvents.log(to:privacy:minimumLevel:)`, on Apple platforms), and
/// a level to map to any other logger's.
///
/// Four levels, each with its counterpart in `os.Logger` (`OSLogType`) and in swift-log
/// (`Logger.Level`):
///
/// | level | kinds | `OSLogType` | swift-log |
/// |---|---|---|---|
/// | ``debug`` | a load's start, a superseded or cancelled load, waits, an entry made | `.debug` | `.debug` |
/// | ``info`` | a finished or reset load, what the store did, an edit applied, committed, queued or sent | `.info` | `.info` |
/// | ``notice`` | something went wrong and was dealt with: an edit rolled back, a saved value discarded | `.default` | `.notice` |
/// | ``error`` | a failed load, an edit that failed for good | `.error` | `.error` |
///
/// ```swift
/// let subscription = LoadEvents.listen { event in
///   guard event.level >= .info else { return }
///   print(event)
/// }
/// ```
public enum LoadEventLevel: Int, Sendable, Hashable, Comparable, CaseIterable,
  CustomStringConvertible
{
  /// The steps of a load: it started, waited, was superseded or cancelled.
  case debug
  /// What happened to the data: a load finished, the store invalidated or evicted an entry,
  /// an edit was committed.
  case info
  /// Something went wrong and was dealt with: an edit's change was rolled back, a saved value
  /// could not be read and was removed.
  case notice
  /// A failure: a load failed, an edit failed for good.
  case error

  /// The level's name: "debug".
  public var description: String {
    switch self {
    case .debug: "debug"
    case .info: "info"
    case .notice: "notice"
    case .error: "error"
    }
  }

  /// Whether `lhs` matters less than `rhs`: ``debug`` < ``info`` < ``notice`` < ``error``.
  ///
  /// - Parameters:
  ///   - lhs: A level.
  ///   - rhs: Another level.
  /// - Returns: Whether `lhs` is the lower.
  public static func < (lhs: LoadEventLevel, rhs: LoadEventLevel) -> Bool {
    lhs.rawValue < rhs.rawValue
  }
}

extension LoadEventKind {
  /// The level an event of this kind is logged at; see ``LoadEventLevel``.
  public var level: LoadEventLevel {
    switch self {
    case .started, .superseded, .cancelled, .waitBegan, .waitEnded, .entryMade: .debug
    case .finished, .reset, .ignored, .entryInvalidated, .entryEvicted, .entryTrimmed,
      .entryRestored,
      .entryRemoved, .entryReset, .editApplied, .editCommitted, .editQueued, .editSent:
      .info
    case .editRolledBack, .entryDiscarded: .notice
    case .failed, .editFailed: .error
    }
  }
}

extension LoadEvent {
  /// The level this event is logged at: its kind's (``LoadEventKind/level``).
  public var level: LoadEventLevel { kind.level }
}

/// What a log line of ``LoadEvents`` may show of an event to whoever reads the log: on Apple
/// platforms, what `os.Logger` and `OSSignposter` redact in logs collected off the device.
///
/// A key may hold user data (`["user", email]`), and so may an error's or an edit's text; the
/// names that come from your code do not (the state type of a property or a loader, a key
/// path such as `\FeedModel.posts`), nor do the kind, the form, the durations, the
/// attempt and the wait.
public enum LoadEventLogPrivacy: Sendable, Hashable {
  /// The default: the key of an entry or edit, the error and the detail are written as
  /// private data (`privacy: .private`), shown on a device under the debugger and redacted
  /// as `<private>` elsewhere; the rest is public.
  case `private`
  /// Everything is public, the whole ``LoadEvent/description``: for development builds, or
  /// apps whose keys and errors hold nothing private.
  case `public`
}

/// One event as a log line, split by what may hold user data (see ``LoadEventLogPrivacy``):
/// the pure half of the `os.Logger` and `OSSignposter` wiring, tested on Linux. The Apple
/// half writes `text` as public data and, when there is any, `userData` as private data
/// after ": ".
struct LoadEventLogLine: Hashable, Sendable {
  /// The level to log at.
  let level: LoadEventLevel
  /// What may be shown publicly.
  let text: String
  /// What may hold user data, as private data: the key of an entry or edit, the error, the
  /// detail; empty when there is none (and always with ``LoadEventLogPrivacy/public``, where
  /// `text` is the whole description).
  let userData: String

  init(_ event: LoadEvent, privacy: LoadEventLogPrivacy) {
    level = event.level
    guard privacy == .private else {
      text = event.description
      userData = ""
      return
    }
    var line = "\(event.kind) \(event.subject.form)"
    var hidden: [String] = []
    switch event.subject.form {
    case .property, .keyPath, .loader: line += " \(event.subject.name)"
    case .entry, .edit: hidden.append(event.subject.name)
    }
    if let wait = event.wait { line += " for \(wait)" }
    if let duration = event.duration { line += " after \(LoadEvent.seconds(duration))" }
    var notes: [String] = []
    if event.isSilent { notes.append("silent") }
    if let attempt = event.attempt { notes.append("attempt \(attempt)") }
    if !notes.isEmpty { line += " (\(notes.joined(separator: ", ")))" }
    if let error = event.error { hidden.append("error: \(error)") }
    if let detail = event.detail { hidden.append(detail) }
    text = line
    userData = hidden.joined(separator: ", ")
  }

  /// The line as a reader with access to private data sees it.
  var rendered: String { userData.isEmpty ? text : "\(text): \(userData)" }
}

/// The pure half of the `OSSignposter` wiring (`LoadEvents.signpost(to:privacy:)` on Apple
/// platforms): which signpost intervals load events open and close, decided without
/// `os`, so it is tested on Linux. The Apple half performs the steps.
///
/// - A load's `started` opens an interval ("Fetch" for a shared entry, "Load" for the other
///   forms); its one end (finished, failed, cancelled, reset, superseded) closes it. A
///   `superseded` comes before the newer load's `started`, so the old interval closes first.
/// - A wait opens an interval ("Wait") at `waitBegan` and closes it at `waitEnded`, or at the
///   end of its load.
/// - Intervals are kept by subject (``LoadSubject`` names one slot: its object, or its
///   store key), at most one load and one wait each. An end with no open interval (the load
///   started before anyone listened) closes nothing; a start over an interval still open
///   closes it first, so none is ever left open by a lost end.
/// - The store's and the edits' events are single signpost events ("Store", "Edit"), and so
///   is a start that was ignored ("Load"), which leaves the running load's interval open.
struct SignpostBook {
  /// Which signpost name a step uses.
  enum Name: Hashable, Sendable {
    /// A load of a property, key path or loader.
    case load
    /// A shared entry's fetch.
    case fetch
    /// A wait inside a load.
    case wait
    /// The store did something with an entry (a single event).
    case store
    /// An edit did something (a single event).
    case edit
  }

  /// One open interval: its name and an id the runner keeps its `os` state under.
  struct Interval: Hashable, Sendable {
    let name: Name
    let id: UInt64
  }

  /// What the runner does for an event, in order.
  enum Step: Hashable, Sendable {
    /// Open `Interval`, with the line as its message.
    case begin(Interval, LoadEventLogLine)
    /// Close `Interval`, with the line as its message.
    case end(Interval, LoadEventLogLine)
    /// Emit a single event named `Name`.
    case event(Name, LoadEventLogLine)
  }

  private let privacy: LoadEventLogPrivacy
  private var loads: [LoadSubject: Interval] = [:]
  private var waits: [LoadSubject: Interval] = [:]
  private var lastID: UInt64 = 0

  init(privacy: LoadEventLogPrivacy) {
    self.privacy = privacy
  }

  /// How many intervals are open now.
  var openCount: Int { loads.count + waits.count }

  /// The steps that `event` calls for.
  mutating func receive(_ event: LoadEvent) -> [Step] {
    let subject = event.subject
    let line = LoadEventLogLine(event, privacy: privacy)
    var steps: [Step] = []
    switch event.kind {
    case .started:
      if let wait = waits.removeValue(forKey: subject) { steps.append(.end(wait, line)) }
      if let load = loads.removeValue(forKey: subject) { steps.append(.end(load, line)) }
      let load = open(subject.form == .entry ? .fetch : .load)
      loads[subject] = load
      steps.append(.begin(load, line))
    case .finished, .failed, .cancelled, .reset, .superseded:
      if let wait = waits.removeValue(forKey: subject) { steps.append(.end(wait, line)) }
      if let load = loads.removeValue(forKey: subject) { steps.append(.end(load, line)) }
    case .waitBegan:
      if let wait = waits.removeValue(forKey: subject) { steps.append(.end(wait, line)) }
      let wait = open(.wait)
      waits[subject] = wait
      steps.append(.begin(wait, line))
    case .waitEnded:
      if let wait = waits.removeValue(forKey: subject) { steps.append(.end(wait, line)) }
    case .ignored:
      // No load started: the running load's interval stays open.
      steps.append(.event(.load, line))
    case .entryMade, .entryInvalidated, .entryEvicted, .entryTrimmed, .entryRestored,
      .entryDiscarded, .entryRemoved, .entryReset:
      steps.append(.event(.store, line))
    case .editApplied, .editCommitted, .editRolledBack, .editQueued, .editSent, .editFailed:
      steps.append(.event(.edit, line))
    }
    return steps
  }

  private mutating func open(_ name: Name) -> Interval {
    lastID &+= 1
    return Interval(name: name, id: lastID)
  }
}

/// Lets a call through only once calls have stopped for a while: the state behind a
/// debounce that fires on the leading edge, or one shared by several loads.
///
/// Keep one per stream of calls (a search field, say) and pass it to
/// ``LoadPolicy/debounce(_:)-type.method``:
///
/// <!-- compile: context Model -->
/// ```swift
/// let searchDebouncer = Debouncer(for: .milliseconds(300), leading: true)
///
/// func search(_ text: String) {
///   $results.load(policy: .debounce(searchDebouncer)) { try await api.search(text) }
/// }
/// ```
///
/// Trailing edge (the default): every call waits until `interval` has passed since the
/// latest call to the debouncer; a newer load of the same state cancels the wait of the one
/// before, so of a burst only the last call of each state runs. Leading edge: a call that
/// comes after `interval` of quiet runs at once, and the calls that follow it within
/// `interval` wait as on the trailing edge.
///
/// Timers: one sleep on the clock for each load that waits (a debouncer shared by several
/// states holds one load of each); when a newer call moved the end of the wait on, the load
/// sleeps again, still one sleep at a time. A leading-edge call after a quiet spell starts
/// none.
@MainActor
public final class Debouncer {
  /// How long calls must stop before one goes through.
  public let interval: Duration

  /// Whether the first call after a quiet spell goes through at once.
  public let leading: Bool

  private let explicitClock: (any Clock<Duration>)?
  /// The clock and its stopwatch, chosen the first time the debouncer measures time.
  private var timing: (clock: any Clock<Duration>, stopwatch: Stopwatch)?
  private var lastCall: Duration?

  /// Creates a debouncer.
  ///
  /// - Parameters:
  ///   - interval: How long calls must stop before one goes through; not negative.
  ///   - leading: Whether the first call after a quiet spell goes through at once.
  ///   - clock: The clock the interval is measured on; `nil` (the default) for
  ///     ``LoadClock/current`` as it is the first time the debouncer is used (it then
  ///     keeps that clock: the time of the latest call is measured on it).
  ///
  /// > Important: A negative `interval` stops the program with a message naming it.
  public init(
    for interval: Duration, leading: Bool = false, clock: (any Clock<Duration>)? = nil
  ) {
    checkNotNegative(interval, "Debouncer: interval")
    self.interval = interval
    self.leading = leading
    self.explicitClock = clock
  }

  private func timer() -> (clock: any Clock<Duration>, stopwatch: Stopwatch) {
    if let timing { return timing }
    let clock = resolved(explicitClock)
    let made = (clock: clock, stopwatch: Stopwatch(clock))
    timing = made
    return made
  }

  /// Returns when the calling load may go ahead.
  ///
  /// A call that has to wait reports it to ``LoadEvents`` as a ``LoadWait/debounce`` wait of
  /// the calling load.
  ///
  /// - Throws: `CancellationError` when the load is cancelled (superseded) while it waits.
  public func wait() async throws {
    // A load superseded before it got here must not go through on the leading edge.
    try Task.checkCancellation()
    let (clock, stopwatch) = timer()
    let now = stopwatch.elapsed
    let previous = lastCall
    lastCall = now
    if leading, previous.map({ now - $0 >= interval }) ?? true { return }
    // Wait until `interval` has passed since the latest call; a newer call, from this load's
    // state or another sharing the debouncer, moves that point on.
    var remaining = interval
    // The wait is a `debounce` wait of the load, for the events; it ends however it ends.
    reportWait(.debounce, began: true, clock: clock)
    defer { reportWait(.debounce, began: false, clock: clock) }
    repeat {
      try await clock.sleep(for: remaining)
      remaining = interval - (stopwatch.elapsed - (lastCall ?? now))
    } while remaining > .zero
  }
}

extension LoadPolicy {
  /// Waits `interval` before the block runs; a newer load cancels the wait, so of a burst of
  /// loads only the last one runs (trailing edge).
  ///
  /// <!-- compile: context Model -->
  /// ```swift
  /// func search(_ text: String) {
  ///   $results.load(policy: .debounce(for: .milliseconds(300))) { try await api.search(text) }
  /// }
  /// ```
  ///
  /// Timers: one sleep on `clock` before the block (none for a zero interval); a newer load
  /// of the same state cancels the older one's sleep before starting its own.
  ///
  /// The debounce relies on the engine's rule that a new load supersedes the old one, so it
  /// debounces the loads of one state. For a leading edge, use a ``Debouncer`` with
  /// ``debounce(_:)-type.method``; a debouncer shared by several states holds all their loads
  /// back until calls stop, then lets the last load of each state through (a load of one
  /// state never cancels the wait of another).
  ///
  /// - Parameters:
  ///   - interval: How long to wait; not negative.
  ///   - clock: The clock the wait is measured on; `nil` (the default) for
  ///     ``LoadClock/current``, read each time a load runs the policy.
  /// - Returns: A debouncing policy.
  ///
  /// > Important: A negative `interval` stops the program with a message naming it.
  public static func debounce(
    for interval: Duration, clock: (any Clock<Duration>)? = nil
  ) -> LoadPolicy {
    checkNotNegative(interval, "LoadPolicy.debounce: interval")
    return LoadPolicy("debounce(\(interval))") { next in
      {
        let clock = resolved(clock)
        reportWait(.debounce, began: true, clock: clock)
        do {
          try await clock.sleep(for: interval)
        } catch {
          reportWait(.debounce, began: false, clock: clock)
          throw error
        }
        reportWait(.debounce, began: false, clock: clock)
        return try await next()
      }
    }
  }

  /// Waits as `debouncer` decides before the block runs.
  ///
  /// - Parameter debouncer: The debouncer, kept between loads.
  /// - Returns: A debouncing policy.
  public static func debounce(_ debouncer: Debouncer) -> LoadPolicy {
    LoadPolicy("debounce(\(debouncer.interval)\(debouncer.leading ? ", leading" : ""))") {
      next in
      {
        try await debouncer.wait()
        return try await next()
      }
    }
  }

  /// This policy, then ``debounce(for:clock:)-type.method`` inside it.
  public func debounce(for interval: Duration, clock: (any Clock<Duration>)? = nil)
    -> LoadPolicy
  {
    then(.debounce(for: interval, clock: clock))
  }

  /// This policy, then ``debounce(_:)-type.method`` inside it.
  public func debounce(_ debouncer: Debouncer) -> LoadPolicy {
    then(.debounce(debouncer))
  }
}

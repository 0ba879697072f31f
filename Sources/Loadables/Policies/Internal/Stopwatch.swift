/// The time elapsed on any `Clock<Duration>` since the stopwatch was made, as a `Duration`,
/// so that code holding `any Clock<Duration>` can compare instants without knowing the
/// clock's `Instant` type.
struct Stopwatch: Sendable {
  private let read: @Sendable () -> Duration

  init(_ clock: any Clock<Duration>) {
    read = Self.reader(clock)
  }

  private static func reader<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
    let start = clock.now
    return { start.duration(to: clock.now) }
  }

  /// The time since the stopwatch was made.
  var elapsed: Duration { read() }
}

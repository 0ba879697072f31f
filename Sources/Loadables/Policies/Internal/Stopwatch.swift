#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// The time elapsed on any `Clock<Duration>` since the stopwatch was made, as a `Duration`,
/// so that code holding `any Clock<Duration>` can compare instants without knowing the
/// clock's `Instant` type.
///
/// The continuous clock (the default load clock) is recognised once, when the stopwatch is
/// made, and read directly from the system clock it is built on: a fresh read of a shared
/// entry asks the time at every load, and going through the existential clock's witnesses
/// (or `ContinuousClock.Instant`, whose layout is resilient) cost more than the rest of the
/// staleness check. Elapsed times are only ever compared with each other and with durations,
/// so reading the same system clock as `ContinuousClock` is all that matters.
struct Stopwatch: Sendable {
  /// The continuous clock's reading at the start, in nanoseconds; `nil` for any other clock.
  private let continuousStart: Int64?
  /// Any other clock, read through a closure specialised for it.
  private let read: (@Sendable () -> Duration)?

  init(_ clock: any Clock<Duration>) {
    if let start = Self.continuousNanoseconds(clock) {
      continuousStart = start
      read = nil
    } else {
      continuousStart = nil
      read = Self.reader(clock)
    }
  }

  private static func reader<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
    let start = clock.now
    return { start.duration(to: clock.now) }
  }

  /// The continuous clock's system reading, in nanoseconds, when `clock` is a
  /// `ContinuousClock` on a platform whose system clock this reads as the standard library
  /// does; `nil` otherwise.
  private static func continuousNanoseconds(_ clock: any Clock<Duration>) -> Int64? {
    #if canImport(Darwin) || (os(Linux) && canImport(Glibc))
      // The dynamic type compared, not `is`: a cast from an existential is costly, and a load
      // that reports its events makes a stopwatch as it starts.
      guard type(of: clock) == ContinuousClock.self else { return nil }
      return continuousNow()
    #else
      return nil
    #endif
  }

  #if canImport(Darwin) || (os(Linux) && canImport(Glibc))
    private static func continuousNow() -> Int64 {
      var time = timespec()
      #if canImport(Darwin)
        clock_gettime(CLOCK_MONOTONIC_RAW, &time)
      #else
        clock_gettime(CLOCK_BOOTTIME, &time)
      #endif
      return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }
  #endif

  /// The time since the stopwatch was made.
  var elapsed: Duration {
    #if canImport(Darwin) || (os(Linux) && canImport(Glibc))
      if let continuousStart { return .nanoseconds(Self.continuousNow() &- continuousStart) }
    #endif
    return read?() ?? .zero
  }
}

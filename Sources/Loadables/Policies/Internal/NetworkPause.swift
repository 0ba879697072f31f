/// The timeouts a load's wait for the network pauses: bound as a task-local value around a
/// policy that waits for the network and has a timeout, so that each ``race(_:limit:clock:pause:)``
/// inside it gets a ``TimerPause`` and the wait (``LoadPolicy/waitsForNetwork(_:)``) reaches
/// every one of them, however the policies are nested.
///
/// Unbound (`nil`) everywhere else: a timeout that finds no chain races as it always did.
enum NetworkPause {
  static let current = TaskLocal<PauseChain?>(wrappedValue: nil)
}

/// The timer pauses of the timeouts around the code that reads it, outermost first.
struct PauseChain: Sendable {
  let pauses: [TimerPause]

  /// The chain with `pause` added inside.
  func adding(_ pause: TimerPause) -> PauseChain { PauseChain(pauses: pauses + [pause]) }
}

/// The ledger of one timeout's race: how long the work it limits has waited for the network.
/// The timer's deadline moves on by that much, so a timeout never runs down while its load
/// waits.
@MainActor
final class TimerPause: Sendable {
  /// Measures the race on the timeout's clock, from its start.
  nonisolated let stopwatch: Stopwatch
  /// How many waits are under way (a block may nest one in another with `run`).
  private var depth = 0
  /// When the current pause began, on ``stopwatch``.
  private var pausedAt: Duration = .zero
  /// The time spent paused, the current pause excluded.
  private(set) var pausedTotal: Duration = .zero
  /// The timer, waiting for the pause to end.
  private let resumers = WakeList()

  nonisolated init(clock: any Clock<Duration>) {
    stopwatch = Stopwatch(clock)
  }

  var isPaused: Bool { depth > 0 }

  func pause() {
    depth += 1
    if depth == 1 { pausedAt = stopwatch.elapsed }
  }

  func resume() {
    guard depth > 0 else { return }
    depth -= 1
    guard depth == 0 else { return }
    pausedTotal += stopwatch.elapsed - pausedAt
    resumers.resumeAll()
  }

  /// Returns once no pause is under way, or as soon as the calling task is cancelled.
  func untilResumed() async {
    await resumers.wait(until: { !isPaused })
  }
}

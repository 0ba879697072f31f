/// The block a load runs, in one of its two shapes.
@usableFromInline
enum Work<State: EngineState> {
  /// A block whose return value completes the load.
  case returning(@MainActor () async throws -> State.Output)

  /// A block that writes states through `yield` and whose return writes nothing more.
  case yielding(@MainActor (_ yield: (State) -> Void) async throws -> Void)
}

/// Processed-style interrupts: `handler` runs at each accumulated delay while the load runs,
/// and may throw to end it.
@usableFromInline
struct Interrupts {
  @usableFromInline let delays: [Duration]
  @usableFromInline let handler: @MainActor (_ accumulatedDelay: Duration) throws -> Void

  @usableFromInline init?(
    _ delays: [Duration], _ handler: @escaping @MainActor (Duration) throws -> Void
  ) {
    guard !delays.isEmpty else { return nil }
    for delay in delays {
      precondition(
        delay >= .zero,
        "Loadables: interrupts must not be negative, got \(delay) in \(delays)"
      )
    }
    self.delays = delays
    self.handler = handler
  }
}

/// The states of one property or key path as an asynchronous sequence: the current state
/// first, then every state the library writes to it, in order, none merged away.
///
/// Any number of observers can iterate at once; each `states` access is a subscription of
/// its own. Use it where Observation does not reach — a loop in a task, a log, a test:
///
/// ```swift
/// for await state in model.$numbers.states {
///   print(state)
/// }
/// ```
///
/// The sequence does not finish on its own. A subscription lasts until the sequence is
/// released or the task iterating it is cancelled: make it where you iterate it, as in
/// `for await state in model.$numbers.states`, so that it ends with the loop. For the key-path forms only states the library writes are delivered,
/// not assignments your own code makes to the property, and the library keeps the key
/// path's slot while a subscription lasts.
public struct StateStream<State: Sendable>: AsyncSequence, Sendable {
  public typealias Element = State

  private let stream: AsyncStream<State>

  /// A subscription to `slot`'s states, starting with `current`. `token`, if any, is kept
  /// while the subscription lasts (a shared entry's observation).
  @MainActor
  init<Slot: LoadMachine>(slot: Slot, current: State, holding token: SharedObservation? = nil)
  where Slot.State == State {
    let (stream, continuation) = AsyncStream.makeStream(
      of: State.self, bufferingPolicy: .unbounded)
    continuation.yield(current)
    let watch = StateWatch(slot: slot) { continuation.yield($0) }
    continuation.onTermination = { _ in
      Task { @MainActor in
        watch.cancel()
        token?.end()
      }
    }
    self.stream = stream
  }

  /// Creates an iterator over the states.
  /// A stream of `current`, then every state `subscribe` hands its callback, until the
  /// subscription ends; `subscribe` returns what ends it. Holds `token` meanwhile.
  @MainActor
  init(
    current: State,
    holding token: SharedObservation?,
    subscribe: (_ yield: @escaping @MainActor (State) -> Void) -> @MainActor () -> Void
  ) {
    let (stream, continuation) = AsyncStream.makeStream(
      of: State.self, bufferingPolicy: .unbounded)
    continuation.yield(current)
    let cancel = subscribe { continuation.yield($0) }
    continuation.onTermination = { _ in
      Task { @MainActor in
        cancel()
        token?.end()
      }
    }
    self.stream = stream
  }

  public func makeAsyncIterator() -> AsyncStream<State>.Iterator {
    stream.makeAsyncIterator()
  }
}

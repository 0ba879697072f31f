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
public struct StateStream<State>: AsyncSequence {
  public typealias Element = State

  private let stream: AsyncStream<State>

  /// A subscription to `slot`'s states, starting with `current`. `token`, if any, is kept
  /// while the subscription lasts (a shared entry's observation).
  @MainActor
  init<Slot: LoadMachine>(slot: Slot, current: State, holding token: SharedObservation? = nil)
  where Slot.State == State {
    let (stream, continuation) = AsyncStream.makeStream(
      of: State.self, bufferingPolicy: .unbounded)
    Self.send(current, to: continuation)
    // Yields, and ends, through local closures: a `Sendable` closure that names `State`
    // itself would need `State`'s metatype to be `Sendable`, which a state whose kind has a
    // main-actor-isolated conformance (an app module's `enum Action: Equatable`) is not.
    let yield: (State) -> Void = { Self.send($0, to: continuation) }
    let watch = StateWatch(slot: slot) { yield($0) }
    let end: @Sendable () -> Void = {
      Task { @MainActor in
        watch.cancel()
        token?.end()
      }
    }
    continuation.onTermination = Self.termination(end)
    self.stream = stream
  }

  /// Yields `state`, written on the main actor, where the stream was made. Unchecked,
  /// because the library's generic code cannot say that `State` is `Sendable` without
  /// turning away an app module's `enum Action: Equatable, Sendable` (its `Equatable` is
  /// main-actor isolated under Xcode 26's defaults, and Swift lets no type parameter be both).
  /// Such a state is `Sendable` where it is declared; a stream of one that is not is not
  /// `Sendable` either (see the extension below), so it stays on the main actor.
  private static func send(_ state: State, to continuation: AsyncStream<State>.Continuation) {
    nonisolated(unsafe) let state = state
    continuation.yield(state)
  }

  /// `end` as the stream's termination handler, made outside the main actor (see `yield`).
  private nonisolated static func termination(
    _ end: @escaping @Sendable () -> Void
  ) -> @Sendable (AsyncStream<State>.Continuation.Termination) -> Void {
    { _ in end() }
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
    Self.send(current, to: continuation)
    let yield: (State) -> Void = { Self.send($0, to: continuation) }
    let cancel = subscribe { yield($0) }
    let end: @Sendable () -> Void = {
      Task { @MainActor in
        cancel()
        token?.end()
      }
    }
    continuation.onTermination = Self.termination(end)
    self.stream = stream
  }

  public func makeAsyncIterator() -> AsyncStream<State>.Iterator {
    stream.makeAsyncIterator()
  }
}

/// A stream of `Sendable` states can be handed to another task; any stream can be read on
/// the main actor, where the states are written.
extension StateStream: Sendable where State: Sendable {}

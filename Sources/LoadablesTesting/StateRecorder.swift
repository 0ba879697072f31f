@_spi(Testing) public import Loadables

/// Records every state a form goes through — in order, none coalesced away — and lets a
/// test wait for a state with a deadline. It takes any form's `LoadHandle`: a `@Loadable`,
/// `@Process` or `@Paged` property (`$feed`), a key path of a `LoadableSupport` /
/// `ProcessSupport` class (`model.handle(\.feed)`), a loader object, a shared entry or a
/// shared paged entry (`entry.handle`, or the entry itself).
///
/// Observation merges changes that happen back to back; a recorder does not: it sees each
/// state the moment the library writes it. It records the current state first.
///
/// <!-- compile: context NumbersModel -->
/// ```swift
/// let model = NumbersModel(api: .stub([1, 2, 3]))
/// let recorder = StateRecorder(model.$numbers)
/// model.refresh()
/// try await recorder.wait(until: \.isLoaded)
/// XCTAssertEqual(recorder.states, [.absent, .loading, .loaded([1, 2, 3])])
/// recorder.stop()
/// ```
///
/// > Important: Call ``stop()`` when done with a recorder of a key path: while it records,
/// > the library keeps that key path's slot for the instance.
@MainActor
public final class StateRecorder<State> {
  /// Every state recorded so far, oldest first; the first is the state when recording began.
  public private(set) var states: [State]

  private var watch: StateWatch?
  private var waiters: [Waiter] = []
  private var nextWaiterID = 0

  private struct Waiter {
    let id: Int
    let isSatisfied: @MainActor (StateRecorder) -> Bool
    let continuation: CheckedContinuation<Void, any Error>
  }

  private init(initial: State, subscribe: (@escaping @MainActor (State) -> Void) -> StateWatch) {
    states = [initial]
    watch = subscribe { [weak self] state in self?.record(state) }
  }

  /// Records the states the library writes through any form's handle: a property's
  /// (`$feed.handle`), a key path's (`model.handle(\.feed)`), a loader object's, a shared
  /// entry's or a shared paged entry's (`entry.handle`).
  ///
  /// <!-- compile: context ModelTests -->
  /// ```swift
  /// let post = store.loader(for: ["post", 1]) { try await api.post(1) }
  /// let recorder = StateRecorder(post.handle)
  /// await post.load()
  /// XCTAssertEqual(recorder.states, [.absent, .loading, .loaded(post1)])
  /// ```
  ///
  /// A loader of your own (not a `BaseLoader`) is recorded through its `states` stream, so
  /// each state arrives on a later turn of the main actor; wait for it with ``wait(until:timeout:)``.
  ///
  /// - Parameter handle: The form's handle.
  public convenience init(_ handle: LoadHandle<State>) {
    self.init(initial: handle.state) { handle.watchStates($0) }
  }

  /// Records the states of a shared entry: a `SharedLoader` or a `SharedPagedLoader`, as its
  /// ``init(_:)-(LoadHandle<State>)`` does. Recording is not observing: the entry counts no
  /// observer for it.
  ///
  /// - Parameter entry: The entry.
  public convenience init<Value>(_ entry: SharedEntry<Value, State>)
  where State: SharedEntryState & Sendable, State.Value == Value {
    self.init(entry.handle)
  }

  /// Records the states of a `@Loadable` property; pass its projected value (`$numbers`).
  ///
  /// - Parameter binding: The property's projected value.
  public convenience init<Value>(_ binding: Loadable<Value>.Binding)
  where State == LoadableState<Value> {
    self.init(initial: binding.wrappedValue) { binding.watchStates($0) }
  }

  /// Records the states of a `@Process` property; pass its projected value (`$saving`).
  ///
  /// - Parameter binding: The property's projected value.
  public convenience init<Kind>(_ binding: Process<Kind>.Binding)
  where State == ProcessState<Kind> {
    self.init(initial: binding.wrappedValue) { binding.watchStates($0) }
  }

  /// Records the states the library writes to a `LoadableState` key path of an instance.
  ///
  /// Assignments your own code makes to the property are not recorded.
  ///
  /// - Parameters:
  ///   - owner: The instance.
  ///   - keyPath: The key path of its state.
  public convenience init<Owner: LoadableSupport, Value>(
    _ owner: Owner,
    _ keyPath: ReferenceWritableKeyPath<Owner, LoadableState<Value>>
  ) where State == LoadableState<Value> {
    self.init(initial: owner[keyPath: keyPath]) { owner.watchStates(keyPath, $0) }
  }

  /// Records the states the library writes to a `ProcessState` key path of an instance.
  ///
  /// - Parameters:
  ///   - owner: The instance.
  ///   - keyPath: The key path of its state.
  public convenience init<Owner: ProcessSupport, Kind: Equatable>(
    _ owner: Owner,
    _ keyPath: ReferenceWritableKeyPath<Owner, ProcessState<Kind>>
  ) where State == ProcessState<Kind> {
    self.init(initial: owner[keyPath: keyPath]) { owner.watchStates(keyPath, $0) }
  }

  /// Records the states of a loader object (a ``Loadables/BaseLoader`` or one of its
  /// subclasses).
  ///
  /// - Parameter loader: The loader.
  public convenience init<Value>(_ loader: BaseLoader<Value>)
  where State == LoadableState<Value> {
    self.init(loader.handle)
  }

  /// Records the states of a `@Paged` list; pass its projected value (`$feed`).
  ///
  /// - Parameter binding: The property's projected value.
  public convenience init<Item, Cursor>(_ binding: Paged<Item, Cursor>.Binding)
  where State == PagedState<Item, Cursor> {
    self.init(initial: binding.wrappedValue) { binding.watchStates($0) }
  }

  /// Records the states the library writes to a `PagedState` key path of an instance.
  ///
  /// - Parameters:
  ///   - owner: The instance.
  ///   - keyPath: The key path of its list.
  public convenience init<Owner: LoadableSupport, Item: Sendable, Cursor: Equatable & Sendable>(
    _ owner: Owner,
    _ keyPath: ReferenceWritableKeyPath<Owner, PagedState<Item, Cursor>>
  ) where State == PagedState<Item, Cursor> {
    self.init(initial: owner[keyPath: keyPath]) { owner.watchStates(keyPath, $0) }
  }

  /// Records the states of a ``Loadables/PagedLoader``.
  ///
  /// - Parameter loader: The loader.
  public convenience init<Item, Cursor>(_ loader: PagedLoader<Item, Cursor>)
  where State == PagedState<Item, Cursor> {
    self.init(loader.handle)
  }

  /// The most recent state.
  public var last: State { states[states.count - 1] }

  /// Stops recording. States written afterwards are not recorded.
  public func stop() {
    watch?.cancel()
    watch = nil
  }

  // MARK: - Waiting

  /// Waits until the most recent state satisfies `predicate`, and returns it.
  ///
  /// Returns at once when the current state already does.
  ///
  /// - Parameters:
  ///   - predicate: The condition, such as `\.isLoaded`.
  ///   - timeout: How long to wait before failing; must be positive.
  /// - Returns: The state that satisfied the predicate.
  /// - Throws: ``StateRecorderTimeout``, whose message names the states seen and the last
  ///   one, when no state satisfied `predicate` in time; `CancellationError` when the waiting
  ///   task is cancelled.
  @discardableResult
  public func wait(
    until predicate: @escaping @MainActor (State) -> Bool,
    timeout: Duration = .seconds(5)
  ) async throws -> State {
    try await wait(timeout: timeout, for: "a state that satisfies the condition") {
      predicate($0.last)
    }
    return last
  }

  /// Waits until `count` states in all have been recorded (the initial one included), and
  /// returns them.
  ///
  /// - Parameters:
  ///   - count: The number of states to wait for; must be at least 1.
  ///   - timeout: How long to wait before failing; must be positive.
  /// - Returns: The first `count` recorded states.
  /// - Throws: ``StateRecorderTimeout`` when fewer states were recorded in time.
  @discardableResult
  public func wait(forCount count: Int, timeout: Duration = .seconds(5)) async throws
    -> [State]
  {
    guard count >= 1 else {
      throw StateRecorderUsageError("wait(forCount:): count must be at least 1, got \(count)")
    }
    try await wait(timeout: timeout, for: "\(count) states") { $0.states.count >= count }
    return Array(states.prefix(count))
  }

  /// Returns once `turns` turns of other work have passed with no new state recorded, and
  /// throws when one is: the "nothing more is written" check.
  ///
  /// A turn lets work waiting on the main actor and on the global executor run once, as a
  /// load's task, a clock's woken sleeper or an observer's callback would. A late write — a
  /// superseded load's answer, a retry that flashes `.error`, a refresh nobody asked for —
  /// comes within a few turns; a passing check costs `turns` turns and never real time.
  ///
  /// <!-- compile: context ModelTests -->
  /// ```swift
  /// model.refresh()
  /// try await recorder.wait(until: \.isLoaded)
  /// try await recorder.expectNoMoreStates()  // the superseded load wrote nothing late
  /// ```
  ///
  /// - Parameter turns: How many turns to watch; at least 1. 100 by default, which is many
  ///   times what a load needs to go from its answer to its write.
  /// - Throws: ``StateRecorderUnexpectedState`` naming the states recorded meanwhile and
  ///   every state seen; ``StateRecorderUsageError`` for `turns` below 1.
  public func expectNoMoreStates(turns: Int = 100) async throws {
    guard turns >= 1 else {
      throw StateRecorderUsageError(
        "expectNoMoreStates(turns:): turns must be at least 1, got \(turns)")
    }
    let count = states.count
    for turn in 1...turns {
      await takeTurn()
      if states.count > count {
        throw StateRecorderUnexpectedState(after: turn, expected: count, seen: states)
      }
    }
  }

  private func wait(
    timeout: Duration,
    for description: String,
    _ isSatisfied: @escaping @MainActor (StateRecorder) -> Bool
  ) async throws {
    guard timeout > .zero else {
      throw StateRecorderUsageError("wait: timeout must be positive, got \(timeout)")
    }
    if isSatisfied(self) { return }
    nextWaiterID += 1
    let id = nextWaiterID
    let timer = Task { [weak self] in
      try? await ContinuousClock().sleep(for: timeout)
      guard !Task.isCancelled, let self else { return }
      self.fail(
        id, StateRecorderTimeout(waitingFor: description, after: timeout, seen: self.states))
    }
    defer { timer.cancel() }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        waiters.append(Waiter(id: id, isSatisfied: isSatisfied, continuation: continuation))
      }
    } onCancel: {
      Task { @MainActor [weak self] in self?.fail(id, CancellationError()) }
    }
  }

  private func record(_ state: State) {
    states.append(state)
    let satisfied = waiters.filter { $0.isSatisfied(self) }
    waiters.removeAll { $0.isSatisfied(self) }
    for waiter in satisfied { waiter.continuation.resume() }
  }

  private func fail(_ id: Int, _ error: any Error) {
    guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
    waiters.remove(at: index).continuation.resume(throwing: error)
  }
}

/// A recorder's wait ran out of time. Its description names what it waited for, every state
/// it saw, and the last one.
public struct StateRecorderTimeout: Error, CustomStringConvertible {
  /// A message for the test failure.
  public let description: String

  init<State>(waitingFor expected: String, after timeout: Duration, seen: [State]) {
    let states = seen.map { String(reflecting: $0) }
    description =
      "timed out after \(timeout) waiting for \(expected); "
      + "states seen: [\(states.joined(separator: ", "))]; last: \(states.last ?? "none")"
  }
}

/// ``StateRecorder/expectNoMoreStates(turns:)`` saw a state recorded. Its description names
/// the turn, the states recorded since the check began, and every state seen.
public struct StateRecorderUnexpectedState: Error, CustomStringConvertible {
  /// A message for the test failure.
  public let description: String

  init<State>(after turn: Int, expected count: Int, seen: [State]) {
    let states = seen.map { String(reflecting: $0) }
    let new = states.dropFirst(count)
    description =
      "expected no more states, but \(new.count == 1 ? "one was" : "\(new.count) were") "
      + "recorded within \(turn) \(turn == 1 ? "turn" : "turns"): "
      + "[\(new.joined(separator: ", "))]; states seen: [\(states.joined(separator: ", "))]"
  }
}

/// A testing helper was called with input it cannot use; the message names the parameter.
public struct StateRecorderUsageError: Error, CustomStringConvertible {
  /// The message.
  public let description: String

  init(_ description: String) { self.description = description }
}

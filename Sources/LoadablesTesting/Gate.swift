import Foundation

/// A point where the code under test waits until the test lets it through, so a test can
/// hold a load in its block without sleeping.
///
/// The stub calls ``pass()``; the test awaits ``arrival(count:timeout:)`` to know the code got
/// there, looks at what it expects while the load is held, then opens the gate with a value
/// or fails it with an error. Once opened or failed, the gate stays that way for every later
/// caller.
///
/// <!-- compile: context ModelTests -->
/// ```swift
/// let gate = Gate<[Int]>()
/// model.$numbers.start { try await gate.pass() }
/// try await gate.arrival()
/// XCTAssertEqual(model.numbers, .loading)
/// gate.open([1, 2, 3])
/// ```
///
/// A task cancelled while it waits in ``pass()`` throws `CancellationError` at once, as a
/// well-behaved network call does; ``passIgnoringCancellation()`` keeps waiting, as careless
/// code does.
public final class Gate<Value: Sendable>: @unchecked Sendable {
  // Safe to share: every stored property is read and written only while holding `lock`, and
  // each continuation is resumed exactly once, outside it.
  private let lock = NSLock()
  private var nextID = 0
  private var waiters: [Int: CheckedContinuation<Value, any Error>] = [:]
  private var cancelledIDs: Set<Int> = []
  private var arrivalWaiters:
    [(id: Int, count: Int, continuation: CheckedContinuation<Void, any Error>)] = []
  private var arrivedCount = 0
  /// Arrival waiters given an id that have not taken their place yet, and the error each
  /// must throw when it was failed (cancelled, or out of time) before it got there.
  private var enteringArrivals: [Int: (any Error)?] = [:]
  private var outcome: Result<Value, any Error>?

  /// Creates a closed gate.
  public init() {}

  /// How many times code has reached the gate.
  public var arrived: Int { lock.withLock { arrivedCount } }

  /// How many callers are waiting at the gate now.
  public var waiting: Int { lock.withLock { waiters.count } }

  /// Waits at the gate until the test opens or fails it.
  ///
  /// - Returns: The value the gate was opened with.
  /// - Throws: The error the gate was failed with, or `CancellationError` as soon as the
  ///   waiting task is cancelled.
  public func pass() async throws -> Value {
    try await wait(honoringCancellation: true)
  }

  /// Waits at the gate, ignoring cancellation, as code that never checks for it does.
  ///
  /// - Returns: The value the gate was opened with.
  /// - Throws: The error the gate was failed with.
  public func passIgnoringCancellation() async throws -> Value {
    try await wait(honoringCancellation: false)
  }

  /// Returns once code has reached the gate `count` times in all.
  ///
  /// - Parameters:
  ///   - count: How many arrivals to wait for, counting from the gate's creation.
  ///   - timeout: How long, in real time, to wait before failing; must be positive.
  /// - Throws: ``WaitTimeout`` naming the count and the arrivals seen, when fewer arrived in
  ///   time; `CancellationError` when the waiting task is cancelled.
  public func arrival(count: Int = 1, timeout: Duration = .seconds(5)) async throws {
    guard timeout > .zero else {
      throw WaitTimeout("Gate.arrival(count:timeout:): timeout must be positive, got \(timeout)")
    }
    let id = lock.withLock {
      nextID += 1
      enteringArrivals[nextID] = .some(nil)
      return nextID
    }
    let timer = Task { [weak self] in
      try? await ContinuousClock().sleep(for: timeout)
      guard !Task.isCancelled, let self else { return }
      self.failArrival(id) { arrived, waiting in
        WaitTimeout(
          "Gate.arrival(count: \(count)): waited \(timeout) for \(count) "
            + "\(count == 1 ? "arrival" : "arrivals"); saw \(arrived) (\(waiting) waiting "
            + "now). Did the code under test reach the gate?")
      }
    }
    defer { timer.cancel() }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let done: Result<Void, any Error>? = lock.withLock {
          if let early = enteringArrivals.removeValue(forKey: id), let early {
            return .failure(early)
          }
          if arrivedCount >= count { return .success(()) }
          arrivalWaiters.append((id, count, continuation))
          return nil
        }
        if let done { continuation.resume(with: done) }
      }
    } onCancel: {
      failArrival(id) { _, _ in CancellationError() }
    }
  }

  /// Lets the waiting callers, and every later one, through with `value`.
  ///
  /// - Parameter value: What ``pass()`` returns.
  public func open(_ value: Value) { resolveAll(.success(value)) }

  /// Makes the waiting callers, and every later one, throw `error`.
  ///
  /// - Parameter error: What ``pass()`` throws.
  public func fail(_ error: any Error) { resolveAll(.failure(error)) }

  private func failArrival(_ id: Int, _ error: (_ arrived: Int, _ waiting: Int) -> any Error) {
    typealias Waiter = (id: Int, count: Int, continuation: CheckedContinuation<Void, any Error>)
    let (waiter, arrived, waiting): (Waiter?, Int, Int) = lock.withLock {
      guard let index = arrivalWaiters.firstIndex(where: { $0.id == id }) else {
        // Not in place yet: it throws as it gets there.
        if enteringArrivals[id] != nil {
          enteringArrivals[id] = .some(error(arrivedCount, waiters.count))
        }
        return (nil, arrivedCount, waiters.count)
      }
      return (arrivalWaiters.remove(at: index), arrivedCount, waiters.count)
    }
    waiter?.continuation.resume(throwing: error(arrived, waiting))
  }

  private func wait(honoringCancellation: Bool) async throws -> Value {
    let id = lock.withLock {
      nextID += 1
      return nextID
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let (immediate, reached) = lock.withLock {
          () -> (Result<Value, any Error>?, [CheckedContinuation<Void, any Error>]) in
          arrivedCount += 1
          let reached = arrivalWaiters.filter { $0.count <= arrivedCount }.map(\.continuation)
          arrivalWaiters.removeAll { $0.count <= arrivedCount }
          if let outcome { return (outcome, reached) }
          if honoringCancellation, cancelledIDs.contains(id) {
            return (.failure(CancellationError()), reached)
          }
          waiters[id] = continuation
          return (nil, reached)
        }
        for arrival in reached { arrival.resume() }
        if let immediate { continuation.resume(with: immediate) }
      }
    } onCancel: {
      guard honoringCancellation else { return }
      let waiter = lock.withLock {
        if let waiter = waiters.removeValue(forKey: id) { return Optional(waiter) }
        cancelledIDs.insert(id)
        return nil
      }
      waiter?.resume(throwing: CancellationError())
    }
  }

  private func resolveAll(_ result: Result<Value, any Error>) {
    let toResume = lock.withLock {
      outcome = result
      let all = Array(waiters.values)
      waiters = [:]
      return all
    }
    for waiter in toResume { waiter.resume(with: result) }
  }
}

extension Gate where Value == Void {
  /// Lets the waiting callers, and every later one, through.
  public func open() { open(()) }
}

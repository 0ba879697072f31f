import Foundation
import XCTest

/// A gate that a load's block waits at until the test opens it.
///
/// Tests use gates instead of sleeps: the block calls `pass()` (or
/// `passIgnoringCancellation()`), the test awaits `arrival()` to know the block got there,
/// then opens the gate with a value or an error. Once opened, the gate stays open.
final class Gate<Value: Sendable>: @unchecked Sendable {
  // Safe: every stored property is read and written only while holding `lock`.
  private let lock = NSLock()
  private var nextID = 0
  private var waiters: [Int: CheckedContinuation<Value, any Error>] = [:]
  private var cancelledIDs: Set<Int> = []
  private var arrivalWaiters:
    [(id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  private var arrivedCount = 0
  private var outcome: Result<Value, any Error>?

  init() {}

  /// How many times a block has reached the gate.
  var arrived: Int { lock.withLock { arrivedCount } }

  /// How many blocks are waiting at the gate now.
  var waiting: Int { lock.withLock { waiters.count } }

  /// Waits at the gate; throws `CancellationError` as soon as the waiting task is cancelled.
  func pass() async throws -> Value {
    try await wait(honoringCancellation: true)
  }

  /// Waits at the gate, ignoring cancellation, as careless code does.
  func passIgnoringCancellation() async throws -> Value {
    try await wait(honoringCancellation: false)
  }

  /// Returns once `count` blocks in all have reached the gate.
  ///
  /// Never hangs a test: when they have not arrived within `timeout` of real time, it
  /// records a failure naming how many did, at the caller's line, and returns.
  func arrival(
    count: Int = 1, timeout: Duration = .seconds(30), file: StaticString = #filePath,
    line: UInt = #line
  ) async {
    let id = lock.withLock {
      nextID += 1
      return nextID
    }
    let deadline = Task.detached { [weak self] in
      try await Task.sleep(for: timeout)
      guard let self else { return }
      let (waiter, arrived) = self.lock.withLock {
        let index = self.arrivalWaiters.firstIndex { $0.id == id }
        return (index.map { self.arrivalWaiters.remove(at: $0).continuation }, self.arrivedCount)
      }
      guard let waiter else { return }
      XCTFail(
        "Gate.arrival(count: \(count)) waited \(timeout); \(arrived) arrived", file: file,
        line: line)
      waiter.resume()
    }
    defer { deadline.cancel() }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let done = lock.withLock {
        if arrivedCount >= count { return true }
        arrivalWaiters.append((id, count, continuation))
        return false
      }
      if done { continuation.resume() }
    }
  }

  /// Lets the waiting blocks (and every later one) through with `value`.
  func open(_ value: Value) { resolveAll(.success(value)) }

  /// Makes the waiting blocks (and every later one) throw `error`.
  func fail(_ error: any Error) { resolveAll(.failure(error)) }

  private func wait(honoringCancellation: Bool) async throws -> Value {
    let id = lock.withLock {
      nextID += 1
      return nextID
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let (immediate, reached) = lock.withLock {
          () -> (Result<Value, any Error>?, [CheckedContinuation<Void, Never>]) in
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
  /// Lets the waiting blocks through.
  func open() { open(()) }
}

/// An error for tests, equatable by its code.
struct TestError: Error, Equatable {
  var code = 0
}

/// An error for tests that is not equatable.
struct OpaqueError: Error {}

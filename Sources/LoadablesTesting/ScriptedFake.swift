import Foundation

/// A fake for one call of an API: it answers each call with the next reply the test queued
/// — a value, an error, or "hold until released" — and records the calls.
///
/// Make one per endpoint, with what a call receives as `Call` (its arguments, or `Void`)
/// and what it returns as `Value`, and let the stub forward to it:
///
/// <!-- compile: context ScriptedSearch -->
/// ```swift
/// final class FakePostsAPI: PostsAPI {
///   let feed = ScriptedFake<Void, [Post]>()
///   let search = ScriptedFake<String, [Post]>()
///   func posts() async throws -> [Post] { try await feed.call() }
///   func search(_ text: String) async throws -> [Post] { try await search.call(text) }
/// }
///
/// api.search.reply(.error(URLError(.timedOut)), .hold, .value(posts))
/// model.search("swift")                  // fails, then is retried and held
/// try await api.search.release(returning: newer)   // the held call answers now
/// XCTAssertEqual(api.search.calls, ["swift", "swift"])
/// ```
///
/// A call with no reply queued uses the `otherwise` reply given to the initializer; with
/// none, it throws an ``UnscriptedCall`` error naming the call, so the load fails with a
/// message instead of the test hanging. A held call whose task is cancelled throws
/// `CancellationError` at once, as a well-behaved network call does.
public final class ScriptedFake<Call: Sendable, Value: Sendable>: @unchecked Sendable {
  // Safe to share: every stored property is read and written only while holding `lock`, and
  // each continuation is resumed exactly once, outside it.

  /// How the fake answers one call.
  public enum Reply: Sendable {
    /// Returns the value.
    case value(Value)
    /// Throws the error.
    case error(any Error)
    /// Waits until the test releases it with ``ScriptedFake/release(returning:timeout:)`` or
    /// ``ScriptedFake/release(throwing:timeout:)``.
    case hold
  }

  private let lock = NSLock()
  private var replies: [Reply]
  private let otherwise: Reply?
  private var recorded: [Call] = []
  private var nextID = 0
  /// Calls held now, oldest first.
  private var heldCalls = ContinuationQueue<Value>()

  /// Creates a fake that answers with `replies`, in order, then with `otherwise`.
  ///
  /// - Parameters:
  ///   - replies: The replies to the first calls, in order.
  ///   - otherwise: The reply to every call once `replies` are used up; `nil` (the default)
  ///     makes such a call throw ``UnscriptedCall``.
  public init(_ replies: [Reply] = [], otherwise: Reply? = nil) {
    self.replies = replies
    self.otherwise = otherwise
  }

  /// The calls made so far, oldest first.
  public var calls: [Call] { lock.withLock { recorded } }

  /// How many calls are held now, waiting to be released.
  public var held: Int { lock.withLock { heldCalls.count } }

  /// Queues replies for the next calls, after those already queued.
  ///
  /// - Parameter replies: The replies, in order.
  public func reply(_ replies: Reply...) {
    lock.withLock { self.replies += replies }
  }

  /// Records the call and answers it with the next reply.
  ///
  /// - Parameter call: What the call received, such as its arguments.
  /// - Returns: The value of the reply, or of the release of a held call.
  /// - Throws: The error of the reply or the release; ``UnscriptedCall`` when no reply is
  ///   queued and there is no `otherwise`; `CancellationError` when the task is cancelled
  ///   while the call is held.
  public func call(_ call: Call) async throws -> Value {
    let (id, reply, number): (Int, Reply?, Int) = lock.withLock {
      recorded.append(call)
      nextID += 1
      let reply = replies.isEmpty ? otherwise : replies.removeFirst()
      // Held calls are released in the order they were made, even when a younger call's
      // task gets in line first.
      if case .hold = reply { heldCalls.expect(nextID) }
      return (nextID, reply, recorded.count)
    }
    switch reply {
    case .value(let value): return value
    case .error(let error): throw error
    case nil: throw UnscriptedCall(number: number, call: call, fake: "\(Self.self)")
    case .hold:
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          let cancelled = lock.withLock {
            if heldCalls.takeCancellation(id) { return true }
            heldCalls.append(id, continuation)
            return false
          }
          if cancelled { continuation.resume(throwing: CancellationError()) }
        }
      } onCancel: {
        lock.withLock { heldCalls.cancel(id) }?.resume(throwing: CancellationError())
      }
    }
  }

  /// Returns once `count` calls have been made in all.
  ///
  /// - Parameters:
  ///   - count: How many calls to wait for, counting from the fake's creation.
  ///   - timeout: How long, in real time, to wait before failing; must be positive.
  /// - Throws: ``WaitTimeout`` naming the calls seen when fewer came in time;
  ///   `CancellationError` when the waiting task is cancelled.
  public func arrival(count: Int = 1, timeout: Duration = .seconds(5)) async throws {
    let what = "ScriptedFake.arrival(count: \(count))"
    guard timeout > .zero else {
      throw WaitTimeout("\(what): timeout must be positive, got \(timeout)")
    }
    try await poll(
      timeout: timeout,
      failure: { "\(what): waited \(timeout) for \(counted(count, "call")); \(describe())" },
      condition: { lock.withLock { recorded.count >= count } })
  }

  /// Lets the oldest held call return `value`, waiting for a call to be held first.
  ///
  /// - Parameters:
  ///   - value: What the held call returns.
  ///   - timeout: How long, in real time, to wait for a held call; must be positive.
  /// - Throws: ``WaitTimeout`` naming the calls seen when no call was held in time.
  public func release(returning value: Value, timeout: Duration = .seconds(5)) async throws {
    try await releaseOldest(with: .success(value), timeout: timeout)
  }

  /// Makes the oldest held call throw `error`, waiting for a call to be held first.
  ///
  /// - Parameters:
  ///   - error: What the held call throws.
  ///   - timeout: How long, in real time, to wait for a held call; must be positive.
  /// - Throws: ``WaitTimeout`` naming the calls seen when no call was held in time.
  public func release(throwing error: any Error, timeout: Duration = .seconds(5)) async throws {
    try await releaseOldest(with: .failure(error), timeout: timeout)
  }

  private func releaseOldest(
    with result: Result<Value, any Error>, timeout: Duration
  ) async throws {
    let what = "ScriptedFake.release"
    guard timeout > .zero else {
      throw WaitTimeout("\(what): timeout must be positive, got \(timeout)")
    }
    var taken: CheckedContinuation<Value, any Error>?
    try await poll(
      timeout: timeout,
      failure: {
        "\(what): waited \(timeout) for a held call; \(describe()). Did you queue .hold?"
      },
      condition: {
        taken = lock.withLock { heldCalls.removeFirst() }
        return taken != nil
      })
    taken?.resume(with: result)
  }

  private func describe() -> String {
    lock.withLock {
      "saw \(counted(recorded.count, "call")) (\(recorded.map { "\($0)" }.joined(separator: ", "))), "
        + "\(heldCalls.count) held, \(counted(replies.count, "reply", plural: "replies")) queued"
    }
  }
}

extension ScriptedFake where Call == Void {
  /// Records a call that receives nothing and answers it with the next reply; see
  /// ``call(_:)``.
  ///
  /// - Returns: The value of the reply, or of the release of a held call.
  /// - Throws: The error of the reply or the release; ``UnscriptedCall`` when no reply is
  ///   queued and there is no `otherwise`; `CancellationError` when the task is cancelled
  ///   while the call is held.
  public func call() async throws -> Value { try await call(()) }
}

/// A ``ScriptedFake`` was called with no reply queued and no `otherwise` reply. The message
/// names the fake, the call and its number.
public struct UnscriptedCall: Error, CustomStringConvertible {
  /// The message.
  public let description: String

  init(number: Int, call: some Sendable, fake: String) {
    description =
      "\(fake): call \(number) (\(call)) has no reply queued; queue one with reply(_:) or "
      + "give the fake an otherwise: reply"
  }
}

import Foundation

/// The clock every policy, cache, debouncer and `interrupts:` timer uses when it is given
/// none: set it once for a test or for the whole app.
///
/// A test wraps its body in ``withLoadClock(_:isolation:operation:)``, and every load started
/// inside — with a retry, a timeout, a debounce, interrupts, a ``Debouncer`` or a
/// ``LoadCache`` that was given no clock — waits on the test's clock:
///
/// <!-- compile: context Model -->
/// ```swift
/// func testARefreshRetriesTwoSecondsApart() async throws {
///   let clock = ManualClock()
///   try await withLoadClock(clock) {
///     model.refresh()  // .retry(maxAttempts: 3, backoff: .constant(.seconds(2)))
///     try await clock.sleepers(count: 1)
///     clock.advance(by: .seconds(2))
///     // ...
///   }
/// }
/// ```
///
/// ## When the clock is read
///
/// The clock is chosen when time is first needed, not when a policy is written:
///
/// - A policy (`.retry`, `.timeout`, `.debounce(for:)`) reads ``current`` each time a load
///   runs it, so a policy kept in a `static let` still waits on the clock of the test that
///   runs it.
/// - The `interrupts:` forms read ``current`` when the load starts, in the caller's task, and
///   keep that clock for the load's interrupts.
/// - A ``Debouncer`` or a ``LoadCache`` reads ``current`` the first time it measures time,
///   and keeps that clock for its life: the times it stores are measured on it.
///
/// A clock passed explicitly (`clock:`) always wins.
///
/// ``current`` is the clock of the innermost ``withLoadClock(_:isolation:operation:)`` scope
/// of the task that asks. It is a task-local value, so tasks created inside the scope with
/// `Task { }` (as the non-`async` forms of `load` do) see it too, and tasks running outside
/// it do not. Outside every scope, ``current`` is ``default``.
public enum LoadClock {
  /// The clock of the innermost ``withLoadClock(_:isolation:operation:)`` scope, if any.
  @TaskLocal static var scoped: (any Clock<Duration>)?

  /// The clock the library uses when given none: the innermost
  /// ``withLoadClock(_:isolation:operation:)`` scope's, otherwise ``default``.
  public static var current: any Clock<Duration> { scoped ?? `default` }

  /// The app-wide clock, used outside every ``withLoadClock(_:isolation:operation:)`` scope;
  /// `ContinuousClock()` until you set it.
  ///
  /// Set it at launch to make every wait of the app use another clock, such as one that
  /// stops while the device sleeps:
  ///
  /// ```swift
  /// LoadClock.default = SuspendingClock()
  /// ```
  ///
  /// Reading and writing it from any thread is safe. A write does not reach a
  /// ``Debouncer`` or ``LoadCache`` that has already measured time, nor a load that has
  /// already started its interrupts.
  ///
  /// > Important: In tests, prefer ``withLoadClock(_:isolation:operation:)``: tests that run
  /// > at the same time share this value, while a scope belongs to one test's tasks.
  public static var `default`: any Clock<Duration> {
    get { storage.withLock { $0 } }
    set { storage.withLock { $0 = newValue } }
  }

  private static let storage = LockedClock(ContinuousClock())
}

/// Runs `operation` with `clock` as ``LoadClock/current`` for its task and the tasks it
/// creates, and returns what it returns.
///
/// Every policy, ``Debouncer``, ``LoadCache`` and `interrupts:` timer that was given no clock
/// and reads ``LoadClock/current`` inside the scope waits on `clock`; see ``LoadClock`` for
/// when each reads it. Scopes nest: the innermost wins.
///
/// <!-- compile: context Model -->
/// ```swift
/// let clock = ManualClock()
/// try await withLoadClock(clock) {
///   model.search("swift")  // .debounce(for: .milliseconds(300))
///   try await clock.sleepers(count: 1)
///   clock.advance(by: .milliseconds(300))
/// }
/// ```
///
/// - Parameters:
///   - clock: The clock to use.
///   - isolation: The actor `operation` runs on; the caller's by default.
///   - operation: The code to run with the clock.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws.
public func withLoadClock<Result>(
  _ clock: any Clock<Duration>,
  isolation: isolated (any Actor)? = #isolation,
  operation: () async throws -> Result
) async rethrows -> Result {
  try await LoadClock.$scoped.withValue(clock, operation: operation, isolation: isolation)
}

/// Runs the synchronous `operation` with `clock` as ``LoadClock/current``; see
/// ``withLoadClock(_:isolation:operation:)``.
///
/// Loads started inside with `Task`-returning forms (`$feed.load { ... }`) create their task
/// inside the scope, so they keep the clock after `operation` has returned.
///
/// - Parameters:
///   - clock: The clock to use.
///   - operation: The code to run with the clock.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws.
public func withLoadClock<Result>(
  _ clock: any Clock<Duration>,
  operation: () throws -> Result
) rethrows -> Result {
  try LoadClock.$scoped.withValue(clock, operation: operation)
}

/// The storage of ``LoadClock/default``.
private final class LockedClock: @unchecked Sendable {
  // Safe to share: `clock` is read and written only while holding `lock`.
  private let lock = NSLock()
  private var clock: any Clock<Duration>

  init(_ clock: any Clock<Duration>) { self.clock = clock }

  func withLock<T>(_ body: (inout any Clock<Duration>) -> T) -> T {
    lock.withLock { body(&clock) }
  }
}

/// The clock to use: the one given, or ``LoadClock/current``.
func resolved(_ clock: (any Clock<Duration>)?) -> any Clock<Duration> {
  clock ?? LoadClock.current
}

/// A recipe for how a load runs its block: retry, timeout, debounce, a concurrency limit, a
/// cache, deduplication, or any composition of them, written as one expression.
///
/// Pass a policy to any form's `load` (or `run`) and it wraps the block; the engine's rules
/// (a newer load cancels the older, a stale load never writes) hold as for any load:
///
/// ```swift
/// $feed.load(policy: .retry(maxAttempts: 3).timeout(.seconds(10))) {
///   try await api.feed()
/// }
/// ```
///
/// ## The order policies apply in
///
/// Policies apply in the order you write them, the first one outermost. Each one wraps
/// everything written after it, and the block is innermost:
///
/// <!-- compile: context Policy -->
/// ```swift
/// .debounce(for: .milliseconds(300))   // 1. waits once, before anything else
///   .limit(downloads)                  // 2. then takes a permit (one for all attempts)
///   .retry(maxAttempts: 3)             // 3. then makes up to three attempts,
///   .timeout(.seconds(5))              // 4.   each one limited to five seconds
/// ```
///
/// Swap two and the meaning changes: `.timeout(.seconds(30)).retry(maxAttempts: 3)` gives
/// all three attempts thirty seconds together. A ``cache(_:key:)-type.method`` shows its
/// cached value when the load *starts*, wherever it is written; it stores what the policies
/// after it return.
///
/// A policy is a value: build it once and keep it, or write it at the call site. Only the
/// objects it refers to (a ``ConcurrencyLimiter``, a ``Debouncer``, a ``LoadCache``, a
/// ``Deduplicator``) keep state between loads.
public struct LoadPolicy<Value: Sendable>: Sendable, CustomStringConvertible {
  /// The block a policy wraps: the load's own block, or the policies written after it.
  public typealias Operation = @MainActor () async throws -> Value

  /// One policy in the chain.
  @usableFromInline
  struct Step: Sendable {
    /// How the step reads in ``LoadPolicy/description``. Built only when the description is
    /// read: a policy is often written at the call site of each load, where formatting a
    /// retry's backoff would cost more than the load.
    @usableFromInline let name: @Sendable () -> String

    /// Decides, as the load starts, whether a value is already known (the cache).
    @usableFromInline let prelude: (@MainActor @Sendable () -> Prelude<Value>)?

    /// Wraps the operation after it; `nil` for a step that leaves it as it is (the wait for
    /// the network, which the policy applies around the block itself).
    @usableFromInline let wrap: (@Sendable (_ next: @escaping Operation) -> Operation)?

    /// The source a ``LoadPolicy/waitsForNetwork(_:)`` step waits on.
    @usableFromInline let connectivity: Connectivity?

    /// Whether this is the step of ``LoadPolicy/ignoreStartsWhileRunning()-type.method``,
    /// which wraps nothing: the engine asks the policy's flag as the load starts.
    @usableFromInline let ignoresStarts: Bool

    @usableFromInline
    init(
      name: @escaping @Sendable () -> String,
      prelude: (@MainActor @Sendable () -> Prelude<Value>)? = nil,
      wrap: (@Sendable (_ next: @escaping Operation) -> Operation)?,
      connectivity: Connectivity? = nil,
      ignoresStarts: Bool = false
    ) {
      self.name = name
      self.prelude = prelude
      self.wrap = wrap
      self.connectivity = connectivity
      self.ignoresStarts = ignoresStarts
    }
  }

  @usableFromInline let steps: [Step]

  /// Whether a step waits for the network; see ``waitsForNetwork(_:)-type.method``. Known
  /// as the policy is built, not looked for at each load.
  @usableFromInline let waitsForNetwork: Bool

  /// Whether a step is a timeout, which a wait for the network pauses.
  @usableFromInline let hasTimeout: Bool

  /// Whether a failure keeps a loaded value on screen; see ``keepValueOnFailure()-type.method``.
  @usableFromInline let keepsValueOnFailure: Bool

  /// Whether a start is ignored while the slot's load runs; see
  /// ``ignoreStartsWhileRunning()-type.method``. The engine asks it as the load starts,
  /// before anything else.
  @usableFromInline let ignoresStartsWhileRunning: Bool

  /// The empty policy: the block runs as it is.
  ///
  /// Inlinable: it is the default of every `start`, where the empty check it leads to folds
  /// away.
  @inlinable
  public init() {
    steps = []
    waitsForNetwork = false
    hasTimeout = false
    keepsValueOnFailure = false
    ignoresStartsWhileRunning = false
  }

  // The initialisers and `then` are inlinable: a policy is often built at the call site of
  // each load, and compiled in the library they would run unspecialised generic code (the
  // step's and the array's metadata looked up, the arrays copied through value witnesses)
  // that cost more than the load's own bookkeeping.

  @inlinable
  init(
    steps: [Step], waitsForNetwork: Bool = false, hasTimeout: Bool = false,
    keepsValueOnFailure: Bool = false, ignoresStartsWhileRunning: Bool = false
  ) {
    self.steps = steps
    self.waitsForNetwork = waitsForNetwork
    self.hasTimeout = hasTimeout
    self.keepsValueOnFailure = keepsValueOnFailure
    self.ignoresStartsWhileRunning = ignoresStartsWhileRunning
  }

  @inlinable
  init(
    _ name: @autoclosure @escaping @Sendable () -> String,
    prelude: (@MainActor @Sendable () -> Prelude<Value>)? = nil,
    isTimeout: Bool = false,
    wrap: @escaping @Sendable (_ next: @escaping Operation) -> Operation
  ) {
    steps = [Step(name: name, prelude: prelude, wrap: wrap)]
    waitsForNetwork = false
    hasTimeout = isTimeout
    keepsValueOnFailure = false
    ignoresStartsWhileRunning = false
  }

  /// A policy of your own: `body` receives the rest of the chain (the policies written after
  /// this one, then the block) and decides how to run it.
  ///
  /// ```swift
  /// let logged = LoadPolicy<[Book]>.around("log") { operation in
  ///   print("loading books")
  ///   return try await operation()
  /// }
  /// $books.load(policy: logged.retry(maxAttempts: 2)) { try await api.books() }
  /// ```
  ///
  /// - Parameters:
  ///   - name: How the policy reads in ``description``.
  ///   - body: Runs the operation it is given, any number of times, or not at all.
  /// - Returns: A policy that runs `body` around the rest of the chain.
  public static func around(
    _ name: String = "around",
    _ body: @escaping @MainActor @Sendable (_ operation: Operation) async throws -> Value
  ) -> LoadPolicy {
    LoadPolicy(name) { next in { try await body(next) } }
  }

  /// This policy with `inner` applied inside it: `inner` wraps the block, this policy wraps
  /// `inner`.
  ///
  /// - Parameter inner: The policy to apply after this one.
  /// - Returns: The composed policy.
  @inlinable
  public func then(_ inner: LoadPolicy) -> LoadPolicy {
    LoadPolicy(
      steps: Self.joined(steps, inner.steps),
      waitsForNetwork: waitsForNetwork || inner.waitsForNetwork,
      hasTimeout: hasTimeout || inner.hasTimeout,
      keepsValueOnFailure: keepsValueOnFailure || inner.keepsValueOnFailure,
      ignoresStartsWhileRunning: ignoresStartsWhileRunning || inner.ignoresStartsWhileRunning)
  }

  /// `outer` then `inner`, without copying either when the other is empty.
  @inlinable
  static func joined<Element>(_ outer: [Element], _ inner: [Element]) -> [Element] {
    if inner.isEmpty { return outer }
    if outer.isEmpty { return inner }
    return outer + inner
  }

  /// Runs `operation` under this policy directly, not as a load of its own: it writes no
  /// state.
  ///
  /// Inside a load's block (a yielding block, say), the block decides what the state shows,
  /// with `yield` or what it returns: `run` never writes it, and a retry's
  /// `showsFailedAttempts` writes no failures there. What is shown beside the state still
  /// reaches the load: a retry reports its attempts to the load's `attempt`, and `operation`
  /// reports progress to its `progress`, when that load was started with a policy or after
  /// its `progress` was read. Outside any load nothing is shown.
  ///
  /// Use it inside a yielding block, or anywhere else a policy's behaviour is wanted:
  ///
  /// <!-- compile: context Model -->
  /// ```swift
  /// let page = try await policy.run { try await api.page(3) }
  /// ```
  ///
  /// - Parameter operation: The work to run.
  /// - Returns: What `operation` returned, or the cached value.
  /// - Throws: What the last attempt threw, `TimeoutError`, or `CancellationError`.
  @MainActor
  public func run(_ operation: @escaping Operation) async throws -> Value {
    let wrapped = wrap(operation)
    guard let target = LoadScope.current.get() else { return try await wrapped() }
    return try await LoadScope.current.withValue(ShownBesideOnly(target), operation: wrapped)
  }

  /// The operation with every step applied, the first step outermost. A policy that waits
  /// for the network puts its wait around the block itself, inside every other step, and
  /// binds the chain its timeouts register their pauses in.
  ///
  /// Inlinable: compiled in the library it would run unspecialised generic code at every
  /// load. Closures, not key paths: a key path built in this generic context is not cached,
  /// and would be looked up again at every load.
  @inlinable
  func wrap(_ operation: @escaping Operation) -> Operation {
    var wrapped = waitsForNetwork ? Self.waitingForNetwork(operation, on: steps) : operation
    var index = steps.endIndex
    while index > steps.startIndex {
      index -= 1
      if let wrap = steps[index].wrap { wrapped = wrap(wrapped) }
    }
    guard hasTimeout, waitsForNetwork else { return wrapped }
    return { [wrapped] in
      if hasPauseChain() { return try await wrapped() }
      return try await withPauseChain(wrapped)
    }
  }

  /// This policy without what it wraps around the block: its steps' preludes (a cache's
  /// value shown as the load starts), its network sources and what a failure keeps stay, so
  /// a load started with it binds the same target (a retry's attempts, a wait for the
  /// network show on the load). For a load whose block runs several operations, each under
  /// ``wrap(_:)`` of the whole policy: a paged entry's refresh of every loaded page, where a
  /// retry retries the page that failed. Whether it ignores starts while running stays too.
  @usableFromInline
  var unwrapped: LoadPolicy {
    LoadPolicy(
      steps: steps.map { step in
        Step(
          name: step.name, prelude: step.prelude, wrap: nil, connectivity: step.connectivity,
          ignoresStarts: step.ignoresStarts)
      },
      keepsValueOnFailure: keepsValueOnFailure,
      ignoresStartsWhileRunning: ignoresStartsWhileRunning)
  }

  /// What the load should show as it starts: the first step that knows a value decides.
  @MainActor @inlinable
  func prelude() -> Prelude<Value> {
    for step in steps {
      guard let prelude = step.prelude else { continue }
      let decision = prelude()
      if case .fetch = decision { continue }
      return decision
    }
    return .fetch
  }

  /// The policies in order, outermost first, such as
  /// `retry(maxAttempts: 3) → timeout(10.0 seconds)`.
  public var description: String {
    let names = steps.map { $0.name() } + (keepsValueOnFailure ? ["keepValueOnFailure"] : [])
    return names.isEmpty ? "none" : names.joined(separator: " → ")
  }
}

/// What a load with a cache shows as it starts.
@usableFromInline
enum Prelude<Value> {
  /// Nothing is cached: load as usual.
  case fetch
  /// A stale value: show it at once, then refresh silently.
  case show(Value)
  /// A fresh value: show it and fetch nothing.
  case complete(Value)
}

/// The target `LoadPolicy.run` binds inside a load: it passes progress, attempts and waits on
/// to the load, and drops a retry's failure and restart writes, so `run` never writes the state.
private struct ShownBesideOnly: LoadTarget {
  let load: any LoadTarget

  init(_ load: any LoadTarget) { self.load = load }

  @MainActor func deliver(_ progress: LoadingProgress) { load.deliver(progress) }
  @MainActor func deliver(_ attempt: RetryAttempt) { load.deliver(attempt) }
  @MainActor func deliverWaitingForNetwork(_ waiting: Bool) {
    load.deliverWaitingForNetwork(waiting)
  }
  @MainActor func deliverWait(_ wait: LoadWait, began: Bool, clock: (any Clock<Duration>)?) {
    load.deliverWait(wait, began: began, clock: clock)
  }
  @MainActor func showFailure(_ error: any Error) {}
  @MainActor func showRestart() {}
}

/// Gives a class the `load`, `cancel` and `reset` API for its own ``LoadableState``
/// properties, addressed by key path.
///
/// Each key path on each *instance* has its own slot: two instances of one class never
/// cancel each other's loads. The library holds the instance weakly, so a load never keeps
/// it alive; a load whose owner is gone writes nothing.
///
/// <!-- compile: context ModelTypes -->
/// ```swift
/// @MainActor @Observable final class NumbersModel: LoadableSupport {
///   var numbers: LoadableState<[Int]> = .absent
///
///   func refresh() {
///     load(\.numbers) { try await api.numbers() }
///   }
/// }
/// ```
///
/// The semantics are those of ``Loadable``; see ``Loadable/Binding`` for the table of what
/// each call writes. One difference: assigning the property directly does not cancel a
/// running load (the library cannot see plain assignments); call ``cancel(_:)`` first.
///
/// ## Customisation points
///
/// `cancel(_:)`, `reset(_:)` and the eight `load` methods below (the forms Processed's
/// `LoadableSupport` required) are requirements, implemented by default in an extension. A
/// class may implement one itself, for example to log every load: generic code over
/// `some LoadableSupport` then calls the class's version. A call that leaves out defaulted
/// arguments (`load(\.numbers) { ... }`) resolves to the extension's method, which has the
/// defaults, and is not dispatched: pass every argument to reach an override from generic
/// code. The library's engine does not call these methods; it stops and resets loads itself.
public protocol LoadableSupport: AnyObject {
  /// Cancels the running load of `state`; see the default implementation.
  ///
  /// - Parameter state: The key path of the state.
  @MainActor func cancel<Value>(_ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>)

  /// Cancels the running load of `state` and sets it to `.absent`; see the default
  /// implementation.
  ///
  /// - Parameter state: The key path of the state.
  @MainActor func reset<Value>(_ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>)

  /// Starts a load of `state` in a new task; see the default implementation.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.loading`.
  ///   - priority: The priority of the new task.
  ///   - block: Produces the value.
  /// - Returns: The task running the load.
  @MainActor @discardableResult func load<Value>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    silently: Bool,
    priority: TaskPriority?,
    @_implicitSelfCapture block: @MainActor @escaping () async throws -> Value
  ) -> Task<Void, Never>

  /// Starts a load of `state` in a new task, with interrupts; see the default implementation.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.loading`.
  ///   - interrupts: Delays between interrupts (they accumulate).
  ///   - priority: The priority of the new task.
  ///   - block: Produces the value.
  ///   - onInterrupt: Called with the time since the load started.
  /// - Returns: The task running the load.
  @MainActor @discardableResult func load<Value>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    silently: Bool,
    interrupts: [Duration],
    priority: TaskPriority?,
    @_implicitSelfCapture block: @MainActor @escaping () async throws -> Value,
    @_implicitSelfCapture onInterrupt:
      @MainActor @escaping (_ accumulatedDelay: Duration) throws -> Void
  ) -> Task<Void, Never>

  /// Runs a load of `state` in the caller's task; see the default implementation.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.loading`.
  ///   - block: Produces the value.
  @MainActor func load<Value>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    silently: Bool,
    @_implicitSelfCapture block: @MainActor () async throws -> Value
  ) async

  /// Runs a load of `state` in the caller's task, with interrupts; see the default
  /// implementation.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.loading`.
  ///   - interrupts: Delays between interrupts (they accumulate).
  ///   - block: Produces the value.
  ///   - onInterrupt: Called with the time since the load started.
  @MainActor func load<Value>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    silently: Bool,
    interrupts: [Duration],
    @_implicitSelfCapture block: @MainActor () async throws -> Value,
    @_implicitSelfCapture onInterrupt:
      @MainActor @escaping (_ accumulatedDelay: Duration) throws -> Void
  ) async

  /// Starts a yielding load of `state` in a new task; see the default implementation.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.loading` first.
  ///   - priority: The priority of the new task.
  ///   - block: Writes states through `yield`.
  /// - Returns: The task running the load.
  @MainActor @discardableResult func load<Value>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    silently: Bool,
    priority: TaskPriority?,
    @_implicitSelfCapture block:
      @MainActor @escaping (_ yield: (_ state: LoadableState<Value>) -> Void) async throws
      -> Void
  ) -> Task<Void, Never>

  /// Starts a yielding load of `state` in a new task, with interrupts; see the default
  /// implementation.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.loading` first.
  ///   - interrupts: Delays between interrupts (they accumulate).
  ///   - priority: The priority of the new task.
  ///   - block: Writes states through `yield`.
  ///   - onInterrupt: Called with the time since the load started.
  /// - Returns: The task running the load.
  @MainActor @discardableResult func load<Value>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    silently: Bool,
    interrupts: [Duration],
    priority: TaskPriority?,
    @_implicitSelfCapture block:
      @MainActor @escaping (_ yield: (_ state: LoadableState<Value>) -> Void) async throws
      -> Void,
    @_implicitSelfCapture onInterrupt:
      @MainActor @escaping (_ accumulatedDelay: Duration) throws -> Void
  ) -> Task<Void, Never>

  /// Runs a yielding load of `state` in the caller's task; see the default implementation.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.loading` first.
  ///   - block: Writes states through `yield`.
  @MainActor func load<Value>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    silently: Bool,
    @_implicitSelfCapture block:
      @MainActor (_ yield: (_ state: LoadableState<Value>) -> Void) async throws -> Void
  ) async

  /// Runs a yielding load of `state` in the caller's task, with interrupts; see the default
  /// implementation.
  ///
  /// - Parameters:
  ///   - state: The key path of the state.
  ///   - silently: When `true`, the state is not set to `.loading` first.
  ///   - interrupts: Delays between interrupts (they accumulate).
  ///   - block: Writes states through `yield`.
  ///   - onInterrupt: Called with the time since the load started.
  @MainActor func load<Value>(
    _ state: ReferenceWritableKeyPath<Self, LoadableState<Value>>,
    silently: Bool,
    interrupts: [Duration],
    @_implicitSelfCapture block:
      @MainActor (_ yield: (_ state: LoadableState<Value>) -> Void) async throws -> Void,
    @_implicitSelfCapture onInterrupt:
      @MainActor @escaping (_ accumulatedDelay: Duration) throws -> Void
  ) async
}

/// The one status-and-control surface of a load, whichever form holds its state.
///
/// Every form hands out the same handle: a property wrapper's projected value (`$feed`), a
/// key path of a ``LoadableSupport`` or ``ProcessSupport`` class (`handle(\.feed)`), a loader
/// object, a shared entry and a paged entry. What a running load exposes beside its state —
/// whether it runs, its progress, the retry attempt, whether it waits for the network, the
/// error of a failed refresh, the stream of its states — and the two controls every form has,
/// ``cancel()`` and ``reset()``, are declared here once. The forms differ only in where the
/// state lives and how a load is started.
///
/// <!-- compile: context ModelView -->
/// ```swift
/// // A property wrapper: `$feed` forwards every member of its handle.
/// if $feed.isRunning { ProgressView() }
///
/// // A view model's key path.
/// if model.handle(\.feed).isWaitingForNetwork { OfflineBanner() }
/// ```
///
/// Any form, in a test:
///
/// <!-- compile: context Model -->
/// ```swift
/// let recorder = StateRecorder($feed.handle)
/// ```
///
/// A handle is a small value that refers to its form's storage; it keeps nothing alive that
/// the form would not. Every member is observable: reading it in a SwiftUI body or under
/// `withObservationTracking` registers the observer.
public struct LoadHandle<State>: Sendable {
  @usableFromInline let control: any LoadControl<State>

  @usableFromInline init(_ control: any LoadControl<State>) {
    self.control = control
  }

  /// The current state. Observable.
  @MainActor public var state: State { control.controlState }

  /// Whether a load is in flight, including a silent one.
  ///
  /// This is separate from the state: during a silent reload the state still shows the old
  /// value while `isRunning` is `true`, so a view can show a small spinner. Observable.
  @MainActor public var isRunning: Bool { control.controlIsRunning }

  /// The progress the running load last reported (see ``LoadingProgress``); `nil` when it
  /// reported none or no load runs. Observable.
  @MainActor public var progress: LoadingProgress? { control.controlProgress }

  /// The attempt a retry policy is running or waiting to run; `nil` when the running load
  /// has no retry policy, or no load runs. Observable.
  @MainActor public var attempt: RetryAttempt? { control.controlAttempt }

  /// Whether the running load waits for the network (a policy with
  /// ``LoadPolicy/waitsForNetwork(_:)-type.method``, or a ``LoaderStore`` made with a
  /// connectivity); `false` when none waits. Observable.
  ///
  /// <!-- compile: context ModelView -->
  /// ```swift
  /// if $feed.isWaitingForNetwork { Label("Waiting for the network", systemImage: "wifi.slash") }
  /// ```
  @MainActor public var isWaitingForNetwork: Bool {
    control.controlIsWaitingForNetwork
  }

  /// The error of the last load that failed while its loaded value stayed on screen (a
  /// load with ``LoadPolicy/keepValueOnFailure()-type.method``, or a failed refresh of a
  /// paged list, in any form); `nil` after the next success, `reset()` or an assignment.
  /// Observable. What each form keeps: <doc:GettingStarted#What-a-failed-refresh-keeps>.
  @MainActor public var refreshError: (any Error)? { control.controlRefreshError }

  /// The states: the current one first, then every state the library writes, in order, none
  /// merged away. See ``StateStream``.
  @MainActor public var states: StateStream<State> { control.controlStates() }

  /// Cancels the running load and brings back the state it replaced, unless something was
  /// written since: a cancelled load never leaves a spinner with nothing running.
  @MainActor public func cancel() { control.controlCancel() }

  /// Cancels the running load and writes the empty state (`.absent`, `.idle`, an empty
  /// unloaded list).
  @MainActor public func reset() { control.controlReset() }

  /// Calls `callback` with every state the library writes through this handle's form, in
  /// order: starts, results, errors, yields, resets and assignments. Nothing is coalesced.
  /// What the LoadablesTesting recorders are built on.
  @_spi(Testing)
  @MainActor
  public func watchStates(_ callback: @escaping @MainActor (State) -> Void) -> StateWatch {
    StateWatch(ending: control.controlWatch(callback))
  }
}

/// What a form gives its ``LoadHandle``: where the state is read, the slot whose status the
/// handle shows, and the form's own cancel and reset (a shared entry's cancel, say, also
/// tells its store).
@MainActor @usableFromInline
protocol LoadControl<State>: AnyObject, Sendable {
  associatedtype State

  /// The state, read under observation.
  var controlState: State { get }

  /// The slot whose status (running, progress, attempt, …) the handle shows.
  var controlRuntime: LoadRuntime { get }

  // The status, read from ``controlRuntime`` by default: a form whose status is not a slot
  // of the engine (a `Loader` an app wrote) answers each itself.
  var controlIsRunning: Bool { get }
  var controlProgress: LoadingProgress? { get }
  var controlAttempt: RetryAttempt? { get }
  var controlIsWaitingForNetwork: Bool { get }
  var controlRefreshError: (any Error)? { get }

  /// The states as a stream.
  func controlStates() -> StateStream<State>

  /// Cancels the running load, as the form's `cancel()` does.
  func controlCancel()

  /// Resets the state, as the form's `reset()` does.
  func controlReset()

  /// Calls `callback` with every state the engine writes from now on, in order, until the
  /// returned closure is called.
  func controlWatch(
    _ callback: @escaping @MainActor (State) -> Void
  ) -> @MainActor () -> Void
}

extension LoadControl {
  @usableFromInline var controlIsRunning: Bool { status { $0.isRunning } }
  @usableFromInline var controlProgress: LoadingProgress? { status { $0.progress } }
  @usableFromInline var controlAttempt: RetryAttempt? { status { $0.attempt } }
  @usableFromInline var controlIsWaitingForNetwork: Bool { status { $0.isWaitingForNetwork } }
  @usableFromInline var controlRefreshError: (any Error)? { status { $0.refreshError } }

  /// One side value of ``controlRuntime``, or of the shared entry it follows (`load(from:
  /// entry)`): a form that follows an entry shows the entry's status. The form's own value is
  /// read first, so an observer also hears when the following starts or ends.
  private func status<Value>(_ value: (LoadRuntime) -> Value) -> Value {
    let runtime = controlRuntime
    let own = value(runtime)
    guard let followed = runtime.followedRuntime else { return own }
    return value(followed)
  }
}

extension StoredStateStorage: LoadControl {
  @usableFromInline var controlState: State { state }
  @usableFromInline var controlRuntime: LoadRuntime { self }
  @usableFromInline func controlStates() -> StateStream<State> {
    StateStream(slot: self, current: read() ?? storage)
  }
  @usableFromInline func controlCancel() { cancel() }
  @usableFromInline func controlReset() { reset() }
  @usableFromInline func controlWatch(
    _ callback: @escaping @MainActor (State) -> Void
  ) -> @MainActor () -> Void {
    let watch = StateWatch(slot: self, callback: callback)
    return { watch.cancel() }
  }
}

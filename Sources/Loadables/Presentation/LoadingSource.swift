/// The one source a `LoadingView` shows and reloads, whichever form it was made from: a
/// ``Loader``, or a ``Loadable/Binding`` with a block that fetches the value.
///
/// It holds only what it needs: the loader (or the binding's storage and the block), reached
/// through closures made once. It keeps no copy of the state: ``presentation(failureLabel:)``
/// reads the observable `state`, `isRunning`, `progress`, `attempt` and `isWaitingForNetwork`
/// each time, so a view that calls it from `body` updates when any of them changes. Kept
/// outside the SwiftUI layer so it is tested on every platform.
///
/// Every form that can wait for the network reaches the view through it: a loader's
/// `isWaitingForNetwork` is a ``Loader`` requirement (``BaseLoader`` and so ``BlockLoader`` and
/// ``PolicyLoader``, and ``SharedLoader``, report their slot's wait; a loader of your own that
/// never waits gets the default, `false`), and a binding reads its storage's.
struct LoadingSource<Value: Sendable> {
  /// The observable properties, read together.
  struct Snapshot {
    let state: LoadableState<Value>
    let isRunning: Bool
    let progress: LoadingProgress?
    let attempt: RetryAttempt?
    let isWaitingForNetwork: Bool
  }

  private let read: @MainActor () -> Snapshot

  /// Starts a load in a task of its own; `nil` when the source cannot load.
  private let start: (@MainActor (_ silently: Bool) -> Void)?

  /// Whether the view loads when it appears (and ``presentation(failureLabel:)`` says to).
  let loadsOnAppear: Bool

  /// Keeps the source observed while the view is on screen, for sources that need to know
  /// (a shared entry: invalidations refresh it, its triggers run, its grace time waits);
  /// `nil` for the others.
  private let observe: (@MainActor () async -> Void)?

  /// A source that reads and loads a loader.
  ///
  /// A load runs in a task of its own, not in the view's: a loader is shared by design, so a
  /// view going away must not cancel the load other views observe. It is started with
  /// ``Loader/start(silently:)``: a ``BaseLoader`` (and so a ``BlockLoader`` or
  /// ``PolicyLoader``) starts it at once, writing `.loading` before `onAppear` returns, so the
  /// first frame already shows the spinner; any other loader's `load(silently:)` starts in a
  /// new task, on the main actor's next turn.
  @MainActor
  init<L: Loader>(loader: L, loadOnAppear: Bool) where L.Value == Value {
    read = {
      let handle = loader.handle
      return Snapshot(
        state: handle.state, isRunning: handle.isRunning, progress: handle.progress,
        attempt: handle.attempt, isWaitingForNetwork: handle.isWaitingForNetwork)
    }
    start = { silently in loader.start(silently: silently) }
    loadsOnAppear = loadOnAppear
    if let entry = loader as? any ObservedWhileShown {
      observe = { await entry.observeUntilCancelled() }
    } else {
      observe = nil
    }
  }

  /// A source that reads a `@Loadable` property's binding and, given `fetch`, loads it.
  ///
  /// The load is the binding's `Task`-returning one, which holds the property's storage only
  /// weakly: when the view owning the property goes away, the load is cancelled.
  @MainActor
  init(
    binding: Loadable<Value>.Binding, policy: LoadPolicy<Value>,
    fetch: (@MainActor () async throws -> Value)?, loadOnAppear: Bool
  ) {
    read = {
      Snapshot(
        state: binding.wrappedValue, isRunning: binding.isRunning, progress: binding.progress,
        attempt: binding.attempt, isWaitingForNetwork: binding.isWaitingForNetwork)
    }
    if let fetch {
      start = { silently in binding.start(silently: silently, policy: policy, block: fetch) }
    } else {
      start = nil
    }
    loadsOnAppear = loadOnAppear
    observe = nil
  }

  /// Whether the source can start a load: the retry button and loading on appear need one.
  var canLoad: Bool { start != nil }

  /// What to show now. Reads the observable properties, so call it from `body`.
  @MainActor
  func presentation(failureLabel: String) -> LoadingPresentation<Value> {
    let now = read()
    return LoadingPresentation(
      state: now.state, isRunning: now.isRunning, progress: now.progress, attempt: now.attempt,
      isWaitingForNetwork: now.isWaitingForNetwork, canRetry: canLoad, failureLabel: failureLabel)
  }

  /// Called when the view appears: loads, showing `.loading`, if the view loads on appear and
  /// ``LoadingPresentation/shouldLoadOnAppear`` says so (nothing runs, nothing is loaded).
  @MainActor
  func appear() {
    guard loadsOnAppear,
      presentation(failureLabel: FailurePresentation.defaultAccessibilityLabel).shouldLoadOnAppear
    else { return }
    start?(false)
  }

  /// Called from the view's `.task`: keeps a shared entry observed until the view goes away
  /// (the task is cancelled); returns at once for other sources.
  @MainActor
  func observeWhileShown() async {
    await observe?()
  }

  /// Called by the retry button: loads silently, so the error stays on screen (without its
  /// button) until the new result arrives, and the spinner never flashes over it.
  @MainActor
  func retry() {
    start?(true)
  }
}

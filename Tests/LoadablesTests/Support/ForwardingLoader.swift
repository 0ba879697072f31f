import Loadables

/// A loader that is not a `BaseLoader`: it forwards to `inner` and takes every default the
/// `Loader` protocol gives (`start(silently:)` in a task, `value(silently:)`, ...).
@MainActor
final class ForwardingLoader<Inner: Loader>: Loader {
  let inner: Inner

  init(_ inner: Inner) { self.inner = inner }

  var state: LoadableState<Inner.Value> { inner.state }
  var states: StateStream<LoadableState<Inner.Value>> { inner.states }
  var isRunning: Bool { inner.isRunning }
  var progress: LoadingProgress? { inner.progress }
  var attempt: RetryAttempt? { inner.attempt }
  func load(silently: Bool) async -> LoadableState<Inner.Value> {
    await inner.load(silently: silently)
  }
  func cancel() { inner.cancel() }
  func reset() { inner.reset() }
  func fetch() async throws -> Inner.Value { try await inner.fetch() }
}

/// Keeps a shared entry observed until ``end()`` is called or the token is released.
@MainActor
public final class SharedObservation: Sendable {
  private let release: @MainActor @Sendable () -> Void
  private var ended = false

  init(_ release: @escaping @MainActor @Sendable () -> Void) {
    self.release = release
  }

  /// Ends the observation. Calling it again does nothing.
  public func end() {
    guard !ended else { return }
    ended = true
    release()
  }

  deinit {
    // The entry ignores an end it already saw, so ending twice is harmless.
    let release = self.release
    Task { @MainActor in release() }
  }
}

import Observation

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

/// The observable status of an entry, kept in a non-generic class so that observing it
/// needs no key path built in a generic context.
@MainActor
final class EntryStatus {
  private let registrar = ObservationRegistrar()
  private var stale = false

  nonisolated var staleMarker: Int { 0 }

  var isStale: Bool {
    registrar.access(self, keyPath: \EntryStatus.staleMarker)
    return stale
  }

  /// ``isStale``, read without registering observation.
  var staleNow: Bool { stale }

  func setStale(_ value: Bool) {
    guard stale != value else { return }
    registrar.withMutation(of: self, keyPath: \EntryStatus.staleMarker) { stale = value }
  }

  private var fetched: Duration?
  fileprivate var placeholder = false

  nonisolated var fetchedMarker: Int { 0 }

  /// When the committed value was fetched, on the store's stopwatch.
  var fetchedAt: Duration? {
    registrar.access(self, keyPath: \EntryStatus.fetchedMarker)
    return fetched
  }

  func setFetchedAt(_ value: Duration?) {
    guard fetched != value else { return }
    registrar.withMutation(of: self, keyPath: \EntryStatus.fetchedMarker) { fetched = value }
  }
}

extension EntryStatus {
  nonisolated var placeholderMarker: Int { 0 }

  /// Whether the entry shows a placeholder no fetch has replaced yet.
  var isPlaceholder: Bool {
    registrar.access(self, keyPath: \EntryStatus.placeholderMarker)
    return placeholder
  }

  func setPlaceholder(_ value: Bool) {
    guard placeholder != value else { return }
    registrar.withMutation(of: self, keyPath: \EntryStatus.placeholderMarker) {
      placeholder = value
    }
  }
}

extension EntryStatus: Observable {}

import Observation

/// Counts how often observers of some state are woken, the way SwiftUI would be: it tracks
/// what `read` reads with `withObservationTracking` and re-arms after every change.
@MainActor
final class ChangeCounter {
  private(set) var count = 0
  private let read: @MainActor () -> Void

  init(_ read: @escaping @MainActor () -> Void) {
    self.read = read
    arm()
  }

  private func arm() {
    withObservationTracking {
      read()
    } onChange: { [weak self] in
      // Observation calls this synchronously on the thread that mutates: the main actor.
      MainActor.assumeIsolated {
        guard let self else { return }
        self.count += 1
        self.arm()
      }
    }
  }
}

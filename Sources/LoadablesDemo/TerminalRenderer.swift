import Observation

/// Shows a "view" in the terminal and prints it again whenever the state it read changes,
/// the way SwiftUI re-renders a body. A view may be several lines long.
///
/// `withObservationTracking` records everything the view reads. Its `onChange` fires once,
/// *before* the first of those values changes, so the renderer schedules a new frame on the
/// main actor (by then the new value is in place) and re-arms tracking while rendering it.
/// Changes made in the same main-actor turn land in one frame, as they would in SwiftUI.
@MainActor
final class TerminalRenderer {
  private var view: (@MainActor () -> String)?
  /// Moves on with every `mount`, so that a frame scheduled for an old view is dropped.
  private var mountID = 0
  private var isFrameScheduled = false
  private var frameCount = 0

  /// Shows `view` now, and again after each change to what it reads.
  func mount(_ view: @escaping @MainActor () -> String) {
    self.view = view
    mountID += 1
    isFrameScheduled = false
    render()
  }

  /// Returns once every frame already scheduled has been printed.
  func settle() async {
    while isFrameScheduled { await Task.yield() }
  }

  private func render() {
    guard let view else { return }
    let mountID = mountID
    let frame = withObservationTracking(view) { [weak self] in
      // Observation calls this on the thread that changes the state. Loadables writes state
      // on the main actor only, so we are on it here.
      MainActor.assumeIsolated { self?.isFrameScheduled = true }
      Task { @MainActor in self?.renderScheduledFrame(for: mountID) }
    }
    frameCount += 1
    // A view of several lines prints them one under the other, after the frame number.
    let prefix = "  #\(frameCount)  "
    let indent = "\n" + String(repeating: " ", count: prefix.count)
    print(prefix + frame.split(separator: "\n").joined(separator: indent))
  }

  private func renderScheduledFrame(for mountID: Int) {
    guard mountID == self.mountID else { return }
    isFrameScheduled = false
    render()
  }
}

public import Foundation

extension RefreshTrigger {
  /// Refreshes whenever `NotificationCenter.default` posts a notification named `name`,
  /// while the entry is observed.
  ///
  /// The observer is added when observation starts and removed when it ends. Notifications
  /// posted while a refresh is being started are coalesced: a burst causes one refresh (and
  /// a refresh is skipped anyway while a fetch runs). The notification may be posted on any
  /// thread; the refresh always starts on the main actor.
  ///
  /// On Apple platforms `appBecameActive` is this trigger with UIKit's notification. On
  /// macOS, use AppKit's:
  ///
  /// <!-- compile: context Shared -->
  /// ```swift
  /// store.loader(
  ///   for: ["feed"], refreshing: [.notifications(named: NSApplication.didBecomeActiveNotification)]
  /// ) { try await api.feed() }
  /// ```
  ///
  /// - Parameter name: The notification to refresh on.
  /// - Returns: A trigger that refreshes on every such notification.
  public static func notifications(named name: Notification.Name) -> RefreshTrigger {
    var trigger = RefreshTrigger { _, refresh in
      await forEachNotification(named: name) {
        refresh()
        return true
      }
    }
    trigger.name = "notification \(name.rawValue)"
    return trigger
  }
}

/// Calls `body` on the main actor for every notification named `name` that
/// `NotificationCenter.default` posts, until the task is cancelled or `body` returns
/// `false`. The observer is removed before it returns.
///
/// Uses the block-based `addObserver(forName:object:queue:using:)`, which both Apple's
/// Foundation and swift-corelibs-foundation have (`notifications(named:)` is Apple-only), so
/// this runs, and is tested, on Linux too.
@MainActor
func forEachNotification(named name: Notification.Name, _ body: () -> Bool) async {
  // Newest only: a burst of notifications while `body` runs becomes one more call.
  let (signals, continuation) = AsyncStream.makeStream(
    of: Void.self, bufferingPolicy: .bufferingNewest(1))
  let center = NotificationCenter.default
  let observer = center.addObserver(forName: name, object: nil, queue: nil) { _ in
    continuation.yield()
  }
  defer { center.removeObserver(observer) }
  // An `AsyncStream` ends its iteration when the task is cancelled.
  for await _ in signals where !body() { return }
}

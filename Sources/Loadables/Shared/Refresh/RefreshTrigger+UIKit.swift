#if canImport(UIKit) && !os(watchOS)
  import UIKit

  extension RefreshTrigger {
    /// Refreshes when the app becomes active again — back in the foreground, or after a
    /// system alert or the app switcher — while the entry is observed.
    ///
    /// It listens to UIKit's `UIApplication.didBecomeActiveNotification` through
    /// ``notifications(named:)``; the observer lives only while the entry is observed. Pair
    /// it with a stale time, so coming back within it fetches nothing:
    ///
    /// <!-- compile: context Platform -->
    /// ```swift
    /// let feed = store.loader(
    ///   for: ["feed"], staleTime: .seconds(60), refreshing: [.appBecameActive]
    /// ) { try await api.feed() }
    /// ```
    ///
    /// Available where UIKit posts that notification: iOS, iPadOS, tvOS, visionOS and Mac
    /// Catalyst. On macOS use ``notifications(named:)`` with AppKit's
    /// `NSApplication.didBecomeActiveNotification`; on watchOS, with WatchKit's
    /// `WKApplication.didBecomeActiveNotification`.
    public static var appBecameActive: RefreshTrigger {
      .notifications(named: UIApplication.didBecomeActiveNotification)
    }
  }

  extension LoaderStore {
    /// Drops every entry nobody observes whenever the system warns the app that memory is
    /// low (UIKit's `UIApplication.didReceiveMemoryWarningNotification`), until the calling
    /// task is cancelled.
    ///
    /// Run it for as long as the store lives, for example in the `.task` of the app's root
    /// view. Observed entries stay; see ``trim()``.
    ///
    /// <!-- compile: context Scene -->
    /// ```swift
    /// WindowGroup {
    ///   ContentView()
    ///     .task { await store.trimOnMemoryWarnings() }
    /// }
    /// ```
    ///
    /// Available where UIKit posts that notification: iOS, iPadOS, tvOS, visionOS and Mac
    /// Catalyst. On macOS and watchOS, hand ``trim(whenever:)`` a sequence fed by the
    /// system's memory-pressure source (`DispatchSource.makeMemoryPressureSource`).
    public func trimOnMemoryWarnings() async {
      await forEachNotification(named: UIApplication.didReceiveMemoryWarningNotification) {
        trim()
        return true
      }
    }
  }
#endif

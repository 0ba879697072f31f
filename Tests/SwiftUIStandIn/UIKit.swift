// A stand-in for Apple's UIKit module, used only by `.ci/swiftui-check` to type-check the
// library's `#if canImport(UIKit)` code on Linux. Test infrastructure, like SwiftUI.swift:
// never shipped, never part of a SwiftPM target, never run.
//
// Source: what the library uses of UIKit is Objective-C, declared in UIApplication.h, not in
// UIKit's Swift interface. The iOS 18.0 SDK's UIApplication.h is not among the files of
// xybp888/iOS-SDKs (the repository the SwiftUI and Network stand-ins follow); it was read from
// the public repository xiangfeidexiaohuo/iOS-SDKs (commit
// b3c4a180d8347a2ef837a10321411816c509556f):
//
//   [App] iPhoneOS18.0.sdk/System/Library/Frameworks/UIKit.framework/Headers/UIApplication.h
//         (53,568 characters)
//
// Read in full. Each declaration names its offset there (about) and is written as Swift
// imports it:
// - `NS_SWIFT_UI_ACTOR` is `@MainActor`, and declarations imported from Objective-C count as
//   `@preconcurrency`, so `@MainActor @preconcurrency` is written.
// - `UIKIT_EXTERN NSNotificationName const UIApplicationXNotification ... NS_SWIFT_NONISOLATED`
//   is imported as `nonisolated class let xNotification: NSNotification.Name` on
//   `UIApplication`; a stand-in class cannot declare a stored `class let`, so it is a
//   `nonisolated class var` with a getter, the same to the type checker for a read.
// - `API_UNAVAILABLE(watchos)` is `@available(watchOS, unavailable)`; the library guards the
//   code with `!os(watchOS)` too. Linux ignores availability: it is documentation here.
// - The superclass `UIResponder` and every member the library does not use are left out.
//
// The module is compiled in Swift 5 mode, as UIKit's Swift module is.

// NSNotification.Name: Foundation is real on Linux (swift-corelibs-foundation).
import Foundation

/// [App] @6300 (iOS 2): `UIKIT_EXTERN API_AVAILABLE(ios(2.0)) API_UNAVAILABLE(watchos)
/// NS_SWIFT_UI_ACTOR @interface UIApplication : UIResponder`, with `@property(class,
/// nonatomic, readonly) UIApplication *sharedApplication
/// NS_EXTENSION_UNAVAILABLE_IOS("Use view controller based solutions where appropriate
/// instead.")` (imported as `class var shared: UIApplication { get }`, main-actor isolated
/// like the class).
@available(watchOS, unavailable)
@MainActor @preconcurrency
open class UIApplication {
  @available(iOSApplicationExtension, unavailable)
  open class var shared: UIApplication { fatalError() }
}

/// [App] @44400: the notifications, `UIKIT_EXTERN NSNotificationName const
/// UIApplicationDidBecomeActiveNotification API_UNAVAILABLE(watchos) NS_SWIFT_NONISOLATED;` and
/// `UIKIT_EXTERN NSNotificationName const UIApplicationDidReceiveMemoryWarningNotification
/// API_UNAVAILABLE(watchos) NS_SWIFT_NONISOLATED;` — `nonisolated`, so any context may read
/// them.
@available(watchOS, unavailable)
extension UIApplication {
  nonisolated public class var didBecomeActiveNotification: NSNotification.Name {
    NSNotification.Name("UIApplicationDidBecomeActiveNotification")
  }

  nonisolated public class var didReceiveMemoryWarningNotification: NSNotification.Name {
    NSNotification.Name("UIApplicationDidReceiveMemoryWarningNotification")
  }
}

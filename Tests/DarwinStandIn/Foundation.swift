// A stand-in for the little of Foundation that the files `.ci/darwin-check` type-checks use,
// so that they are checked against the stand-in Darwin alone: this machine's Foundation
// (swift-corelibs-foundation) re-exports Glibc, whose declarations would meet Darwin's. Test
// infrastructure, like Darwin.swift: never shipped, never run (bodies are `fatalError()`).
//
// Source: the iOS 18.0 SDK of Xcode 16.0, as stored in the public repository xybp888/iOS-SDKs
// (commit 88fdca9de873f60303011685188c9415d4ebff0a):
//
//   [Foundation] iPhoneOS18.0.sdk/System/Library/Frameworks/Foundation.framework/Modules/
//                Foundation.swiftmodule/arm64-apple-ios.swiftinterface
//
// [Foundation] begins `@_exported import Foundation` (its Clang module, whose headers export
// Darwin), so a file that imports Foundation sees Darwin's C declarations on Apple platforms.
// `NSString` and its path methods are Objective-C (Foundation.framework/Headers/NSString.h and
// NSPathUtilities.h: `@property (readonly, copy) NSString *stringByDeletingLastPathComponent;`,
// imported as `var deletingLastPathComponent: String { get }`; not among the stored files), and
// `String` bridges to `NSString` with `as` (`String: _ObjectiveCBridgeable`, whose
// `_ObjectiveCType` is `NSString`). Only those are declared. Compiled in Swift 5 mode, as
// [Foundation] was (`-swift-version 5`).

@_exported import Darwin

open class NSString {
  open var deletingLastPathComponent: String { fatalError() }
}

extension String: _ObjectiveCBridgeable {
  public typealias _ObjectiveCType = NSString
  public func _bridgeToObjectiveC() -> NSString { fatalError() }
  public static func _forceBridgeFromObjectiveC(_ source: NSString, result: inout String?) {
    fatalError()
  }
  public static func _conditionallyBridgeFromObjectiveC(
    _ source: NSString, result: inout String?
  ) -> Bool { fatalError() }
  public static func _unconditionallyBridgeFromObjectiveC(_ source: NSString?) -> String {
    fatalError()
  }
}

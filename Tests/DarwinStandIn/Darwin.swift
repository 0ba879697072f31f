// A stand-in for Apple's Darwin overlay (the Swift half of the Darwin module), used only by
// `.ci/darwin-check`: it re-exports the stand-in C declarations (Darwin.h, the Clang module of
// the same name, as the SDK's overlay re-exports its Clang modules) and adds what the SDK's
// Swift overlays add over them. Test infrastructure, like Tests/SwiftUIStandIn: never shipped,
// never part of a SwiftPM target, never run (bodies are `fatalError()`).
//
// Source: the iOS 18.0 SDK of Xcode 16.0 (Apple Swift 6.0), as stored in the public repository
// xybp888/iOS-SDKs (commit 88fdca9de873f60303011685188c9415d4ebff0a):
//
//   [Darwin] iPhoneOS18.0.sdk/usr/lib/swift/Darwin.swiftmodule/arm64-apple-ios.swiftinterface
//            (19,763 characters)
//   [_errno] iPhoneOS18.0.sdk/usr/lib/swift/_errno.swiftmodule/arm64-apple-ios.swiftinterface
//            (3,700 characters)
//
// Both read in full. Only what the library uses is copied, as written but for availability
// (every declaration is `@available(macOS 10.9, iOS 7.0, ...)`, older than the package's floors,
// and Linux ignores it) and module prefixes (`sys_types.mode_t` is `mode_t`, `Swift.Int32`
// is `Int32`). In the SDK, `errno` sits in the overlay `_errno`, which [Darwin] re-exports
// (`@_exported import _errno`); here it sits in this one module, which is how a client sees it.
// Compiled in Swift 6 mode, as [Darwin] was (`swift-module-flags: ... -swift-version 6`).

@_exported import Darwin  // the Clang module: Darwin.h

// [_errno]: `public var errno: Swift.Int32 { get set(val) }`.
public var errno: Int32 {
  get { fatalError() }
  set { fatalError() }
}

// [Darwin]: the variadic `open`, `openat` and `fcntl` of sys/fcntl.h, which Swift cannot
// import, in the forms the overlay declares.
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 { fatalError() }
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 {
  fatalError()
}
public func openat(_ fd: Int32, _ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 {
  fatalError()
}
public func openat(
  _ fd: Int32, _ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t
) -> Int32 { fatalError() }
public func fcntl(_ fd: Int32, _ cmd: Int32) -> Int32 { fatalError() }
public func fcntl(_ fd: Int32, _ cmd: Int32, _ value: Int32) -> Int32 { fatalError() }
public func fcntl(_ fd: Int32, _ cmd: Int32, _ ptr: UnsafeMutableRawPointer) -> Int32 {
  fatalError()
}

// [Darwin]: the file-type bits as `mode_t` (`public var S_IFMT: sys_types.mode_t { get }`,
// likewise S_IFDIR and S_IFREG), shadowing the Int32 macros of sys/_types/_s_ifmt.h, in C's
// spelling (the format's naming rule is switched off for each).
// swift-format-ignore: AlwaysUseLowerCamelCase
public var S_IFMT: mode_t { fatalError() }
// swift-format-ignore: AlwaysUseLowerCamelCase
public var S_IFDIR: mode_t { fatalError() }
// swift-format-ignore: AlwaysUseLowerCamelCase
public var S_IFREG: mode_t { fatalError() }

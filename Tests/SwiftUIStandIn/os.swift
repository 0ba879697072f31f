// A stand-in for Apple's os module (os.Logger and OSSignposter), used only by
// `.ci/swiftui-check` to type-check the library's `#if canImport(os)` code on Linux. Test
// infrastructure, like SwiftUI.swift: never shipped, never part of a SwiftPM target, never run
// (bodies are `fatalError()`).
//
// Source: the iOS 18.0 SDK of Xcode 16.0 (Apple Swift 6.0), as stored in the public repository
// xybp888/iOS-SDKs (commit 88fdca9de873f60303011685188c9415d4ebff0a):
//
//   [os] iPhoneOS18.0.sdk/usr/lib/swift/os.swiftmodule/arm64-apple-ios.swiftinterface
//        (107,885 characters)
//
// Read in full. Each declaration quotes what [os] declares. Only what the library uses
// is copied, with its availability and `Sendable` conformances as written; the rest of each
// type is left out (fewer members, never looser ones). `os.X` in the file is plain `X` here.
// The module is compiled in Swift 5 mode, as [os] was (`swift-module-flags: ... -swift-version
// 5`).
//
// Attributes: those that change what type-checks are copied; those that only change code
// generation are not (`@inlinable`, `@_transparent`, `@_optimize(none)`, `@usableFromInline`
// internals, and `@_semantics("oslog.message.init_*")`, which would start the compiler's
// os_log folding pass on these `fatalError()` bodies). The one that matters most is copied:
// `@_semantics("oslog.requires_constant_arguments")` on `appendInterpolation`, which makes
// the type checker reject a privacy that is not written out at the call site
// (`privacy: .private`, never `privacy: somePrivacy`), as the SDK does; with it,
// `@_semantics("constant_evaluable")` on the `OSLogPrivacy` members it names.
//
// What it cannot check: the os_log folding pass itself (an `OSLogMessage` kept in a variable
// instead of written at the call, which the SDK rejects when compiling; the library writes
// every message at its call), and availability (Linux ignores it; every declaration used is
// older than the package's floors).

/// `os_log_type_t`, declared in C (`os/log.h`: `OS_ENUM(os_log_type, uint8_t, ...)`) and
/// imported as `OSLogType`, a `RawRepresentable` struct, `Sendable` as every imported C struct
/// of plain values is; the header is not among the files of xybp888/iOS-SDKs, so this is
/// written from [os]'s use of it. [os] adds the levels: `extension os.OSLogType {
/// @available(macOS 10.12, iOS 10.0, watchOS 3.0, tvOS 10.0, *) public static let `default`:
/// os.OSLogType` and likewise `info`, `debug`, `error`, `fault`.
public struct OSLogType: Equatable, Hashable, RawRepresentable, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }
}

extension OSLogType {
  @available(macOS 10.12, iOS 10.0, watchOS 3.0, tvOS 10.0, *)
  public static let `default` = OSLogType(rawValue: 0x00)
  @available(macOS 10.12, iOS 10.0, watchOS 3.0, tvOS 10.0, *)
  public static let info = OSLogType(rawValue: 0x01)
  @available(macOS 10.12, iOS 10.0, watchOS 3.0, tvOS 10.0, *)
  public static let debug = OSLogType(rawValue: 0x02)
  @available(macOS 10.12, iOS 10.0, watchOS 3.0, tvOS 10.0, *)
  public static let error = OSLogType(rawValue: 0x10)
  @available(macOS 10.12, iOS 10.0, watchOS 3.0, tvOS 10.0, *)
  public static let fault = OSLogType(rawValue: 0x11)
}

/// [os]: `@available(macOS 11.0, iOS 14.0, watchOS 7.0, tvOS 14.0, *) @frozen public
/// struct OSLogPrivacy` — not `Sendable` — with `@_semantics("constant_evaluable")
/// @_optimize(none) @inlinable public static var `public`: os.OSLogPrivacy`, likewise
/// `private`, `sensitive` and `auto`. The masks are left out.
@available(macOS 11.0, iOS 14.0, watchOS 7.0, tvOS 14.0, *)
@frozen public struct OSLogPrivacy {
  @_semantics("constant_evaluable") public static var `public`: OSLogPrivacy { fatalError() }
  @_semantics("constant_evaluable") public static var `private`: OSLogPrivacy { fatalError() }
  @_semantics("constant_evaluable") public static var sensitive: OSLogPrivacy { fatalError() }
  @_semantics("constant_evaluable") public static var auto: OSLogPrivacy { fatalError() }
}

/// [os]: `@available(macOS 11.0, iOS 14.0, watchOS 7.0, tvOS 14.0, *) @frozen public
/// struct OSLogStringAlignment`, with `@_semantics("constant_evaluable") ... public static var
/// none: os.OSLogStringAlignment` (the default of a string's `align:`). `left`/`right` are
/// left out.
@available(macOS 11.0, iOS 14.0, watchOS 7.0, tvOS 14.0, *)
@frozen public struct OSLogStringAlignment {
  @_semantics("constant_evaluable") public static var none: OSLogStringAlignment { fatalError() }
}

/// [os]: `@available(macOS 11.0, iOS 14.0, watchOS 7.0, tvOS 14.0, *) @frozen public
/// struct OSLogInterpolation : Swift.StringInterpolationProtocol` — not `Sendable` — with
/// `public init(literalCapacity: Swift.Int, interpolationCount: Swift.Int)`, `public mutating
/// func appendLiteral(_ literal: Swift.String)` and `public typealias StringLiteralType =
/// Swift.String`.
@available(macOS 11.0, iOS 14.0, watchOS 7.0, tvOS 14.0, *)
@frozen public struct OSLogInterpolation: StringInterpolationProtocol {
  public init(literalCapacity: Int, interpolationCount: Int) {}
  public mutating func appendLiteral(_ literal: String) {}
  @available(iOS 14.0, tvOS 14.0, watchOS 7.0, macOS 11.0, *)
  public typealias StringLiteralType = String
}

/// [os]: the string interpolation, `@_semantics("constant_evaluable") @inlinable
/// @_optimize(none) @_semantics("oslog.requires_constant_arguments") public mutating func
/// appendInterpolation(_ argumentString: @autoclosure @escaping () -> Swift.String, align:
/// os.OSLogStringAlignment = .none, privacy: os.OSLogPrivacy = .auto)`. The other
/// interpolations (integers, floats, errors, `CustomStringConvertible`, ...) are left out: the
/// library interpolates strings only.
@available(macOS 11.0, iOS 14.0, watchOS 7.0, tvOS 14.0, *)
extension OSLogInterpolation {
  @_semantics("constant_evaluable") @_semantics("oslog.requires_constant_arguments")
  public mutating func appendInterpolation(
    _ argumentString: @autoclosure @escaping () -> String, align: OSLogStringAlignment = .none,
    privacy: OSLogPrivacy = .auto
  ) {}
}

/// [os]: `@available(macOS 11.0, iOS 14.0, watchOS 7.0, tvOS 14.0, *) @frozen public
/// struct OSLogMessage : Swift.ExpressibleByStringInterpolation,
/// Swift.ExpressibleByStringLiteral` — not `Sendable` — with `public let interpolation:
/// os.OSLogInterpolation`, `public init(stringInterpolation: os.OSLogInterpolation)`, `public
/// init(stringLiteral value: Swift.String)` and its typealiases.
@available(macOS 11.0, iOS 14.0, watchOS 7.0, tvOS 14.0, *)
@frozen public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
  public let interpolation: OSLogInterpolation
  public init(stringInterpolation: OSLogInterpolation) { fatalError() }
  public init(stringLiteral value: String) { fatalError() }
  @available(iOS 14.0, tvOS 14.0, watchOS 7.0, macOS 11.0, *)
  public typealias ExtendedGraphemeClusterLiteralType = String
  @available(iOS 14.0, tvOS 14.0, watchOS 7.0, macOS 11.0, *)
  public typealias StringInterpolation = OSLogInterpolation
  @available(iOS 14.0, tvOS 14.0, watchOS 7.0, macOS 11.0, *)
  public typealias StringLiteralType = String
  @available(iOS 14.0, tvOS 14.0, watchOS 7.0, macOS 11.0, *)
  public typealias UnicodeScalarLiteralType = String
}

/// [os]: `@available(macOS 11.0, iOS 14.0, watchOS 7.0, tvOS 14.0, *) public struct
/// Logger : @unchecked Swift.Sendable`, with `public init(subsystem: Swift.String, category:
/// Swift.String)`, `public init()` and `@_transparent @_optimize(none)
/// @_semantics("oslog.log_with_level") public func log(level: os.OSLogType, _ message:
/// os.OSLogMessage)`; the level may be any value, unlike the message's arguments. The
/// one-level methods (`debug`, `error`, ...) and `init(_: OSLog)` are left out.
@available(macOS 11.0, iOS 14.0, watchOS 7.0, tvOS 14.0, *)
public struct Logger: @unchecked Sendable {
  public init(subsystem: String, category: String) {}
  public init() {}
  public func log(level: OSLogType, _ message: OSLogMessage) { fatalError() }
}

/// [os]: `@available(macOS 10.14, iOS 12.0, watchOS 5.0, tvOS 12.0, *) public struct
/// OSSignpostID : Swift.Sendable`, with `public static let exclusive: os.OSSignpostID` and
/// `public init(_ value: Swift.UInt64)`; [os] adds `extension os.OSSignpostID :
/// Swift.Comparable`. `rawValue` (a C type), `invalid`, `null` and the `OSLog` initialisers
/// are left out.
@available(macOS 10.14, iOS 12.0, watchOS 5.0, tvOS 12.0, *)
public struct OSSignpostID: Sendable {
  public static let exclusive = OSSignpostID(0)
  public init(_ value: UInt64) {}
}

@available(macOS 10.14, iOS 12.0, watchOS 5.0, tvOS 12.0, *)
extension OSSignpostID: Comparable {
  public static func < (a: OSSignpostID, b: OSSignpostID) -> Bool { fatalError() }
  public static func == (a: OSSignpostID, b: OSSignpostID) -> Bool { fatalError() }
}

/// [os]: `@available(macOS 12.0, iOS 15.0, watchOS 8.0, tvOS 15.0, *) public typealias
/// SignpostMetadata = os.OSLogMessage`.
@available(macOS 12.0, iOS 15.0, watchOS 8.0, tvOS 15.0, *)
public typealias SignpostMetadata = OSLogMessage

/// [os]: `@available(macOS 12.0, iOS 15.0, watchOS 8.0, tvOS 15.0, *) public struct
/// OSSignposter : @unchecked Swift.Sendable`, with `public var isEnabled: Swift.Bool { get }`,
/// `public init(subsystem: Swift.String, category: Swift.String)`, `public init(logger:
/// os.Logger)`, and `@_transparent @_optimize(none) @_semantics("constant_evaluable")`
/// `emitEvent(_ name: Swift.StaticString, id: os.OSSignpostID = .exclusive, _ message:
/// os.SignpostMetadata)`, `beginInterval(_ name: Swift.StaticString, id: os.OSSignpostID =
/// .exclusive, _ message: os.SignpostMetadata) -> os.OSSignpostIntervalState`,
/// `endInterval(_ name: Swift.StaticString, _ state: os.OSSignpostIntervalState, _ message:
/// os.SignpostMetadata)`; and `@inlinable @inline(__always) public func makeSignpostID() ->
/// os.OSSignpostID`. The forms without a message, `withIntervalSignpost`, the animation
/// intervals and the other initialisers are left out.
@available(macOS 12.0, iOS 15.0, watchOS 8.0, tvOS 15.0, *)
public struct OSSignposter: @unchecked Sendable {
  public var isEnabled: Bool { fatalError() }
  public init(subsystem: String, category: String) {}
  public init(logger: Logger) {}

  @_semantics("constant_evaluable")
  public func emitEvent(
    _ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata
  ) { fatalError() }

  @_semantics("constant_evaluable")
  public func beginInterval(
    _ name: StaticString, id: OSSignpostID = .exclusive, _ message: SignpostMetadata
  ) -> OSSignpostIntervalState { fatalError() }

  @_semantics("constant_evaluable")
  public func endInterval(
    _ name: StaticString, _ state: OSSignpostIntervalState, _ message: SignpostMetadata
  ) { fatalError() }

  public func makeSignpostID() -> OSSignpostID { fatalError() }
}

/// [os]: `@available(macOS 12.0, iOS 15.0, watchOS 8.0, tvOS 15.0, *) public class
/// OSSignpostIntervalState : Swift.Codable` — a class, not `Sendable` — with `required public
/// init(from decoder: any Swift.Decoder) throws` and `public func encode(to encoder: any
/// Swift.Encoder) throws`; its other initialiser is internal, so only `beginInterval` makes
/// one. `@objc deinit` is dropped (no Objective-C runtime on Linux).
@available(macOS 12.0, iOS 15.0, watchOS 8.0, tvOS 15.0, *)
public class OSSignpostIntervalState: Codable {
  required public init(from decoder: any Decoder) throws { fatalError() }
  public func encode(to encoder: any Encoder) throws { fatalError() }
}

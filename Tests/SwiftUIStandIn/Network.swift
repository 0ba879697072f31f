// A stand-in for Apple's Network module, used only by `.ci/swiftui-check` to type-check the
// library's `#if canImport(Network)` code on Linux. Test infrastructure, like SwiftUI.swift:
// never shipped, never part of a SwiftPM target, never run (bodies are `fatalError()`).
//
// Source: the iOS 18.0 SDK of Xcode 16.0 (Apple Swift 6.0), as stored in the public repository
// xybp888/iOS-SDKs (commit 88fdca9de873f60303011685188c9415d4ebff0a):
//
//   [Net] iPhoneOS18.0.sdk/System/Library/Frameworks/Network.framework/Modules/
//         Network.swiftmodule/arm64-apple-ios.swiftinterface              (79,197 characters)
//
// Read in full. Each declaration names its offset there (about). Only what the library uses
// is copied, with its attributes, availability and `Sendable` conformances as written; the
// rest of each type is left out (fewer members, never looser ones). `Network.X` in the file is
// plain `X` here. The module is compiled in Swift 5 mode, as [Net] was
// (`swift-module-flags: ... -swift-version 5`).

// DispatchQueue (`start(queue:)`): Dispatch is real on Linux.
import Dispatch

/// [Net] @29000 (iOS 12): `public struct NWPath : Swift.Equatable,
/// Swift.CustomDebugStringConvertible, Swift.Sendable`, with `public let status:
/// Network.NWPath.Status`. Its other members (interfaces, `isExpensive`, ...) are left out;
/// [Net] declares no public initialiser, and neither does this.
@available(macOS 10.14, iOS 12.0, watchOS 5.0, tvOS 12.0, *)
public struct NWPath: Equatable, CustomDebugStringConvertible, Sendable {
  public var debugDescription: String { fatalError() }

  /// [Net] @29100: `public enum Status : Swift.Sendable { case satisfied; case unsatisfied;
  /// case requiresConnection; ... }`; its `Equatable` and `Hashable` conformances are printed
  /// at the end of [Net] (@76300: `extension Network.NWPath.Status : Swift.Equatable {}`,
  /// `... : Swift.Hashable {}`), written here on the enum.
  public enum Status: Sendable, Equatable, Hashable {
    case satisfied
    case unsatisfied
    case requiresConnection
  }

  public let status: NWPath.Status

  public static func == (lhs: NWPath, rhs: NWPath) -> Bool { fatalError() }
}

/// [Net] @30600 (iOS 12): `@_objcRuntimeName(_TtC7Network14_NWPathMonitor) final public class
/// NWPathMonitor` — not isolated — with `@preconcurrency final public var pathUpdateHandler:
/// (@Sendable (_ newPath: Network.NWPath) -> Swift.Void)? { get set }`, `final public func
/// start(queue: Dispatch.DispatchQueue)`, `final public func cancel()` and `public init()`.
/// `@_objcRuntimeName` is dropped (no Objective-C runtime on Linux); `currentPath`, `queue`,
/// the other initialisers and the `AsyncSequence` conformance are left out.
@available(macOS 10.14, iOS 12.0, watchOS 5.0, tvOS 12.0, *)
public final class NWPathMonitor {
  @preconcurrency public final var pathUpdateHandler: (@Sendable (_ newPath: NWPath) -> Void)? {
    get { fatalError() }
    set { fatalError() }
  }

  public final func start(queue: DispatchQueue) { fatalError() }

  public final func cancel() { fatalError() }

  public init() {}
}

/// [Net] @31600: `@available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *) extension
/// Network.NWPathMonitor : Swift.Sendable, Swift.CustomDebugStringConvertible,
/// _Concurrency.AsyncSequence` — the monitor is `Sendable` from iOS 17, the package's floor.
/// Only `Sendable` is copied.
@available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *)
extension NWPathMonitor: Sendable {}

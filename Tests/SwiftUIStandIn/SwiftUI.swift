// A stand-in for Apple's SwiftUI module, used only by `.ci/swiftui-check` to type-check the
// library's SwiftUI layer on Linux. It is test infrastructure: never shipped, never part of a
// SwiftPM target (SwiftPM ignores this folder because Package.swift declares no target for
// it), never imported on Apple platforms, never run (bodies are `fatalError()` or trivial).
//
// Source: the iOS 18.0 SDK of Xcode 16.0 (Apple Swift 6.0, swiftlang-6.0.0.7.24), as stored in
// the public repository xybp888/iOS-SDKs (commit 88fdca9de873f60303011685188c9415d4ebff0a):
//
//   [Core] iPhoneOS18.0.sdk/System/Library/Frameworks/SwiftUICore.framework/Modules/
//          SwiftUICore.swiftmodule/arm64-apple-ios.swiftinterface        (982,545 characters)
//   [UI]   iPhoneOS18.0.sdk/System/Library/Frameworks/SwiftUI.framework/Modules/
//          SwiftUI.swiftmodule/arm64-apple-ios.swiftinterface            (1,369,099 characters)
//
// Each declaration below names the file it is copied from and the character offset (about) at
// which it appears there, so it can be found again with `read_file` and an `offset`. [Core] was
// read in full; [UI] was read from the start until the last declaration used was found (its
// first 1,168,000 characters). Every declaration the library and the client files use was
// located in one of them, except `Text.DateStyle` and its interpolation (see below).
//
// Checked against the SDK (session 11): the declarations added later for the articles'
// examples (`List`'s data initialisers, `ForEach`, `Label`, `Image(systemName:)`,
// `ContentUnavailableView`, `toolbar`, `overlay(alignment:content:)`, `Alignment`,
// `VerticalAlignment`, `AccessibilityChildBehavior`, `accessibilityElement(children:)`) and
// the scene and date-style ones were looked for in the arm64e interfaces of the same SDK
// (same content; offsets agree with the arm64 ones within a few hundred characters), reading
// [UI] 0-528,000 and 784,000-800,000 and [Core] 232,000-248,000, 264,000-280,000,
// 494,000-510,000, 812,000-908,000 and 944,000-960,000. Found and corrected: `List`'s data
// initialisers are `nonisolated` (they were copied `@MainActor` from the documentation, which
// shows deprecated internal overloads). Found and agreeing: `List`, `WindowGroup`, `sheet`,
// `Image`'s declaration, `Alignment`, `VerticalAlignment`.
//
// A second pass (session 11, continued) read the arm64 files where the first had not: [UI]
// 528,000-1,369,099 (all but 1,332,000-1,340,000, `TableColumn` initialisers) and [Core]
// 0-232,000, 248,000-264,000, 280,000-494,000, 510,000-878,000, 908,000-940,000 and
// 960,000-982,545 (from about 862,000 on, [Core] is only conformance lists). Every offset
// given below is an arm64 one. Found and agreeing: `Scene` and `Never : Scene` ([UI]
// @837900), `Label` ([UI] @1209400), `ContentUnavailableView` ([UI] @894900),
// `toolbar(content:)` ([UI] @931100), `overlay(alignment:content:)` ([Core] @159900),
// `ForEach` and its `Identifiable` initialiser ([Core] @747700, @749300; `Sendable` is now
// marked unavailable, as there) and `Image(systemName:)` ([Core] @397700). Found and
// corrected: `SceneBuilder` ([UI] @875300: its one-scene `buildBlock` is not
// `@_alwaysEmitIntoClient`; its `buildExpression`, which is, was added),
// `accessibilityElement(children:)` ([UI] @1188200: iOS 13, not 14) and
// `AccessibilityChildBehavior` ([UI] @1150700 and @1188450: declared in [UI], iOS 13,
// `Hashable` only, with `Sendable` unavailable; it had been made `Sendable`). Not found:
// `Text.DateStyle` and its `appendInterpolation(_:style:)`, which are marked so where they are
// declared.
//
// SwiftUI re-exports SwiftUICore, and the layer only writes `import SwiftUI`, so this one
// module, named SwiftUI, stands for both; `SwiftUICore.X` in the interfaces is plain `X` here.
//
// How declarations are copied, and what is dropped:
// - Attributes, isolation and `Sendable` conformances are copied as written:
//   `@MainActor @preconcurrency` (`@_Concurrency.MainActor` in the files), `nonisolated`,
//   `@available(*, unavailable) extension X : Sendable {}`, `@_inheritActorContext`,
//   `@isolated(any)`, `@_disfavoredOverload`, `@_semantics`, `@inlinable`,
//   `@_alwaysEmitIntoClient`, `@frozen`, and the `#if compiler(>=5.3) && $Feature` guards.
// - `@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)`-style availability is
//   copied where it is not iOS 13 (the floor); Linux ignores it, so it is documentation only.
//   `@_originallyDefinedIn(module: "SwiftUI", iOS 18.0)` is dropped: it records that a symbol
//   moved from SwiftUI to SwiftUICore, which one module cannot express and which changes
//   nothing for the type checker.
// - `@_functionBuilder` (the old spelling the interface prints) is written `@resultBuilder`:
//   the Swift 6.3 compiler warns about the old spelling, and the check treats warnings as
//   errors. They mean the same.
// - Underscored requirements with default implementations (`View._makeView`,
//   `_makeViewList`, `_viewListCount`, `DynamicProperty._makeProperty`,
//   `_propertyBehaviors`) and `package`/`internal` storage are left out; where an
//   `@inlinable` body needs storage, a stand-in `@usableFromInline internal` property takes
//   its place. Bodies are not SwiftUI's.
// - Overloads the layer and its client code cannot reach are left out (fewer overloads, never
//   looser ones: a missing overload can make the check fail where the SDK accepts, never the
//   reverse for the overloads that are declared). Each group says what it leaves out.
// - The module is compiled with `-swift-version 5`, as [Core] and [UI] were
//   (`swift-module-flags: ... -swift-version 5`). The code it checks is compiled in Swift 6
//   mode with the library's flags.

// CGFloat (VStack's `spacing:`) and Bundle (Text's `bundle:`). SwiftUI gets them from
// CoreFoundation and Foundation; on Linux both live in Foundation.
import Foundation

// MARK: - View and its builders

/// [Core] @605000 (iOS 13):
/// `@_typeEraser(AnyView) @preconcurrency @_Concurrency.MainActor public protocol View {
/// associatedtype Body : SwiftUICore.View; @SwiftUICore.ViewBuilder @_Concurrency.MainActor
/// @preconcurrency var body: Self.Body { get } }` (plus the underscored `nonisolated static`
/// requirements, left out).
@_typeEraser(AnyView) @preconcurrency @MainActor
public protocol View {
  associatedtype Body: View
  @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// The `body` of primitive views (`Body == Never`). Not found in [Core] (its primitive views
/// satisfy the requirement through underscored members); written here so the stand-in's
/// primitive views conform. Its `ViewModifier` counterpart is at [Core] @677000
/// (`extension ViewModifier where Self.Body == Swift.Never { @_Concurrency.MainActor
/// @preconcurrency public func body(content: Self.Content) -> Self.Body }`), copied the same way.
extension View where Body == Never {
  @MainActor @preconcurrency public var body: Never { fatalError() }
}

/// [Core] @700000: `extension Swift.Never : SwiftUICore.View` (its only member there is the
/// underscored `_viewListCount`). [Core] writes no `Body` alias there; it is written out here so
/// `Never` conforms in the stand-in.
extension Never: View {
  public typealias Body = Never
}

/// [Core] @218000 (iOS 13): `@_functionBuilder public struct ViewBuilder`, with
/// `@available(*, unavailable) extension SwiftUICore.ViewBuilder : Swift.Sendable {}`. This is
/// the whole builder of iOS 18.0: one `buildExpression`, the empty and one-view `buildBlock`, the
/// variadic `buildBlock` (`@_disfavoredOverload`, so a single view takes the one-view form), and
/// no fixed-arity `buildBlock(_:_:)...` overloads.
@resultBuilder
public struct ViewBuilder {
  @_alwaysEmitIntoClient public static func buildExpression<Content>(_ content: Content) -> Content
  where Content: View {
    content
  }

  @_alwaysEmitIntoClient public static func buildBlock() -> EmptyView {
    EmptyView()
  }

  @_alwaysEmitIntoClient public static func buildBlock<Content>(_ content: Content) -> Content
  where Content: View {
    content
  }

  #if compiler(>=5.3) && $ParameterPacks
    @_disfavoredOverload @_alwaysEmitIntoClient
    public static func buildBlock<each Content>(_ content: repeat each Content) -> TupleView<
      (repeat each Content)
    > where repeat each Content: View {
      TupleView((repeat each content))
    }
  #endif
}

@available(*, unavailable)
extension ViewBuilder: Sendable {}

/// [Core] @219000 (iOS 13): `buildIf`, `buildEither(first:)`, `buildEither(second:)`.
extension ViewBuilder {
  @_alwaysEmitIntoClient public static func buildIf<Content>(_ content: Content?) -> Content?
  where Content: View {
    content
  }

  @_alwaysEmitIntoClient public static func buildEither<TrueContent, FalseContent>(
    first: TrueContent
  ) -> _ConditionalContent<TrueContent, FalseContent>
  where TrueContent: View, FalseContent: View {
    .init(storage: .trueContent(first))
  }

  @_alwaysEmitIntoClient public static func buildEither<TrueContent, FalseContent>(
    second: FalseContent
  ) -> _ConditionalContent<TrueContent, FalseContent>
  where TrueContent: View, FalseContent: View {
    .init(storage: .falseContent(second))
  }
}

/// [Core] @219500: `@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)` —
/// `buildLimitedAvailability(_:) -> AnyView`, for `if #available` in a builder.
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
extension ViewBuilder {
  @_alwaysEmitIntoClient public static func buildLimitedAvailability<Content>(_ content: Content)
    -> AnyView where Content: View
  {
    .init(content)
  }
}

/// [Core] @123000: `@frozen @_Concurrency.MainActor @preconcurrency public struct TupleView<T> :
/// SwiftUICore.View { @_Concurrency.MainActor @preconcurrency public var value: T; @inlinable
/// nonisolated public init(_ value: T) { self.value = value } ... }`, with `Sendable`
/// unavailable. `value` is main-actor isolated: a nonisolated read is an error.
@frozen @MainActor @preconcurrency
public struct TupleView<T>: View {
  @MainActor @preconcurrency public var value: T
  // [Core] declares this `@inlinable` with the body `self.value = value`; Swift 6.3 reports
  // that write from a nonisolated initialiser (a warning in Swift 5 mode, an error with
  // -warnings-as-errors), so the stand-in's initialiser is opaque instead.
  nonisolated public init(_ value: T) { fatalError() }
  public typealias Body = Never
}

@available(*, unavailable)
extension TupleView: Sendable {}

/// [Core] @733000: `@frozen public struct _ConditionalContent<TrueContent, FalseContent> {
/// @frozen public enum Storage { case trueContent(TrueContent); case falseContent(FalseContent) };
/// public let storage: ... }` — not main-actor isolated itself — with `Sendable` unavailable for
/// both the struct and `Storage`.
@frozen
public struct _ConditionalContent<TrueContent, FalseContent> {
  @frozen public enum Storage {
    case trueContent(TrueContent)
    case falseContent(FalseContent)
  }
  public let storage: _ConditionalContent<TrueContent, FalseContent>.Storage
}

@available(*, unavailable)
extension _ConditionalContent.Storage: Sendable {}

@available(*, unavailable)
extension _ConditionalContent: Sendable {}

/// [Core] @737000: `extension _ConditionalContent : View where TrueContent : View, FalseContent
/// : View { public typealias Body = Swift.Never; @usableFromInline internal init(storage:) ... }`
/// (the `@_alwaysEmitIntoClient` `init(_storage:)` deprecated "Do not use this." is left out).
extension _ConditionalContent: View where TrueContent: View, FalseContent: View {
  public typealias Body = Never
  @usableFromInline
  internal init(storage: _ConditionalContent<TrueContent, FalseContent>.Storage) {
    self.storage = storage
  }
}

/// [Core] @666000: `extension Swift.Optional : SwiftUICore.View where Wrapped :
/// SwiftUICore.View { public typealias Body = Swift.Never ... }` — what `buildIf` returns.
extension Optional: View where Wrapped: View {
  public typealias Body = Never
}

// MARK: - Views

/// [Core] @616000: `@frozen @_Concurrency.MainActor @preconcurrency public struct EmptyView :
/// SwiftUICore.View { @inlinable nonisolated public init() {} ... }`, and @961000
/// `extension SwiftUICore.EmptyView : Swift.Sendable {}`: unlike most views, `EmptyView` is
/// `Sendable`.
@frozen @MainActor @preconcurrency
public struct EmptyView: View {
  @inlinable nonisolated public init() {}
  public typealias Body = Never
}

extension EmptyView: Sendable {}

/// [Core] @650000: `@frozen @_Concurrency.MainActor @preconcurrency public struct AnyView :
/// SwiftUICore.View { nonisolated public init<V>(_ view: V) where V : SwiftUICore.View;
/// @_alwaysEmitIntoClient nonisolated public init<V>(erasing view: V) ...; nonisolated public
/// init?(_fromValue value: Any) ... }`, with `Sendable` unavailable.
@frozen @MainActor @preconcurrency
public struct AnyView: View {
  nonisolated public init<V>(_ view: V) where V: View { fatalError() }
  @_alwaysEmitIntoClient nonisolated public init<V>(erasing view: V) where V: View {
    self.init(view)
  }
  nonisolated public init?(_fromValue value: Any) { fatalError() }
  public typealias Body = Never
}

@available(*, unavailable)
extension AnyView: Sendable {}

/// [Core] @812000: `@frozen public struct Text : Swift.Equatable, Swift.Sendable { ...
/// @inlinable public init(verbatim content: Swift.String) { storage = .verbatim(content) };
/// @_disfavoredOverload public init<S>(_ content: S) where S : Swift.StringProtocol; ... }`.
/// Not isolated, and `Sendable`. The `StringProtocol` initialiser is disfavoured: a string
/// *literal* picks the localizing `init(_:tableName:bundle:comment:)` below.
@frozen
public struct Text: Equatable, Sendable {
  @usableFromInline internal var storage: String
  @inlinable public init(verbatim content: String) { storage = content }
  @_disfavoredOverload public init<S>(_ content: S) where S: StringProtocol {
    storage = String(content)
  }
  public static func == (a: Text, b: Text) -> Bool { a.storage == b.storage }
}

/// [Core] @233000 (iOS 13): `extension SwiftUICore.Text {
/// @_semantics("swiftui.init_with_localization") public init(_ key:
/// SwiftUICore.LocalizedStringKey, tableName: Swift.String? = nil, bundle: Foundation.Bundle? =
/// nil, comment: Swift.StaticString? = nil) }`. (`init(_: LocalizedStringResource)` (iOS 16,
/// disfavoured), the formatter, format-style, date and image initialisers are left out.)
extension Text {
  @_semantics("swiftui.init_with_localization")
  public init(
    _ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil,
    comment: StaticString? = nil
  ) {
    storage = key.key
  }
}

/// [Core] @265000: `extension SwiftUICore.Text : SwiftUICore.View { ... public typealias Body =
/// Swift.Never }`.
extension Text: View {
  public typealias Body = Never
}

/// [UI] @98600 (iOS 15): `extension SwiftUICore.Text { ... nonisolated public func
/// accessibilityLabel(_ label: SwiftUICore.Text) -> SwiftUICore.Text; nonisolated public func
/// accessibilityLabel(_ labelKey: SwiftUICore.LocalizedStringKey) -> SwiftUICore.Text;
/// @_disfavoredOverload nonisolated public func accessibilityLabel<S>(_ label: S) ->
/// SwiftUICore.Text where S : Swift.StringProtocol }` (its `accessibilityTextContentType` and
/// `accessibilityHeading` siblings left out): on a `Text`, these win over
/// `View.accessibilityLabel(_:)` and keep the result a `Text`.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
extension Text {
  nonisolated public func accessibilityLabel(_ label: Text) -> Text { self }
  nonisolated public func accessibilityLabel(_ labelKey: LocalizedStringKey) -> Text { self }
  @_disfavoredOverload
  nonisolated public func accessibilityLabel<S>(_ label: S) -> Text where S: StringProtocol {
    self
  }
}

/// [Core] @233500: `@frozen public struct LocalizedStringKey : Swift.Equatable,
/// Swift.ExpressibleByStringInterpolation`, with `Sendable` unavailable (for the key and its
/// `StringInterpolation`). A string literal or interpolation passed where both this and a
/// `StringProtocol` overload are accepted becomes a `LocalizedStringKey`.
@frozen
public struct LocalizedStringKey: Equatable, ExpressibleByStringInterpolation {
  @usableFromInline internal var key: String
  public init(_ value: String) { key = value }
  @_semantics("swiftui.localized_string_key.init_literal")
  public init(stringLiteral value: String) { key = value }
  @_semantics("swiftui.localized_string_key.init_interpolation")
  public init(stringInterpolation: LocalizedStringKey.StringInterpolation) {
    key = stringInterpolation.key
  }

  /// [Core] @234000. The interpolations a localized key accepts: strings, `Text`,
  /// `AttributedString`, the `_FormatSpecifiable` numbers, and — marked unavailable — views.
  /// (The formatter, `NSObject`, format-style, `Image`, date and `LocalizedStringResource`
  /// forms are left out.)
  public struct StringInterpolation: StringInterpolationProtocol {
    @usableFromInline internal var key = ""
    @_semantics("swiftui.localized.interpolation_init")
    public init(literalCapacity: Int, interpolationCount: Int) {}
    @_semantics("swiftui.localized.appendLiteral")
    public mutating func appendLiteral(_ literal: String) { key += literal }
    @_semantics("swiftui.localized.appendInterpolation_@_specifier")
    public mutating func appendInterpolation(_ string: String) { key += "%@" }
    @_transparent public mutating func appendInterpolation<T>(_ value: T)
    where T: _FormatSpecifiable {
      appendInterpolation(value, specifier: value._specifier)
    }
    @_semantics("swiftui.localized.appendInterpolation_param_specifier")
    public mutating func appendInterpolation<T>(_ value: T, specifier: String)
    where T: _FormatSpecifiable { key += specifier }
    @available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
    @_semantics("swiftui.localized.appendInterpolation_@_specifier")
    public mutating func appendInterpolation(_ text: Text) { key += "%@" }
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    @_semantics("swiftui.localized.appendInterpolation_@_specifier")
    public mutating func appendInterpolation(_ attributedString: AttributedString) { key += "%@" }
    @available(
      *, unavailable,
      message:
        "Unsupported type for interpolation, see LocalizedStringKey.StringInterpolation for supported types."
    )
    public mutating func appendInterpolation<T>(_ view: T) where T: View {}
    public typealias StringLiteralType = String
  }

  public static func == (a: LocalizedStringKey, b: LocalizedStringKey) -> Bool { a.key == b.key }
  public typealias ExtendedGraphemeClusterLiteralType = String
  public typealias StringLiteralType = String
  public typealias UnicodeScalarLiteralType = String
}

@available(*, unavailable)
extension LocalizedStringKey.StringInterpolation: Sendable {}

@available(*, unavailable)
extension LocalizedStringKey: Sendable {}

/// [Core] @238000: `public protocol _FormatSpecifiable : Swift.Equatable { associatedtype _Arg :
/// Swift.CVarArg; var _arg: Self._Arg { get }; var _specifier: Swift.String { get } }`, adopted
/// by the integer and floating-point types (only `Int` and `Double` are copied here).
public protocol _FormatSpecifiable: Equatable {
  associatedtype _Arg: CVarArg
  var _arg: Self._Arg { get }
  var _specifier: String { get }
}

extension Int: _FormatSpecifiable {
  public var _arg: Int64 { Int64(self) }
  public var _specifier: String { "%lld" }
}

extension Double: _FormatSpecifiable {
  public var _arg: Double { self }
  public var _specifier: String { "%lf" }
}

/// [UI] @1143300 (iOS 13): `@_Concurrency.MainActor @preconcurrency public struct Button<Label>
/// : SwiftUICore.View where Label : SwiftUICore.View { @preconcurrency nonisolated public
/// init(action: @escaping @_Concurrency.MainActor () -> Swift.Void, @SwiftUICore.ViewBuilder
/// label: () -> Label); @_Concurrency.MainActor @preconcurrency public var body: some
/// SwiftUICore.View { get } ... }`, with `Sendable` unavailable. Its action is `@MainActor`:
/// SwiftUI calls it there.
@MainActor @preconcurrency
public struct Button<Label>: View where Label: View {
  @preconcurrency
  nonisolated public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label)
  {
    fatalError()
  }
  @MainActor @preconcurrency public var body: some View { EmptyView() }
}

@available(*, unavailable)
extension Button: Sendable {}

/// [UI] @1143900 (iOS 13): the title initialisers, `@preconcurrency nonisolated public init(_
/// titleKey: SwiftUICore.LocalizedStringKey, action: @escaping @_Concurrency.MainActor () ->
/// Swift.Void)` (what a literal picks) and `@preconcurrency @_disfavoredOverload nonisolated
/// public init<S>(_ title: S, action: ...) where S : Swift.StringProtocol` (what a `String` value
/// picks). (The `role:`, `systemImage:` and `image:` forms are left out.)
extension Button where Label == Text {
  @preconcurrency
  nonisolated public init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void) {
    fatalError()
  }
  @_disfavoredOverload @preconcurrency
  nonisolated public init<S>(_ title: S, action: @escaping @MainActor () -> Void)
  where S: StringProtocol {
    fatalError()
  }
}

/// [UI] @205300 (iOS 14): `@_Concurrency.MainActor @preconcurrency public struct
/// ProgressView<Label, CurrentValueLabel> : SwiftUICore.View where Label : SwiftUICore.View,
/// CurrentValueLabel : SwiftUICore.View { @_Concurrency.MainActor @preconcurrency public var
/// body: some SwiftUICore.View { get } ... }`, with `Sendable` unavailable.
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
@MainActor @preconcurrency
public struct ProgressView<Label, CurrentValueLabel>: View
where Label: View, CurrentValueLabel: View {
  @MainActor @preconcurrency public var body: some View { EmptyView() }
}

@available(*, unavailable)
extension ProgressView: Sendable {}

/// [UI] @205900 (iOS 14): the indeterminate initialisers, `extension SwiftUI.ProgressView where
/// CurrentValueLabel == SwiftUICore.EmptyView { nonisolated public init() where Label ==
/// SwiftUICore.EmptyView; ... init(@SwiftUICore.ViewBuilder label: () -> Label); ... init(_
/// titleKey: SwiftUICore.LocalizedStringKey) where Label == SwiftUICore.Text;
/// @_disfavoredOverload nonisolated public init<S>(_ title: S) where Label == SwiftUICore.Text,
/// S : Swift.StringProtocol }`.
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
extension ProgressView where CurrentValueLabel == EmptyView {
  nonisolated public init() where Label == EmptyView { fatalError() }
  nonisolated public init(@ViewBuilder label: () -> Label) { fatalError() }
  nonisolated public init(_ titleKey: LocalizedStringKey) where Label == Text { fatalError() }
  @_disfavoredOverload
  nonisolated public init<S>(_ title: S) where Label == Text, S: StringProtocol { fatalError() }
}

/// [UI] @206400 (iOS 14): the determinate initialisers, `nonisolated public init<V>(value: V?,
/// total: V = 1.0) where ... V : Swift.BinaryFloatingPoint`, `nonisolated public init<V>(value:
/// V?, total: V = 1.0, @SwiftUICore.ViewBuilder label: () -> Label) where CurrentValueLabel ==
/// SwiftUICore.EmptyView, V : Swift.BinaryFloatingPoint` and the titled pair as above; a `nil`
/// value is indeterminate. (The `currentValueLabel:` form, and @207300
/// `init(_: Foundation.Progress)`, are left out.)
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
extension ProgressView {
  nonisolated public init<V>(value: V?, total: V = 1.0)
  where Label == EmptyView, CurrentValueLabel == EmptyView, V: BinaryFloatingPoint {
    fatalError()
  }
  nonisolated public init<V>(value: V?, total: V = 1.0, @ViewBuilder label: () -> Label)
  where CurrentValueLabel == EmptyView, V: BinaryFloatingPoint {
    fatalError()
  }
  nonisolated public init<V>(_ titleKey: LocalizedStringKey, value: V?, total: V = 1.0)
  where Label == Text, CurrentValueLabel == EmptyView, V: BinaryFloatingPoint {
    fatalError()
  }
  @_disfavoredOverload
  nonisolated public init<S, V>(_ title: S, value: V?, total: V = 1.0)
  where Label == Text, CurrentValueLabel == EmptyView, S: StringProtocol, V: BinaryFloatingPoint {
    fatalError()
  }
}

/// [Core] @495000: `@frozen public struct HorizontalAlignment : Swift.Equatable` (its public
/// `init(_: any AlignmentID.Type)` and `key` are left out), @498000 `public static let leading,
/// center, trailing`, and @949000 `extension SwiftUICore.HorizontalAlignment : Swift.Sendable`.
@frozen
public struct HorizontalAlignment: Equatable {
  @usableFromInline internal let id: Int
  public static let leading = HorizontalAlignment(id: 0)
  public static let center = HorizontalAlignment(id: 1)
  public static let trailing = HorizontalAlignment(id: 2)
}

extension HorizontalAlignment: Sendable {}

/// [Core] @58000: `@frozen @_Concurrency.MainActor @preconcurrency public struct
/// VStack<Content> : SwiftUICore.View where Content : SwiftUICore.View { ... @inlinable
/// nonisolated public init(alignment: SwiftUICore.HorizontalAlignment = .center, spacing:
/// CoreFoundation.CGFloat? = nil, @SwiftUICore.ViewBuilder content: () -> Content) ... }`, with
/// `Sendable` unavailable.
@frozen @MainActor @preconcurrency
public struct VStack<Content>: View where Content: View {
  // [Core] declares this `@inlinable`, storing `content()` in a main-actor `_tree`; opaque
  // here for the reason given at `TupleView.init(_:)`.
  nonisolated public init(
    alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil,
    @ViewBuilder content: () -> Content
  ) {
    fatalError()
  }
  public typealias Body = Never
}

@available(*, unavailable)
extension VStack: Sendable {}

/// [UI] @271700 (iOS 13): `@_Concurrency.MainActor @preconcurrency public struct
/// TextField<Label> : SwiftUICore.View where Label : SwiftUICore.View {
/// @_Concurrency.MainActor @preconcurrency public var body: some SwiftUICore.View { get } ...
/// }`, with `Sendable` unavailable.
@MainActor @preconcurrency
public struct TextField<Label>: View where Label: View {
  @MainActor @preconcurrency public var body: some View { EmptyView() }
}

@available(*, unavailable)
extension TextField: Sendable {}

/// [UI] @274700 (iOS 13): `@_alwaysEmitIntoClient nonisolated public init(_ titleKey:
/// SwiftUICore.LocalizedStringKey, text: SwiftUICore.Binding<Swift.String>)` and
/// `@_disfavoredOverload @_alwaysEmitIntoClient nonisolated public init<S>(_ title: S, text:
/// SwiftUICore.Binding<Swift.String>) where S : Swift.StringProtocol` (their bodies call the
/// deprecated `onEditingChanged:onCommit:` form, left out with the `prompt:` and `axis:` forms;
/// opaque here).
extension TextField where Label == Text {
  nonisolated public init(_ titleKey: LocalizedStringKey, text: Binding<String>) { fatalError() }
  @_disfavoredOverload
  nonisolated public init<S>(_ title: S, text: Binding<String>) where S: StringProtocol {
    fatalError()
  }
}

// MARK: - Modifiers

/// [Core] @677000 (iOS 13): `@preconcurrency @_Concurrency.MainActor public protocol
/// ViewModifier { associatedtype Body : SwiftUICore.View; @SwiftUICore.ViewBuilder
/// @_Concurrency.MainActor @preconcurrency func body(content: Self.Content) -> Self.Body;
/// typealias Content = SwiftUICore._ViewModifier_Content<Self> }` (underscored requirements left
/// out), and its `Body == Never` default body.
@preconcurrency @MainActor
public protocol ViewModifier {
  associatedtype Body: View
  @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
  typealias Content = _ViewModifier_Content<Self>
}

extension ViewModifier where Body == Never {
  @MainActor @preconcurrency public func body(content: Self.Content) -> Self.Body { fatalError() }
}

/// [Core] @90000: `@_Concurrency.MainActor @preconcurrency public struct
/// _ViewModifier_Content<Modifier> : SwiftUICore.View where Modifier : SwiftUICore.ViewModifier
/// { ... public typealias Body = Swift.Never }`, no public initialiser, `Sendable` unavailable.
@MainActor @preconcurrency
public struct _ViewModifier_Content<Modifier>: View where Modifier: ViewModifier {
  public typealias Body = Never
}

@available(*, unavailable)
extension _ViewModifier_Content: Sendable {}

/// [Core] @681500: `@frozen public struct ModifiedContent<Content, Modifier> { public typealias
/// Body = Swift.Never; public var content: Content; public var modifier: Modifier; @inlinable
/// nonisolated public init(content: Content, modifier: Modifier) ... }` — not isolated itself —
/// with `Sendable` unavailable, and its `View` conformance (a `@_Concurrency.MainActor
/// @preconcurrency public var body`). (Its `ViewModifier` conformance is left out.)
@frozen
public struct ModifiedContent<Content, Modifier> {
  public typealias Body = Never
  public var content: Content
  public var modifier: Modifier
  @inlinable nonisolated public init(content: Content, modifier: Modifier) {
    self.content = content
    self.modifier = modifier
  }
}

@available(*, unavailable)
extension ModifiedContent: Sendable {}

extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
  @MainActor @preconcurrency public var body: ModifiedContent<Content, Modifier>.Body {
    fatalError()
  }
}

/// [Core] @681000: `@inlinable nonisolated public func modifier<T>(_ modifier: T) ->
/// SwiftUICore.ModifiedContent<Self, T>` — `T` unconstrained.
extension View {
  @inlinable nonisolated public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> {
    return .init(content: self, modifier: modifier)
  }
}

/// [Core] @12000: `@inlinable nonisolated public func disabled(_ disabled: Swift.Bool) -> some
/// SwiftUICore.View`; @482000: `@inlinable nonisolated public func onAppear(perform action: (()
/// -> Swift.Void)? = nil) -> some SwiftUICore.View` (the action is neither `@Sendable` nor
/// isolated); beside it, `@inlinable nonisolated public func onDisappear(perform action: (() ->
/// Swift.Void)? = nil) -> some SwiftUICore.View`, the same shape. Bodies are the stand-in's.
extension View {
  nonisolated public func disabled(_ disabled: Bool) -> some View { self }
  nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> some View { self }
  nonisolated public func onDisappear(perform action: (() -> Void)? = nil) -> some View { self }
}

/// [Core] @603000 (iOS 17): both `onChange(of:initial:_:)` forms, and @600000 (iOS 14)
/// `onChange(of:perform:)`, which a one-parameter closure picks. [Core] deprecates it on
/// `iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0` — exactly this package's
/// deployment floors (Package.swift), so every use warns on every platform the package
/// supports. Linux ignores platform-specific deprecations, so the stand-in writes the same
/// deprecation as `@available(*, deprecated, ...)`, with [Core]'s message.
extension View {
  @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
  nonisolated public func onChange<V>(
    of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void
  ) -> some View where V: Equatable {
    self
  }

  @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
  nonisolated public func onChange<V>(
    of value: V, initial: Bool = false, _ action: @escaping () -> Void
  ) -> some View where V: Equatable {
    self
  }

  @available(
    *, deprecated, message: "Use `onChange` with a two or zero parameter action closure instead."
  )
  nonisolated public func onChange<V>(
    of value: V, perform action: @escaping (_ newValue: V) -> Void
  ) -> some View where V: Equatable {
    self
  }
}

/// [UI] @268000 (iOS 15): `@inlinable nonisolated public func task(priority:
/// _Concurrency.TaskPriority = .userInitiated, @_inheritActorContext _ action: @escaping
/// @Sendable () async -> Swift.Void) -> some SwiftUICore.View` and `task<T>(id value: T,
/// priority:_:) where T : Swift.Equatable` (bodies wrap `_TaskModifier`; opaque here) — a
/// closure written in a main-actor `body` runs on the main actor, one written in a
/// `nonisolated` function does not.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
extension View {
  nonisolated public func task(
    priority: TaskPriority = .userInitiated,
    @_inheritActorContext _ action: @escaping @Sendable () async -> Void
  ) -> some View {
    self
  }

  nonisolated public func task<T>(
    id value: T,
    priority: TaskPriority = .userInitiated,
    @_inheritActorContext _ action: @escaping @Sendable () async -> Void
  ) -> some View where T: Equatable {
    self
  }
}

/// [UI] @484600 (iOS 15, macOS 12, tvOS 15, watchOS 8): `nonisolated public func
/// refreshable(@_inheritActorContext action: @escaping @Sendable () async -> Swift.Void) -> some
/// SwiftUICore.View`.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
extension View {
  nonisolated public func refreshable(
    @_inheritActorContext action: @escaping @Sendable () async -> Void
  ) -> some View {
    self
  }
}

/// [UI] @788700 (iOS 13): `@_Concurrency.MainActor @preconcurrency public struct
/// AccessibilityAttachmentModifier : SwiftUICore.ViewModifier { public typealias Body =
/// Swift.Never }` (not `@frozen`), with `Sendable` unavailable.
@MainActor @preconcurrency
public struct AccessibilityAttachmentModifier: ViewModifier {
  public typealias Body = Never
}

@available(*, unavailable)
extension AccessibilityAttachmentModifier: Sendable {}

/// [UI] @1000 (iOS 14): `accessibilityValue(_:)` on `View` — `Text`, `LocalizedStringKey`, and a
/// `@_disfavoredOverload` `StringProtocol` form, all `nonisolated`, returning
/// `ModifiedContent<Self, SwiftUI.AccessibilityAttachmentModifier>`; [UI] @46800 (iOS 14):
/// `accessibilityLabel(_:)` with the same three forms. (The `isEnabled:` forms of iOS 18, [UI]
/// @44500, and the `LocalizedStringResource` forms are left out.)
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
extension View {
  nonisolated public func accessibilityLabel(_ label: Text)
    -> ModifiedContent<Self, AccessibilityAttachmentModifier>
  { fatalError() }
  nonisolated public func accessibilityLabel(_ labelKey: LocalizedStringKey)
    -> ModifiedContent<Self, AccessibilityAttachmentModifier>
  { fatalError() }
  @_disfavoredOverload
  nonisolated public func accessibilityLabel<S>(_ label: S)
    -> ModifiedContent<Self, AccessibilityAttachmentModifier> where S: StringProtocol
  { fatalError() }

  nonisolated public func accessibilityValue(_ valueDescription: Text)
    -> ModifiedContent<Self, AccessibilityAttachmentModifier>
  { fatalError() }
  nonisolated public func accessibilityValue(_ valueKey: LocalizedStringKey)
    -> ModifiedContent<Self, AccessibilityAttachmentModifier>
  { fatalError() }
  @_disfavoredOverload
  nonisolated public func accessibilityValue<S>(_ value: S)
    -> ModifiedContent<Self, AccessibilityAttachmentModifier> where S: StringProtocol
  { fatalError() }
}

/// [UI] @2000 (iOS 14): the `ModifiedContent where Modifier == AccessibilityAttachmentModifier`
/// overloads, which a second accessibility modifier picks (they keep one attachment).
/// `accessibilityLabel`: [UI] @47500, the same forms.
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
extension ModifiedContent where Modifier == AccessibilityAttachmentModifier {
  nonisolated public func accessibilityLabel(_ label: Text) -> ModifiedContent<Content, Modifier> {
    self
  }
  nonisolated public func accessibilityLabel(_ labelKey: LocalizedStringKey)
    -> ModifiedContent<Content, Modifier>
  { self }
  @_disfavoredOverload
  nonisolated public func accessibilityLabel<S>(_ label: S) -> ModifiedContent<Content, Modifier>
  where S: StringProtocol { self }

  nonisolated public func accessibilityValue(_ valueDescription: Text)
    -> ModifiedContent<Content, Modifier>
  { self }
  nonisolated public func accessibilityValue(_ valueKey: LocalizedStringKey)
    -> ModifiedContent<Content, Modifier>
  { self }
  @_disfavoredOverload
  nonisolated public func accessibilityValue<S>(_ value: S) -> ModifiedContent<Content, Modifier>
  where S: StringProtocol { self }
}

// MARK: - Dynamic properties and bindings

/// [Core] @302000 (iOS 13): `public protocol DynamicProperty { ...; mutating func update() }` —
/// not isolated — with a default `public mutating func update()`. (The underscored
/// `_makeProperty` and `_propertyBehaviors` requirements are left out.)
public protocol DynamicProperty {
  mutating func update()
}

extension DynamicProperty {
  public mutating func update() {}
}

/// [Core] @701000: `@frozen @propertyWrapper public struct State<Value> :
/// SwiftUICore.DynamicProperty { public init(wrappedValue value: Value); @_alwaysEmitIntoClient
/// public init(initialValue value: Value) { _value = value }; public var wrappedValue: Value {
/// get nonmutating set }; public var projectedValue: SwiftUICore.Binding<Value> { get } }` — not
/// isolated — with `extension SwiftUICore.State : Swift.Sendable where Value : Swift.Sendable`
/// and `init()` when `Value : ExpressibleByNilLiteral`. (Its internal `_location` is left out.)
@frozen @propertyWrapper
public struct State<Value>: DynamicProperty {
  @usableFromInline internal var _value: Value
  public init(wrappedValue value: Value) { _value = value }
  @_alwaysEmitIntoClient public init(initialValue value: Value) { _value = value }
  public var wrappedValue: Value {
    get { fatalError() }
    nonmutating set { fatalError() }
  }
  public var projectedValue: Binding<Value> { fatalError() }
}

extension State: Sendable where Value: Sendable {}

extension State where Value: ExpressibleByNilLiteral {
  @inlinable public init() { self.init(wrappedValue: nil) }
}

/// [Core] @270000: `@frozen public struct Transaction { @inlinable public init() ... }`, with
/// `Sendable` unavailable (@272000). Only what `Binding`'s second initialiser names.
@frozen
public struct Transaction {
  @inlinable public init() {}
}

@available(*, unavailable)
extension Transaction: Sendable {}

/// [Core] @508000 (iOS 13): `@frozen @propertyWrapper @dynamicMemberLookup public struct
/// Binding<Value>` — not isolated. Both closures of `init(get:set:)` are `@_inheritActorContext
/// @escaping @isolated(any) @Sendable`: a plain closure written on the main actor is
/// main-actor isolated and may touch main-actor state. The second initialiser takes a setter
/// with a `Transaction`; a two-parameter closure picks it.
@frozen @propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
  public var transaction: Transaction

  #if compiler(>=5.3) && $IsolatedAny
    @preconcurrency public init(
      @_inheritActorContext get: @escaping @isolated(any) @Sendable () -> Value,
      @_inheritActorContext set: @escaping @isolated(any) @Sendable (Value) -> Void
    ) {
      fatalError()
    }
  #endif

  #if compiler(>=5.3) && $IsolatedAny
    @preconcurrency public init(
      @_inheritActorContext get: @escaping @isolated(any) @Sendable () -> Value,
      @_inheritActorContext set: @escaping @isolated(any) @Sendable (Value, Transaction) -> Void
    ) {
      fatalError()
    }
  #endif

  public static func constant(_ value: Value) -> Binding<Value> { fatalError() }

  public var wrappedValue: Value {
    get { fatalError() }
    nonmutating set { fatalError() }
  }

  public var projectedValue: Binding<Value> { self }

  @_alwaysEmitIntoClient public init(projectedValue: Binding<Value>) {
    self = projectedValue
  }

  public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>)
    -> Binding<Subject>
  { fatalError() }
}

/// [Core] @510000: `extension SwiftUICore.Binding : @unchecked Swift.Sendable where Value :
/// Swift.Sendable {}`.
extension Binding: @unchecked Sendable where Value: Sendable {}

/// [Core] @512000: `extension SwiftUICore.Binding : SwiftUICore.DynamicProperty`.
extension Binding: DynamicProperty {}

// MARK: - List and ForEach (the paging recipe)

/// [UI] @348600 (iOS 13): `@_Concurrency.MainActor @preconcurrency public struct
/// List<SelectionValue, Content> : SwiftUICore.View where SelectionValue : Swift.Hashable,
/// Content : SwiftUICore.View { ...; @_Concurrency.MainActor @preconcurrency public var body:
/// some SwiftUICore.View { get } }` and @350300 `@available(*, unavailable) extension
/// SwiftUI.List : Swift.Sendable {}`. Checked against the SDK interface; the selection
/// initialisers (`init(selection:content:)` and the data forms with `selection:`) are left out.
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
@MainActor @preconcurrency
public struct List<SelectionValue, Content>: View where SelectionValue: Hashable, Content: View {
  @MainActor @preconcurrency public var body: some View { EmptyView() }
}

@available(*, unavailable)
extension List: Sendable {}

/// [UI] @362700 (iOS 13): `extension SwiftUI.List where SelectionValue == Swift.Never {
/// nonisolated public init(@SwiftUICore.ViewBuilder content: () -> Content);
/// @_alwaysEmitIntoClient nonisolated public init<Data, RowContent>(_ data: Data,
/// @SwiftUICore.ViewBuilder rowContent: @escaping (Data.Element) -> RowContent) where Content ==
/// SwiftUICore.ForEach<Data, Data.Element.ID, RowContent>, Data : Swift.RandomAccessCollection,
/// RowContent : SwiftUICore.View, Data.Element : Swift.Identifiable { ... };
/// @_alwaysEmitIntoClient nonisolated public init<Data, ID, RowContent>(_ data: Data, id:
/// Swift.KeyPath<Data.Element, ID>, @SwiftUICore.ViewBuilder rowContent: @escaping
/// (Data.Element) -> RowContent) where Content == SwiftUICore.ForEach<Data, ID, RowContent>, Data
/// : Swift.RandomAccessCollection, ID : Swift.Hashable, RowContent : SwiftUICore.View { ... } }`.
/// Checked against the SDK interface: the data initialisers are `nonisolated`, like every
/// public `List` initialiser (the `@MainActor @preconcurrency` ones beside them, which Apple's
/// documentation shows, are the deprecated `@usableFromInline internal` forms over
/// `HStack<RowContent>` rows). Their bodies (`self.init { ForEach(data) { ... } }`) are not
/// copied. The `children:`, `Range<Int>` and `Binding` forms are left out.
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
extension List where SelectionValue == Never {
  nonisolated public init(@ViewBuilder content: () -> Content) {}

  @_alwaysEmitIntoClient nonisolated public init<Data, RowContent>(
    _ data: Data, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
  )
  where
    Content == ForEach<Data, Data.Element.ID, RowContent>, Data: RandomAccessCollection,
    RowContent: View, Data.Element: Identifiable
  {}

  @_alwaysEmitIntoClient nonisolated public init<Data, ID, RowContent>(
    _ data: Data, id: KeyPath<Data.Element, ID>,
    @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent
  )
  where
    Content == ForEach<Data, ID, RowContent>, Data: RandomAccessCollection, ID: Hashable,
    RowContent: View
  {}
}

/// [Core] @747700 (iOS 13): `public struct ForEach<Data, ID, Content> where Data :
/// Swift.RandomAccessCollection, ID : Swift.Hashable { public var data: Data; public var
/// content: (Data.Element) -> Content }` (its stored properties are left out), with `Sendable`
/// unavailable, and `extension SwiftUICore.ForEach : SwiftUICore.View where Content :
/// SwiftUICore.View { public typealias Body = Swift.Never }`; only the initialiser over
/// `Identifiable` elements is copied, @749300 `extension SwiftUICore.ForEach where ID ==
/// Data.Element.ID, Content : SwiftUICore.View, Data.Element : Swift.Identifiable { public
/// init(_ data: Data, @SwiftUICore.ViewBuilder content: @escaping (Data.Element) -> Content)
/// }`. Checked against the SDK interface: not isolated, as written here. The stand-in's `body`
/// is not SwiftUI's (there `ForEach` is a primitive view).
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
public struct ForEach<Data, ID, Content> where Data: RandomAccessCollection, ID: Hashable {}

@available(*, unavailable)
extension ForEach: Sendable {}

@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
extension ForEach: View where Content: View {
  @MainActor @preconcurrency public var body: some View { EmptyView() }
}

@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
extension ForEach where ID == Data.Element.ID, Content: View, Data.Element: Identifiable {
  public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
}

// MARK: - Label, Image, ContentUnavailableView, toolbar and sheet (the articles' examples)

/// [Core] @826200 (iOS 13): `@frozen public struct Image : Swift.Equatable, Swift.Sendable`, and
/// @826500 `extension SwiftUICore.Image : SwiftUICore.View { ...; public typealias Body =
/// Swift.Never }`: checked against the SDK interface. Only `public init(systemName:
/// Swift.String)` is copied, from [Core] @397700 `extension SwiftUICore.Image { public init(_
/// name: Swift.String, bundle: Foundation.Bundle? = nil); ...; @available(macOS 11.0, *) public
/// init(systemName: Swift.String); ... }` (the named, resource and platform-image initialisers
/// are left out). Checked against the SDK interface: not isolated, as written here.
@frozen
public struct Image: Equatable, Sendable {
  @usableFromInline internal let name: String
  public init(systemName: String) { name = systemName }
}

extension Image: View {
  public typealias Body = Never
}

/// [UI] @1209400 (iOS 14): `@_Concurrency.MainActor @preconcurrency public struct Label<Title,
/// Icon> : SwiftUICore.View where Title : SwiftUICore.View, Icon : SwiftUICore.View {
/// nonisolated public init(@SwiftUICore.ViewBuilder title: () -> Title,
/// @SwiftUICore.ViewBuilder icon: () -> Icon); @_Concurrency.MainActor @preconcurrency public
/// var body: some SwiftUICore.View { get } }`, and `@available(*, unavailable) extension
/// SwiftUI.Label : Swift.Sendable {}`. Checked against the SDK interface.
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
@MainActor @preconcurrency
public struct Label<Title, Icon>: View where Title: View, Icon: View {
  nonisolated public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {}
  @MainActor @preconcurrency public var body: some View { EmptyView() }
}

@available(*, unavailable)
extension Label: Sendable {}

/// `extension SwiftUI.Label where Title == SwiftUICore.Text, Icon == SwiftUICore.Image {
/// nonisolated public init(_ titleKey: SwiftUICore.LocalizedStringKey, systemImage name:
/// Swift.String); @_disfavoredOverload nonisolated public init<S>(_ title: S, systemImage name:
/// Swift.String) where S : Swift.StringProtocol }` (the `image:` forms are left out), beside
/// `Label` in [UI] @1209400. Checked against the SDK interface.
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
extension Label where Title == Text, Icon == Image {
  nonisolated public init(_ titleKey: LocalizedStringKey, systemImage name: String) {}
  @_disfavoredOverload nonisolated public init<S>(_ title: S, systemImage name: String)
  where S: StringProtocol {}
}

/// [UI] @894900 (iOS 17): `@_Concurrency.MainActor @preconcurrency public struct
/// ContentUnavailableView<Label, Description, Actions> : SwiftUICore.View where Label :
/// SwiftUICore.View, Description : SwiftUICore.View, Actions : SwiftUICore.View`, with
/// `Sendable` unavailable, and `nonisolated public init(@SwiftUICore.ViewBuilder label: () ->
/// Label, @SwiftUICore.ViewBuilder description: () -> Description = { EmptyView() },
/// @SwiftUICore.ViewBuilder actions: () -> Actions = { EmptyView() })`, with `Sendable`
/// unavailable @896900. Checked against the SDK interface. (The title-and-image forms and
/// `.search` are left out.)
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
@MainActor @preconcurrency
public struct ContentUnavailableView<Label, Description, Actions>: View
where Label: View, Description: View, Actions: View {
  nonisolated public init(
    @ViewBuilder label: () -> Label,
    @ViewBuilder description: () -> Description = { EmptyView() },
    @ViewBuilder actions: () -> Actions = { EmptyView() }
  ) {}
  @MainActor @preconcurrency public var body: some View { EmptyView() }
}

@available(*, unavailable)
extension ContentUnavailableView: Sendable {}

extension View {
  /// [UI] @931100 (iOS 14): `nonisolated public func toolbar<Content>(@SwiftUICore.ViewBuilder
  /// content: () -> Content) -> some SwiftUICore.View where Content : SwiftUICore.View`.
  /// Checked against the SDK interface (the `ToolbarContent` and customizable forms are left
  /// out).
  @available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
  nonisolated public func toolbar<Content>(@ViewBuilder content: () -> Content) -> some View
  where Content: View { self }

  /// [UI] @406200 (iOS 13), checked against the SDK interface: `nonisolated public func
  /// sheet<Content>(isPresented:
  /// SwiftUICore.Binding<Swift.Bool>, onDismiss: (() -> Swift.Void)? = nil,
  /// @SwiftUICore.ViewBuilder content: @escaping () -> Content) -> some SwiftUICore.View where
  /// Content : SwiftUICore.View` (its `item:` form, beside it, is left out).
  nonisolated public func sheet<Content>(
    isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil,
    @ViewBuilder content: @escaping () -> Content
  ) -> some View where Content: View { self }
}

// MARK: - overlay(alignment:content:) and accessibilityElement(children:)

/// [Core] @496700 (iOS 13): `@frozen public struct VerticalAlignment : Swift.Equatable` (its
/// public `init(_: any AlignmentID.Type)` and `key` are left out), @497900 `public static let
/// top, center, bottom` (`firstTextBaseline` and `lastTextBaseline` are left out), and @950500
/// `extension SwiftUICore.VerticalAlignment : Swift.Sendable`. Checked against the SDK
/// interface.
@frozen
public struct VerticalAlignment: Equatable {
  @usableFromInline internal let id: Int
  public static let top = VerticalAlignment(id: 0)
  public static let center = VerticalAlignment(id: 1)
  public static let bottom = VerticalAlignment(id: 2)
}

extension VerticalAlignment: Sendable {}

/// [Core] @497400 (iOS 13): `@frozen public struct Alignment : Swift.Equatable { public var
/// horizontal: SwiftUICore.HorizontalAlignment; public var vertical:
/// SwiftUICore.VerticalAlignment; @inlinable public init(horizontal:vertical:) { ... } }`, @498300
/// `public static let center, leading, trailing, top, bottom, topLeading, topTrailing,
/// bottomLeading, bottomTrailing` (the nine are copied; the `...TextBaseline` ones are left
/// out), and @867800 `extension SwiftUICore.Alignment : Swift.Sendable`. Checked against the SDK
/// interface.
@frozen
public struct Alignment: Equatable {
  public var horizontal: HorizontalAlignment
  public var vertical: VerticalAlignment
  @inlinable public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
    self.horizontal = horizontal
    self.vertical = vertical
  }
  public static let center = Alignment(horizontal: .center, vertical: .center)
  public static let leading = Alignment(horizontal: .leading, vertical: .center)
  public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
  public static let top = Alignment(horizontal: .center, vertical: .top)
  public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
  public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
  public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
  public static let bottomLeading = Alignment(horizontal: .leading, vertical: .bottom)
  public static let bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)
}

extension Alignment: Sendable {}

/// [UI] @1150700 (iOS 13): `public struct AccessibilityChildBehavior : Swift.Hashable` (its
/// `hash(into:)`, `==` and `hashValue` are synthesised here), `@available(*, unavailable)
/// extension SwiftUI.AccessibilityChildBehavior : Swift.Sendable {}`, and @1188450 `extension
/// SwiftUI.AccessibilityChildBehavior { public static let ignore, contain, combine }`. Checked
/// against the SDK interface: it is in [UI], not [Core], and is not `Sendable` (the first copy
/// made it `Sendable`, after the documentation).
public struct AccessibilityChildBehavior: Hashable {
  @usableFromInline internal let id: Int
}

@available(*, unavailable)
extension AccessibilityChildBehavior: Sendable {}

extension AccessibilityChildBehavior {
  public static let ignore = AccessibilityChildBehavior(id: 0)
  public static let contain = AccessibilityChildBehavior(id: 1)
  public static let combine = AccessibilityChildBehavior(id: 2)
}

extension View {
  /// [Core] @159900 (iOS 15): `@inlinable nonisolated public func overlay<V>(alignment:
  /// SwiftUICore.Alignment = .center, @SwiftUICore.ViewBuilder content: () -> V) -> some
  /// SwiftUICore.View where V : SwiftUICore.View { modifier(_OverlayModifier(overlay:
  /// content(), alignment: alignment)) }`. Checked against the SDK interface (the deprecated
  /// `overlay(_:alignment:)` and the shape forms are left out; the body is not SwiftUI's).
  @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
  @inlinable nonisolated public func overlay<V>(
    alignment: Alignment = .center, @ViewBuilder content: () -> V
  ) -> some View where V: View { self }

  /// [UI] @1188200 (iOS 13): `nonisolated public func accessibilityElement(children:
  /// SwiftUI.AccessibilityChildBehavior = .ignore) -> some SwiftUICore.View`. Checked against
  /// the SDK interface (the first copy gave it iOS 14; the interface says iOS 13).
  nonisolated public func accessibilityElement(
    children: AccessibilityChildBehavior = .ignore
  ) -> some View { self }
}

// MARK: - Scene, SceneBuilder and WindowGroup (Swift UI Layer's app scene)

/// [UI] @837900 (iOS 14): `@preconcurrency @_Concurrency.MainActor public protocol Scene {
/// associatedtype Body : SwiftUI.Scene; @SwiftUI.SceneBuilder @_Concurrency.MainActor
/// @preconcurrency var body: Self.Body { get } }` (plus the underscored `nonisolated static
/// func _makeScene`, which has a default implementation, left out). Checked against the SDK
/// interface.
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
@preconcurrency @MainActor
public protocol Scene {
  associatedtype Body: Scene
  @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// [UI] @838400 (iOS 14): `extension Swift.Never : SwiftUI.Scene {}`, which [UI]'s primitive
/// scenes (`public typealias Body = Swift.Never`) rely on. Checked against the SDK interface.
/// Its `body` is the one `View` gives `Never` above.
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
extension Never: Scene {}

/// [UI] @875300 (iOS 14): `@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, visionOS
/// 1.0, *) @_functionBuilder public struct SceneBuilder { @_alwaysEmitIntoClient public static
/// func buildExpression<Content>(_ content: Content) -> Content where Content : SwiftUI.Scene
/// { content }; ...; public static func buildBlock<Content>(_ content: Content) -> Content where
/// Content : SwiftUI.Scene; ... }` (written `@resultBuilder`, as `ViewBuilder` above), and
/// `@available(*, unavailable) extension SwiftUI.SceneBuilder : Swift.Sendable {}`. Checked
/// against the SDK interface: `buildExpression` and the one-scene `buildBlock` are copied (the
/// unavailable empty `buildBlock` and the parameter-pack one are left out). The first copy made
/// `buildBlock` `@_alwaysEmitIntoClient`; in the interface it is not (only `buildExpression`
/// is), so it has a stand-in body here.
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, visionOS 1.0, *)
@resultBuilder
public struct SceneBuilder {
  @_alwaysEmitIntoClient public static func buildExpression<Content>(_ content: Content)
    -> Content where Content: Scene
  { content }
  public static func buildBlock<Content>(_ content: Content) -> Content where Content: Scene {
    content
  }
}

@available(*, unavailable)
extension SceneBuilder: Sendable {}

/// [UI] @104600 (iOS 14): `@_Concurrency.MainActor @preconcurrency public struct
/// WindowGroup<Content> : SwiftUI.Scene where Content : SwiftUICore.View { ...; nonisolated
/// public init(@SwiftUICore.ViewBuilder content: () -> Content); ...; @_Concurrency.MainActor
/// @preconcurrency public var body: some SwiftUI.Scene { get } }` and `@available(*,
/// unavailable) extension SwiftUI.WindowGroup : Swift.Sendable {}`. Checked against the SDK
/// interface. There `init(content:)` is `@available(iOS, introduced: 14.0, deprecated: 18.0,
/// renamed: "init(makeContent:)", message: "Use the initializer which takes an escaping view
/// builder instead.")`; Linux ignores it, so it is left out with the `id:`, title and
/// `makeContent:` forms. Its body is not SwiftUI's.
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
@MainActor @preconcurrency
public struct WindowGroup<Content>: Scene where Content: View {
  nonisolated public init(@ViewBuilder content: () -> Content) {}
  @MainActor @preconcurrency public var body: some Scene { _StandInScene() }
}

@available(*, unavailable)
extension WindowGroup: Sendable {}

/// A primitive scene for `WindowGroup`'s body: stand-in storage, not SwiftUI's.
internal struct _StandInScene: Scene {
  var body: Never { fatalError() }
}

// MARK: - Text's date styles (Working Offline's "Updated … ago")

/// [Core] (iOS 14): `extension SwiftUICore.Text { public struct DateStyle : Swift.Sendable {
/// public static let time, date, relative, offset, timer } }` (its `Equatable` and `Codable`
/// conformances, `Text(_:style:)` and the range and interval initialisers are left out). Not
/// located: the page-by-page reads of both files (see "Checked against the SDK" in the header)
/// did not find it, though SwiftUI certainly declares it, so it was most likely missed in
/// reading. Written as Apple's documentation of `Text.DateStyle` gives it. Cite it as less
/// certain than the others.
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
extension Text {
  public struct DateStyle: Sendable {
    @usableFromInline internal let id: Int
    public static let time = DateStyle(id: 0)
    public static let date = DateStyle(id: 1)
    public static let relative = DateStyle(id: 2)
    public static let offset = DateStyle(id: 3)
    public static let timer = DateStyle(id: 4)
  }
}

/// [Core] (iOS 14): `extension SwiftUICore.LocalizedStringKey.StringInterpolation {
/// @_semantics("swiftui.localized.appendInterpolation_@_specifier") public mutating func
/// appendInterpolation(_ date: Foundation.Date, style: SwiftUICore.Text.DateStyle) }` (the
/// `ClosedRange<Date>` and `DateInterval` forms are left out). Not located; cited as
/// `Text.DateStyle` above. (The interpolation [Core] @620000 declares on
/// `LocalizedStringKey.StringInterpolation` is the iOS 18 `TimeDataSource` one, not this.)
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
extension LocalizedStringKey.StringInterpolation {
  @_semantics("swiftui.localized.appendInterpolation_@_specifier")
  public mutating func appendInterpolation(_ date: Date, style: Text.DateStyle) { key += "%@" }
}

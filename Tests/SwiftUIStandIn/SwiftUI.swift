// A stand-in for Apple's SwiftUI module, used only by `.ci/swiftui-check` to type-check the
// library's SwiftUI layer on Linux. It is test infrastructure: never shipped, never part of a
// SwiftPM target (SwiftPM ignores this folder because Package.swift declares no target for
// it), never imported on Apple platforms, never run (bodies are `fatalError()` or return
// `self`).
//
// Pinned SDK: iOS 18.0 / macOS 15.0 (Xcode 16.0). In that SDK most of these symbols live in
// SwiftUICore and SwiftUI re-exports them; the layer only ever writes `import SwiftUI`, so
// one module named SwiftUI stands for both.
//
// Rules this file keeps:
// - It declares exactly the symbols the layer uses. A symbol the layer starts using must be
//   added here, copied from the pinned SDK, before the check passes.
// - Signatures, generic constraints and isolation are copied, not approximated. Where a
//   documentation page hides an attribute (`@_inheritActorContext`, `@Sendable`), the comment
//   says where the attribute comes from.
// - Fewer overloads rather than looser ones: a declaration that accepts more than the real
//   one would let a mistake through.
// - Availability (`@available(iOS 15.0, ...)`) is left out: Linux does not check it, so the
//   comments record it instead and the layer keeps its availability simple.
//
// Each declaration cites the documentation page it mirrors. Where a fact could not be
// confirmed for the pinned SDK, the comment says so. The pages are read as they are now
// (SDK 26/27): where they differ from the pinned SDK in a known way, the pinned form is copied
// and the comment says what changed — `@ContentBuilder` (Xcode 27) in place of the pinned
// `@ViewBuilder`, `@export(implementation)` in place of `@_alwaysEmitIntoClient` or
// `@inlinable`, and view types spelled `nonisolated struct` (the pinned SDK declares them
// without an isolation of their own, conforming to `View` in an extension, as here).

// CGFloat, for `VStack`'s `spacing:`. SwiftUI gets it from CoreFoundation; on Linux it lives
// in Foundation.
import Foundation

// MARK: - View and builders

/// https://developer.apple.com/documentation/swiftui/view (iOS 13.0+).
/// The page shows `@MainActor @preconcurrency protocol View`; the requirement is
/// https://developer.apple.com/documentation/swiftui/view/body-swift.property
/// (`@ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }`).
/// Xcode 16 is the first SDK that isolates the whole protocol to the main actor.
@MainActor @preconcurrency
public protocol View {
  associatedtype Body: View
  @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// SwiftUI's conformance of `Never` to `View`, which primitive views rely on (`Body ==
/// Never`); `Never`'s page, https://developer.apple.com/documentation/swift/never, lists it
/// among its conformances. Its exact spelling in the pinned SDK was not checked for this file.
extension Never: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/viewbuilder (iOS 13.0+).
/// The forms the layer and its client use: one expression, several statements (the variadic
/// `buildBlock`), `if` (`buildIf`) and `if`/`else` or `switch` (`buildEither`). The empty
/// `buildBlock()`, `buildLimitedAvailability(_:)` and the fixed-arity `buildBlock` overloads
/// are not declared: a builder that needs them fails here until they are copied in.
@resultBuilder
public struct ViewBuilder {
  /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildexpression(_:)
  public static func buildExpression<Content>(_ content: Content) -> Content
  where Content: View { content }

  /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)
  public static func buildBlock<Content>(_ content: Content) -> Content where Content: View {
    content
  }

  /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)-2bj1g
  /// (`static func buildBlock<each Content>(_ content: repeat each Content) ->
  /// TupleView<(repeat each Content)> where repeat each Content : View`; in the SDK since
  /// Xcode 15, emitted into the client, so it back-deploys).
  public static func buildBlock<each Content>(_ content: repeat each Content)
    -> TupleView<(repeat each Content)> where repeat each Content: View
  {
    TupleView((repeat each content))
  }

  /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildif(_:)
  /// The page now shows `static func buildIf<Content>(_ content: Content?) -> Content?`
  /// unconstrained (Xcode 27 made builders type-agnostic); the pinned SDK constrains
  /// `Content : View`, as SwiftUI's interface quoted on the Swift forums shows
  /// (https://forums.swift.org/t/swiftui-viewbuilder-result-is-a-tupleview-how-is-apple-using-it-and-able-to-avoid-turning-things-into-anyview/28181/4). The stricter form is kept.
  public static func buildIf<Content>(_ content: Content?) -> Content? where Content: View {
    content
  }

  /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(first:)
  /// (the `View` constraints as for `buildIf`).
  public static func buildEither<TrueContent, FalseContent>(first: TrueContent)
    -> _ConditionalContent<TrueContent, FalseContent>
  where TrueContent: View, FalseContent: View {
    _ConditionalContent()
  }

  /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(second:)
  public static func buildEither<TrueContent, FalseContent>(second: FalseContent)
    -> _ConditionalContent<TrueContent, FalseContent>
  where TrueContent: View, FalseContent: View {
    _ConditionalContent()
  }
}

/// https://developer.apple.com/documentation/swiftui/tupleview (iOS 13.0+): `@frozen struct
/// TupleView<T>`, a `View`; https://developer.apple.com/documentation/swiftui/tupleview/init(_:)
/// (`nonisolated init(_ value: T)`).
@frozen
public struct TupleView<T> {
  public var value: T
  @inlinable nonisolated public init(_ value: T) { self.value = value }
}

extension TupleView: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
}

/// `_ConditionalContent<TrueContent, FalseContent>`, the type `buildEither(first:)` and
/// `buildEither(second:)` return (their pages above name it); a `View` when both are. No page
/// of its own was found in the documentation copy searched; its `@frozen` and the conditional
/// `View` conformance are from SwiftUI's interface as quoted on the Swift forums
/// (https://forums.swift.org/t/swiftui-viewbuilder-result-is-a-tupleview-how-is-apple-using-it-and-able-to-avoid-turning-things-into-anyview/28181/4). Its initialiser is not public.
@frozen
public struct _ConditionalContent<TrueContent, FalseContent> {
  nonisolated init() { fatalError() }
}

extension _ConditionalContent: View where TrueContent: View, FalseContent: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
}

/// `Optional` is a `View` when `Wrapped` is (SwiftUI's extension of `Optional`; the conformance
/// was not confirmed against a page for the pinned SDK). `buildIf` returns `Content?`, so an
/// `if` without `else` in a view builder needs it.
extension Optional: View where Wrapped: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
}

// MARK: - Views

/// https://developer.apple.com/documentation/swiftui/emptyview (iOS 13.0+): `@frozen struct
/// EmptyView`, a `View`, with `nonisolated init()`.
@frozen
public struct EmptyView {
  @inlinable nonisolated public init() {}
}

extension EmptyView: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/anyview (iOS 13.0+): `@frozen struct
/// AnyView`, a `View`.
@frozen
public struct AnyView {
  /// https://developer.apple.com/documentation/swiftui/anyview/init(_:)
  /// (`nonisolated init<V>(_ view: V) where V : View`).
  nonisolated public init<V>(_ view: V) where V: View { fatalError() }
}

extension AnyView: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/text (iOS 13.0+): `@frozen struct Text:
/// Equatable, Sendable` in the pinned SDK's interface, a `View` in an extension.
@frozen
public struct Text: Equatable, Sendable {
  /// https://developer.apple.com/documentation/swiftui/text/init(_:)-9d1g4
  /// (`init<S>(_ content: S) where S : StringProtocol`: a stored string, not localized). The
  /// localizing `init(_:tableName:bundle:comment:)`, which a string *literal* picks, is not
  /// declared: the layer shows only stored strings.
  nonisolated public init<S>(_ content: S) where S: StringProtocol { fatalError() }
}

extension Text: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/button (iOS 13.0+): `struct Button<Label>
/// where Label : View`, a `View`.
public struct Button<Label> where Label: View {}

extension Button: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
}

extension Button where Label == Text {
  /// https://developer.apple.com/documentation/swiftui/button/init(_:action:)-lpm7
  /// (`@preconcurrency nonisolated init<S>(_ title: S, action: @escaping @MainActor () ->
  /// Void) where S : StringProtocol`). The action is main-actor isolated: SwiftUI calls it on
  /// the main actor.
  @preconcurrency
  nonisolated public init<S>(_ title: S, action: @escaping @MainActor () -> Void)
  where S: StringProtocol { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/progressview (iOS 14.0+): `struct
/// ProgressView<Label, CurrentValueLabel> where Label : View, CurrentValueLabel : View`, a
/// `View`.
public struct ProgressView<Label, CurrentValueLabel> where Label: View, CurrentValueLabel: View {}

extension ProgressView: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
}

extension ProgressView where CurrentValueLabel == EmptyView {
  /// https://developer.apple.com/documentation/swiftui/progressview/init() (`nonisolated init()
  /// where Label == EmptyView`): an indeterminate spinner.
  nonisolated public init() where Label == EmptyView { fatalError() }
}

extension ProgressView {
  /// https://developer.apple.com/documentation/swiftui/progressview/init(value:total:)
  /// (`nonisolated init<V>(value: V?, total: V = 1.0) where Label == EmptyView,
  /// CurrentValueLabel == EmptyView, V : BinaryFloatingPoint`); a `nil` value is indeterminate.
  nonisolated public init<V>(value: V?, total: V = 1.0)
  where Label == EmptyView, CurrentValueLabel == EmptyView, V: BinaryFloatingPoint {
    fatalError()
  }
}

/// https://developer.apple.com/documentation/swiftui/list (iOS 13.0+): `struct
/// List<SelectionValue, Content> where SelectionValue : Hashable, Content : View`, a `View`.
/// Added for the paging recipe (a list that asks for its next page); only the initialiser
/// without selection is copied.
public struct List<SelectionValue, Content> where SelectionValue: Hashable, Content: View {}

extension List: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
}

extension List where SelectionValue == Never {
  /// https://developer.apple.com/documentation/swiftui/list/init(content:) (`@MainActor
  /// @preconcurrency init(@ViewBuilder content: () -> Content)`).
  @MainActor @preconcurrency
  public init(@ViewBuilder content: () -> Content) { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/foreach (iOS 13.0+): `struct
/// ForEach<Data, ID, Content> where Data : RandomAccessCollection, ID : Hashable`, a `View`
/// when `Content : View`. Added for the paging recipe; only the initialiser over
/// `Identifiable` elements is copied.
public struct ForEach<Data, ID, Content> where Data: RandomAccessCollection, ID: Hashable {}

extension ForEach: View where Content: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
}

extension ForEach where ID == Data.Element.ID, Content: View, Data.Element: Identifiable {
  /// https://developer.apple.com/documentation/swiftui/foreach/init(_:content:)-90ee8
  /// (`nonisolated init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) ->
  /// Content)`).
  nonisolated public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
    fatalError()
  }
}

/// https://developer.apple.com/documentation/swiftui/horizontalalignment (iOS 13.0+): `@frozen
/// struct HorizontalAlignment`; only
/// https://developer.apple.com/documentation/swiftui/horizontalalignment/center
/// (`static let center: HorizontalAlignment`), the default of `VStack`'s `alignment:`.
@frozen
public struct HorizontalAlignment {
  public static let center = HorizontalAlignment()
}

/// https://developer.apple.com/documentation/swiftui/vstack (iOS 13.0+): `@frozen struct
/// VStack<Content> where Content : View`, a `View`.
@frozen
public struct VStack<Content> where Content: View {
  /// https://developer.apple.com/documentation/swiftui/vstack/init(alignment:spacing:content:)
  /// (`nonisolated init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil,
  /// @ViewBuilder content: () -> Content)`; `@inlinable` in the pinned SDK, and the page now
  /// shows `@ContentBuilder`).
  @inlinable nonisolated public init(
    alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil,
    @ViewBuilder content: () -> Content
  ) { fatalError() }
}

extension VStack: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/textfield (iOS 13.0+): `struct
/// TextField<Label> where Label : View`, a `View`. Used by the recipes' client code.
public struct TextField<Label> where Label: View {}

extension TextField: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
}

extension TextField where Label == Text {
  /// https://developer.apple.com/documentation/swiftui/textfield/init(_:text:)-2laoi
  /// (`nonisolated init<S>(_ title: S, text: Binding<String>) where S : StringProtocol`;
  /// `@export(implementation)` on the page is the newer spelling of emitting into the client).
  nonisolated public init<S>(_ title: S, text: Binding<String>) where S: StringProtocol {
    fatalError()
  }
}

// MARK: - Modifiers

/// https://developer.apple.com/documentation/swiftui/viewmodifier (iOS 13.0+):
/// `@MainActor @preconcurrency protocol ViewModifier`. The requirement is
/// https://developer.apple.com/documentation/swiftui/viewmodifier/body(content:), which the
/// pinned SDK marks `@ViewBuilder @MainActor @preconcurrency` (pages for SDKs after the pin
/// show `@ContentBuilder` in place of `@ViewBuilder`).
@MainActor @preconcurrency
public protocol ViewModifier {
  associatedtype Body: View
  @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
  /// https://developer.apple.com/documentation/swiftui/viewmodifier/content
  typealias Content = _ViewModifier_Content<Self>
}

/// The type behind `ViewModifier.Content` (the page above shows only `typealias Content`; the
/// underscored name is the one SwiftUI's interface gives it). A primitive view.
public struct _ViewModifier_Content<Modifier> where Modifier: ViewModifier {
  nonisolated init() { fatalError() }
}

extension _ViewModifier_Content: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/modifiedcontent (iOS 13.0+):
/// `@frozen struct ModifiedContent<Content, Modifier>`, a `View` when `Content: View` and
/// `Modifier: ViewModifier`.
@frozen
public struct ModifiedContent<Content, Modifier> {
  public var content: Content
  public var modifier: Modifier
  @inlinable nonisolated public init(content: Content, modifier: Modifier) {
    self.content = content
    self.modifier = modifier
  }
}

extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
  public typealias Body = Never
  public var body: Never { fatalError() }
}

extension View {
  /// https://developer.apple.com/documentation/swiftui/view/modifier(_:) (iOS 13.0+):
  /// `nonisolated func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T>`. Unconstrained
  /// `T`, as on the page: the result is a `View` only when `T: ViewModifier`.
  @inlinable nonisolated public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> {
    ModifiedContent(content: self, modifier: modifier)
  }

  /// https://developer.apple.com/documentation/swiftui/view/onchange(of:initial:_:)-4psgg
  /// (iOS 17.0+): `nonisolated func onChange<V>(of value: V, initial: Bool = false,
  /// _ action: @escaping (V, V) -> Void) -> some View where V : Equatable`. The action is
  /// neither `@Sendable` nor isolated: a closure written in a view's `body` inherits the main
  /// actor. The two-parameter form only: the zero-parameter overload and the deprecated
  /// `onChange(of:perform:)` are not declared.
  nonisolated public func onChange<V>(
    of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void
  ) -> some View where V: Equatable {
    self
  }

  /// https://developer.apple.com/documentation/swiftui/view/task(id:priority:_:) (iOS 15.0+).
  /// The page shows `nonisolated func task<T>(id value: T, priority: TaskPriority =
  /// .userInitiated, _ action: @escaping () async -> Void) -> some View where T : Equatable`;
  /// it hides two attributes of the pinned SDK's interface, `@_inheritActorContext` and
  /// `@Sendable`, which public back-deployment shims copy from the SDK's interface
  /// (`@_inheritActorContext _ action: @escaping @Sendable () async -> Swift.Void`). With `@_inheritActorContext` a closure written in a
  /// main-actor `body` runs on the main actor; written in a `nonisolated` function it is
  /// nonisolated. SDKs after the pin (iOS 26) replace this with
  /// `sending @escaping @isolated(any)` closures and extra `name:` parameters; not mirrored.
  nonisolated public func task<T>(
    id value: T,
    priority: TaskPriority = .userInitiated,
    @_inheritActorContext _ action: @escaping @Sendable () async -> Void
  ) -> some View where T: Equatable {
    self
  }

  /// https://developer.apple.com/documentation/swiftui/view/onappear(perform:) (iOS 13.0+):
  /// `nonisolated func onAppear(perform action: (() -> Void)? = nil) -> some View`. The action
  /// is neither `@Sendable` nor isolated, like `onChange`'s, and "completes before the first
  /// rendered frame appears".
  nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> some View { self }

  /// https://developer.apple.com/documentation/swiftui/view/disabled(_:) (iOS 13.0+):
  /// `nonisolated func disabled(_ disabled: Bool) -> some View`.
  nonisolated public func disabled(_ disabled: Bool) -> some View { self }

  /// https://developer.apple.com/documentation/swiftui/view/accessibilitylabel(_:) — the `Text`
  /// overload (iOS 14.0+): `nonisolated func accessibilityLabel(_ label: Text) ->
  /// ModifiedContent<Self, AccessibilityAttachmentModifier>`. The `StringProtocol`,
  /// `LocalizedStringKey` and `LocalizedStringResource` overloads, and `ModifiedContent`'s own
  /// overloads (which the real SDK prefers after another accessibility modifier; they return
  /// the same type), are not declared.
  nonisolated public func accessibilityLabel(_ label: Text)
    -> ModifiedContent<Self, AccessibilityAttachmentModifier>
  {
    modifier(AccessibilityAttachmentModifier())
  }

  /// https://developer.apple.com/documentation/swiftui/view/accessibilityvalue(_:)-z9mo
  /// (iOS 14.0+): `nonisolated func accessibilityValue(_ valueDescription: Text) ->
  /// ModifiedContent<Self, AccessibilityAttachmentModifier>`; the other overloads as for
  /// `accessibilityLabel(_:)`.
  nonisolated public func accessibilityValue(_ valueDescription: Text)
    -> ModifiedContent<Self, AccessibilityAttachmentModifier>
  {
    modifier(AccessibilityAttachmentModifier())
  }

  /// https://developer.apple.com/documentation/swiftui/view/task(priority:_:) (iOS 15.0+):
  /// `nonisolated func task(priority: TaskPriority = .userInitiated, _ action: @escaping ()
  /// async -> Void) -> some View`, with the same hidden `@_inheritActorContext` and `@Sendable`
  /// as `task(id:priority:_:)` above (and the same later change to `sending @isolated(any)`).
  nonisolated public func task(
    priority: TaskPriority = .userInitiated,
    @_inheritActorContext _ action: @escaping @Sendable () async -> Void
  ) -> some View {
    self
  }

  /// https://developer.apple.com/documentation/swiftui/view/refreshable(action:) (iOS 15.0+).
  /// The page shows `nonisolated func refreshable(action: @escaping @Sendable () async ->
  /// Void) -> some View`; `@_inheritActorContext` is not shown there but is in the SDK's
  /// interface (as the issue states; also quoted from the interface in public notes). Not
  /// confirmed against an Xcode 16.0 interface file itself.
  nonisolated public func refreshable(
    @_inheritActorContext action: @escaping @Sendable () async -> Void
  ) -> some View {
    self
  }
}

/// https://developer.apple.com/documentation/swiftui/accessibilityattachmentmodifier (iOS
/// 13.0+): `struct AccessibilityAttachmentModifier`, a `ViewModifier` (a primitive one; its
/// body is SwiftUI's own).
public struct AccessibilityAttachmentModifier {}

extension AccessibilityAttachmentModifier: ViewModifier {
  public func body(content: Content) -> Never { fatalError() }
}

// MARK: - Dynamic properties

/// https://developer.apple.com/documentation/swiftui/dynamicproperty (iOS 13.0+):
/// `protocol DynamicProperty`, not isolated, and its requirement
/// https://developer.apple.com/documentation/swiftui/dynamicproperty/update()
/// (`mutating func update()`) is nonisolated, with a default implementation. (OpenSwiftUI,
/// which mirrors SwiftUI 6.5.4 = iOS 18.5, declares it the same way.) The underscored
/// requirements `_makeProperty(in:container:fieldOffset:inputs:)` and `_propertyBehaviors`
/// have default implementations and are left out.
public protocol DynamicProperty {
  mutating func update()
}

extension DynamicProperty {
  public mutating func update() {}
}

/// https://developer.apple.com/documentation/swiftui/state (iOS 13.0+):
/// `@frozen @propertyWrapper struct State<Value>`. Not isolated: its initialisers and
/// `wrappedValue` are nonisolated ("You can safely mutate state properties from any
/// thread"). Conformances other than `DynamicProperty` (the page lists `Sendable`) are left
/// out until the layer needs them.
@frozen @propertyWrapper
public struct State<Value>: DynamicProperty {
  @usableFromInline var _value: Value

  /// https://developer.apple.com/documentation/swiftui/state/init(wrappedvalue:)
  public init(wrappedValue value: Value) { _value = value }

  /// https://developer.apple.com/documentation/swiftui/state/init(initialvalue:)
  /// (`@_alwaysEmitIntoClient` in the pinned SDK; the current page shows
  /// `@export(implementation)`, its newer spelling).
  @_alwaysEmitIntoClient
  public init(initialValue value: Value) { _value = value }

  /// https://developer.apple.com/documentation/swiftui/state/wrappedvalue
  public var wrappedValue: Value {
    get { fatalError() }
    nonmutating set { fatalError() }
  }

  /// https://developer.apple.com/documentation/swiftui/state/projectedvalue
  public var projectedValue: Binding<Value> { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/binding (iOS 13.0+):
/// `@frozen @propertyWrapper @dynamicMemberLookup struct Binding<Value>`.
@frozen @propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
  /// https://developer.apple.com/documentation/swiftui/binding/init(get:set:)-7ufcp:
  /// `@preconcurrency init(get: @escaping @isolated(any) @Sendable () -> Value,
  /// set: @escaping @isolated(any) @Sendable (Value) -> Void)`. `@Sendable` is confirmed for
  /// Xcode 16.0 by public Swift Package Index build logs (Xcode 16.0, September 2024) that
  /// warn about captures "in a `@Sendable` closure" inside `Binding(get:set:)`.
  /// `@isolated(any)` is from the current page and not confirmed for 16.0 itself; code that
  /// passes `{ @MainActor in ... }` closures compiles against both shapes.
  @preconcurrency
  public init(
    get: @escaping @isolated(any) @Sendable () -> Value,
    set: @escaping @isolated(any) @Sendable (Value) -> Void
  ) { fatalError() }

  /// https://developer.apple.com/documentation/swiftui/binding/wrappedvalue
  public var wrappedValue: Value {
    get { fatalError() }
    nonmutating set { fatalError() }
  }

  /// https://developer.apple.com/documentation/swiftui/binding/projectedvalue
  public var projectedValue: Binding<Value> { self }

  /// https://developer.apple.com/documentation/swiftui/binding/subscript(dynamicmember:)
  public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>)
    -> Binding<Subject>
  { fatalError() }
}

/// The page of `Binding` above: "A binding conforms to Sendable only if its wrapped value type
/// also conforms to Sendable" (the Xcode 16.0 build logs cited above agree: they call
/// `Binding<T>` non-sendable for a non-sendable `T`).
extension Binding: @unchecked Sendable where Value: Sendable {}

/// Listed under Conforming Types of
/// https://developer.apple.com/documentation/swiftui/dynamicproperty.
extension Binding: DynamicProperty {}

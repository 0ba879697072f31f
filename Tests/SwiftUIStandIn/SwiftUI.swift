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
// confirmed for the pinned SDK, the comment says so.

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
/// Only the single-expression forms are declared: the layer builds one view per builder.
/// A builder with several statements or an `if` fails here until its `buildBlock` /
/// `buildEither` overloads are copied in.
@resultBuilder
public struct ViewBuilder {
  /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildexpression(_:)
  public static func buildExpression<Content>(_ content: Content) -> Content
  where Content: View { content }

  /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)
  public static func buildBlock<Content>(_ content: Content) -> Content where Content: View {
    content
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

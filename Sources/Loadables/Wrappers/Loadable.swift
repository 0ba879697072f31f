#if canImport(SwiftUI)
  internal import SwiftUI
#endif

/// A property wrapper that holds a ``LoadableState`` and manages the task that loads it.
///
/// Call `load` on the projected value (`$numbers`) to start a load. The wrapper cancels the
/// previous load, writes `.loading` (unless the load is silent), then `.loaded(value)` or
/// `.error(error)` — and a load that was superseded or cancelled never writes at all.
///
/// <!-- compile: context ModelTypes -->
/// ```swift
/// @MainActor @Observable final class NumbersModel {
///   @ObservationIgnored @Loadable var numbers: LoadableState<[Int]>
///
///   func refresh() {
///     $numbers.load { try await api.numbers() }
///   }
/// }
/// ```
///
/// It works on properties of a SwiftUI view (its storage survives view re-creation) and of
/// any `@MainActor` class. In an `@Observable` class mark it `@ObservationIgnored`: the
/// wrapper notifies observers itself, so views still update.
///
/// After a failure, ``wrappedValue`` holds `.error(error)` until the next load, `reset()` or
/// assignment. When the wrapper's storage goes away (its owner is released), its running
/// load is cancelled.
@propertyWrapper
public struct Loadable<Value: Sendable> {
  @usableFromInline var storage: StoredStateStorage<LoadableState<Value>>

  #if canImport(SwiftUI)
    /// The storage SwiftUI keeps for a view across re-creation; see `update()`.
    @SwiftUI.State var installedStorage: StoredStateStorage<LoadableState<Value>>
  #endif

  /// Creates the wrapper with an initial state, `.absent` by default.
  ///
  /// - Parameter wrappedValue: The initial state.
  public init(wrappedValue: LoadableState<Value> = .absent) {
    let storage = StoredStateStorage(wrappedValue)
    self.storage = storage
    #if canImport(SwiftUI)
      _installedStorage = SwiftUI.State(initialValue: storage)
    #endif
  }

  /// The current state.
  ///
  /// Reading it registers observation, so SwiftUI views and `withObservationTracking`
  /// see every change. Assigning it cancels the running load first, so the load cannot
  /// overwrite what you wrote.
  @MainActor @inlinable public var wrappedValue: LoadableState<Value> {
    get { storage.state }
    nonmutating set { storage.assign(newValue) }
  }

  /// The controls: `load`, `cancel()`, `reset()` and `isRunning`.
  ///
  /// Pass it to a child view that declares `@LoadableBinding var numbers`.
  @MainActor @inlinable public var projectedValue: Binding {
    Binding(storage: storage)
  }
}

/// The projected value of a ``Loadable`` property, for a child view or function that loads
/// into its parent's state: `@LoadableBinding var numbers: LoadableState<[Int]>`.
public typealias LoadableBinding<Value: Sendable> = Loadable<Value>.Binding

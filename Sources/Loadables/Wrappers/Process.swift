#if canImport(SwiftUI)
  internal import SwiftUI
#endif

/// A property wrapper that holds a ``ProcessState`` and manages the task that runs a job.
///
/// Call `run` on the projected value to start a job: the wrapper cancels the previous one,
/// writes `.running(kind)` (unless silent), then `.finished(kind)` or
/// `.failed(process: kind, error: error)`. A superseded or cancelled job never writes.
///
/// <!-- compile: context Model -->
/// ```swift
/// @Loadables.Process var saving: SingleProcessState
///
/// func save() {
///   $saving.run { try await api.save(draft) }
/// }
/// ```
///
/// > Important: In a file that imports Foundation, `@Process` is ambiguous with
/// > `Foundation.Process`. Write `@Loadables.Process` or use the alias
/// > ``LoadableProcess``.
///
/// It works on properties of a SwiftUI view and of any `@MainActor` class; in an
/// `@Observable` class mark it `@ObservationIgnored`, as with ``Loadable``.
@propertyWrapper
public struct Process<ProcessKind: Equatable> {
  @usableFromInline var storage: StoredStateStorage<ProcessState<ProcessKind>>

  #if canImport(SwiftUI)
    /// The storage SwiftUI keeps for a view across re-creation; see `update()`.
    @SwiftUI.State var installedStorage: StoredStateStorage<ProcessState<ProcessKind>>
  #endif

  /// Creates the wrapper with an initial state, `.idle` by default.
  ///
  /// - Parameter wrappedValue: The initial state.
  public init(wrappedValue: sending ProcessState<ProcessKind> = .idle) {
    let storage = StoredStateStorage(wrappedValue)
    self.storage = storage
    #if canImport(SwiftUI)
      _installedStorage = SwiftUI.State(initialValue: storage)
    #endif
  }

  /// The current state.
  ///
  /// Reading it registers observation. Assigning it cancels the running job first.
  @MainActor @inlinable public var wrappedValue: ProcessState<ProcessKind> {
    get { storage.state }
    nonmutating set { storage.assign(newValue) }
  }

  /// The controls: `run`, `cancel()`, `reset()` and `isRunning`.
  @MainActor @inlinable public var projectedValue: Binding {
    Binding(storage: storage)
  }
}

extension Process where ProcessKind == SingleProcess {
  /// Creates a wrapper for a job with a single kind, `.idle` by default.
  ///
  /// - Parameter wrappedValue: The initial state.
  public init(wrappedValue: SingleProcessState = .idle) {
    let storage = StoredStateStorage(wrappedValue)
    self.storage = storage
    #if canImport(SwiftUI)
      _installedStorage = SwiftUI.State(initialValue: storage)
    #endif
  }
}

/// Another name for the ``Process`` property wrapper that never collides with
/// `Foundation.Process`: `@LoadableProcess var saving: SingleProcessState`.
public typealias LoadableProcess<ProcessKind: Equatable> = Process<ProcessKind>

/// The projected value of a ``Process`` property, for a child view that runs jobs in its
/// parent's state: `@ProcessBinding var saving: SingleProcessState`.
public typealias ProcessBinding<ProcessKind: Equatable> = Process<ProcessKind>.Binding

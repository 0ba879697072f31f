#if canImport(SwiftUI)
  public import SwiftUI

  // The Apple-only faces of the wrappers. They hold no logic: `update()` picks the storage
  // SwiftUI keeps for the view, and `binding` reads and writes that storage.

  extension Loadable: DynamicProperty {
    /// Switches to the storage SwiftUI keeps for this view, so the state and its running
    /// load survive the view being re-created. Called by SwiftUI before each `body`.
    public mutating func update() {
      storage = installedStorage
    }
  }

  extension Process: DynamicProperty {
    /// Switches to the storage SwiftUI keeps for this view, so the state and its running
    /// job survive the view being re-created. Called by SwiftUI before each `body`.
    public mutating func update() {
      storage = installedStorage
    }
  }

  extension Loadable.Binding {
    /// A SwiftUI binding to the state. Unlike ``wrappedValue``, setting it does not cancel
    /// the running load.
    ///
    /// Read and write it on the main actor, as SwiftUI does.
    @MainActor public var binding: SwiftUI.Binding<LoadableState<Value>> {
      let storage = self.storage
      // `Binding(get:set:)` takes `@_inheritActorContext @isolated(any) @Sendable` closures
      // (iOS 18.0 SDK): a closure written here, in a main-actor getter, is main-actor isolated
      // even without `@MainActor in`, and SwiftUI calls it there. The annotation only says so
      // in the code; the closures capture `storage` alone, which is `Sendable`.
      return SwiftUI.Binding(
        get: { @MainActor in storage.state },
        set: { @MainActor newValue in storage.write(newValue) })
    }
  }

  extension Process.Binding {
    /// A SwiftUI binding to the state. Unlike ``wrappedValue``, setting it does not cancel
    /// the running job.
    ///
    /// Read and write it on the main actor, as SwiftUI does.
    @MainActor public var binding: SwiftUI.Binding<ProcessState<ProcessKind>> {
      let storage = self.storage
      return SwiftUI.Binding(
        get: { @MainActor in storage.state },
        set: { @MainActor newValue in storage.write(newValue) })
    }
  }
#endif

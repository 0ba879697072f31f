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
      // `Binding(get:set:)` takes `@Sendable` (and, in recent SDKs, `@isolated(any)`)
      // closures: plain closures here would be nonisolated and could not touch the
      // main-actor storage. Main-actor closures are sendable and say where they run.
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

#if canImport(SwiftUI)
  public import SwiftUI

  extension Loadable.Binding {
    /// A SwiftUI binding to the loaded value, or `nil` when the state is not
    /// `.loaded(value)`.
    ///
    /// Pass it to a view that edits the loaded data without knowing about loading. Writes go
    /// to the state only while it is still loaded (see ``LoadableState``'s `.loaded` case):
    /// after the state has moved on — a new load started, an error — they are dropped.
    /// Writing does not cancel a running load, as with ``binding``.
    ///
    /// <!-- compile: context ProfileView -->
    /// ```swift
    /// if let profile = $profile.loadedBinding {
    ///   ProfileEditor(profile: profile)
    /// }
    /// ```
    ///
    /// Read and write it on the main actor, as SwiftUI does.
    @MainActor public var loadedBinding: SwiftUI.Binding<Value>? {
      let storage = self.storage
      guard let initial = storage.state.data else { return nil }
      return SwiftUI.Binding(
        get: { @MainActor in storage.state.data ?? initial },
        set: { @MainActor newValue in
          if let edited = storage.state.replacingLoadedValue(with: newValue) {
            storage.write(edited)
          }
        })
    }
  }
#endif

extension LoadableState {
  /// The state with its loaded value replaced, or `nil` when it is not loaded: the rule of
  /// `loadedBinding`'s setter, kept outside the SwiftUI layer so it is tested everywhere.
  func replacingLoadedValue(with value: Value) -> LoadableState? {
    guard case .loaded = self else { return nil }
    return .loaded(value)
  }
}

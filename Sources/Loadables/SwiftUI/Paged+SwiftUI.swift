#if canImport(SwiftUI)
  public import SwiftUI

  // The Apple-only face of `@Paged`. No logic: `update()` picks the storage SwiftUI keeps
  // for the view, as for `@Loadable`.

  extension Paged: DynamicProperty {
    /// Switches to the storage SwiftUI keeps for this view, so the list and its running
    /// load survive the view being re-created. Called by SwiftUI before each `body`.
    public mutating func update() {
      storage = installedStorage
    }
  }
#endif

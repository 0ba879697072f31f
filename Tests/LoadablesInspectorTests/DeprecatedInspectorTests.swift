import Loadables
import LoadablesInspector
import XCTest

/// The inspector's 0.3 `refetch(_:)` still compiles and refreshes the entry, as
/// `refresh(_:)` does. The deprecated call lives in a deprecated method reached through a
/// protocol, so the build (warnings as errors) does not diagnose it.
@MainActor
final class DeprecatedInspectorTests: XCTestCase {
  func testRefetchRefreshesTheEntryWhateverItsFreshness() async {
    await V03InspectorSpellings.checks().checkRefetch()
  }
}

@MainActor
protocol V03InspectorChecks {
  func checkRefetch() async
}

private struct V03InspectorSpellings: V03InspectorChecks {
  static func checks() -> any V03InspectorChecks { V03InspectorSpellings() }

  @available(*, deprecated, message: "calls the 0.3 spelling on purpose")
  func checkRefetch() async {
    let store = LoaderStore()
    let key: LoadKey = ["inspector.refetch"]
    var fetches = 0
    let entry = store.loader(for: key, staleTime: .seconds(60), waitsForNetwork: false) {
      () -> Int in
      fetches += 1
      return fetches
    }
    await entry.load()
    let inspector = StoreInspector(store: store, listening: false)
    inspector.refetch(key)
    XCTAssertTrue(entry.isRunning, "the 0.3 refetch did not fetch a fresh entry")
    await entry.load()
    XCTAssertEqual(entry.state, .loaded(2))
  }
}

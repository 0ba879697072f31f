import XCTest

@testable import Loadables

/// The rule behind `loadedBinding`'s setter (the binding itself needs SwiftUI): an edit
/// replaces the loaded value, and is dropped once the state is no longer loaded.
final class LoadedValueTests: XCTestCase {
  func testAnEditReplacesTheLoadedValue() {
    XCTAssertEqual(LoadableState.loaded([1, 2]).replacingLoadedValue(with: [3]), .loaded([3]))
  }

  func testAnEditIsDroppedWhenTheStateIsNoLongerLoaded() {
    for state in [LoadableState<[Int]>.absent, .loading, .error(TestError())] {
      XCTAssertNil(state.replacingLoadedValue(with: [3]), "an edit overwrote \(state)")
    }
  }
}

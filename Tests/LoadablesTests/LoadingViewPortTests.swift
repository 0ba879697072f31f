import Loadables
import LoadablesTesting
import XCTest

// LoadingView 1.0.4 ported: its Demo's spellings that Loadables keeps, and the behaviours its
// own tests check, each test naming the LoadingView test or Demo file it covers.

/// SwiftUI's `State` as its SDK declares it: a property wrapper that is not isolated, so a
/// stored property's initial value is evaluated outside the main actor.
@propertyWrapper
private struct ViewState<Value> {
  var wrappedValue: Value
}

/// A view as LoadingView's Demo declares one (`BasicLoadingDemo.swift`,
/// `MultipleLoadersDemo.swift`): `@State private var loader = BlockLoadable { ... }`, its
/// closure awaiting. A main-actor `BlockLoader.init` failed here in Swift 6 with "default
/// argument cannot be both main actor-isolated and nonisolated".
@MainActor
private struct FruitScreen {
  @ViewState var loader = BlockLoader {
    await Task.yield()
    return ["Apple", "Banana"]
  }
  @ViewState var counted = BlockLoader(policy: .retry(maxAttempts: 2)) {
    await Task.yield()
    return 3
  }
}

@MainActor
final class LoadingViewPortTests: XCTestCase {
  // Demo: BasicLoadingDemo.swift's `@State private var loader = BlockLoadable { ... }`.
  func testABlockLoaderIsAViewsStoredPropertysInitialValue() async {
    let screen = FruitScreen()

    let fruit = await screen.loader.load()
    let count = await screen.counted.load()

    XCTAssertEqual(fruit, .loaded(["Apple", "Banana"]))
    XCTAssertEqual(count, .loaded(3))
  }
}

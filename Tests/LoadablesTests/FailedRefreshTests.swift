import Loadables
import LoadablesTesting
import XCTest

/// What each form keeps when a silent refresh of a loaded value fails: the table "What a failed
/// refresh keeps" of Getting Started, one test per row. A value (the wrapper, a key path, a
/// loader object, a shared entry) shows `.error` unless its load runs under
/// `.keepValueOnFailure()`, which keeps the value and shows the error as `refreshError`; a paged
/// list (every paged form) keeps its pages whatever its policy.
@MainActor
final class FailedRefreshTests: XCTestCase {
  func testAWrappersFailedSilentRefreshShowsTheErrorUnlessItsLoadKeepsTheValue() async {
    @Loadable var plain: LoadableState<[Int]> = .loaded([1, 2])
    await $plain.load(silently: true) { throw TestError(code: 1) }
    XCTAssertEqual(plain, .error(TestError(code: 1)), "without the policy the list stayed")
    XCTAssertNil($plain.refreshError)

    @Loadable var kept: LoadableState<[Int]> = .loaded([1, 2])
    await $kept.load(silently: true, policy: .keepValueOnFailure()) { throw TestError(code: 2) }
    XCTAssertEqual(kept, .loaded([1, 2]), "the policy did not keep the list")
    XCTAssertEqual($kept.refreshError as? TestError, TestError(code: 2))
  }

  func testAKeyPathsFailedSilentRefreshShowsTheErrorUnlessItsLoadKeepsTheValue() async {
    let model = RefreshingFeedModel()
    model.posts = .loaded(["a"])
    await model.load(\.posts, silently: true) { throw TestError(code: 3) }
    XCTAssertEqual(model.posts, .error(TestError(code: 3)), "without the policy the list stayed")
    XCTAssertNil(model.handle(\.posts).refreshError)

    model.posts = .loaded(["a"])
    await model.load(\.posts, silently: true, policy: .keepValueOnFailure()) {
      throw TestError(code: 4)
    }
    XCTAssertEqual(model.posts, .loaded(["a"]), "the policy did not keep the list")
    XCTAssertEqual(model.handle(\.posts).refreshError as? TestError, TestError(code: 4))
  }

  func testALoaderObjectsFailedSilentRefreshShowsTheErrorUnlessItsPolicyKeepsTheValue() async {
    let plain = BlockLoader<[Int]>(state: .loaded([1])) { throw TestError(code: 5) }
    let plainState = await plain.load(silently: true)
    XCTAssertEqual(plainState, .error(TestError(code: 5)), "without the policy the list stayed")
    XCTAssertNil(plain.refreshError)

    let kept = BlockLoader<[Int]>(state: .loaded([1]), policy: .keepValueOnFailure()) {
      throw TestError(code: 6)
    }
    let keptState = await kept.load(silently: true)
    XCTAssertEqual(keptState, .loaded([1]), "the policy did not keep the list")
    XCTAssertEqual(kept.refreshError as? TestError, TestError(code: 6))
  }

  func testASharedEntrysFailedRefreshShowsTheErrorUnlessItsPolicyKeepsTheValue() async {
    let store = LoaderStore()
    let server = FlakyServer()
    server.fails = false
    let plain = store.loader(for: ["plain"]) {
      if server.fails { throw TestError(code: 7) }
      return [1]
    }
    let kept = store.loader(for: ["kept"], policy: .keepValueOnFailure()) {
      if server.fails { throw TestError(code: 8) }
      return [1]
    }
    await plain.load()
    await kept.load()
    server.fails = true

    await plain.refresh()
    XCTAssertEqual(plain.state, .error(TestError(code: 7)), "without the policy the list stayed")
    XCTAssertNil(plain.refreshError)
    await kept.refresh()
    XCTAssertEqual(kept.state, .loaded([1]), "the policy did not keep the list")
    XCTAssertEqual(kept.refreshError as? TestError, TestError(code: 8))
  }

  func testEveryPagedFormKeepsItsPagesWhenARefreshFails() async {
    let server = FlakyServer()
    server.fails = false
    let source = PagedSource<Int, Int>(first: 0) { cursor in
      if server.fails { throw TestError(code: 9) }
      return Page(items: [cursor * 2, cursor * 2 + 1], next: cursor + 1)
    }
    let loaded = [0, 1, 2, 3]

    @Paged var wrapped: PagedState<Int, Int>
    await $wrapped.load(from: source)
    await $wrapped.loadNextPage(from: source)
    let loader = PagedLoader(source: source)
    await loader.load()
    await loader.loadNextPage()
    let model = FailingPagedFeedModel()
    await model.load(\.feed, from: source)
    await model.loadNextPage(\.feed, from: source)
    let store = LoaderStore()
    let shared = store.pagedLoader(for: ["pages"], source: source)
    await shared.load()
    await shared.loadNextPage()
    XCTAssertEqual(
      [wrapped.items, model.feed.items, loader.state.items, shared.state.items],
      [loaded, loaded, loaded, loaded])

    server.fails = true
    await $wrapped.refresh(from: source)
    await model.refresh(\.feed, from: source)
    await loader.refresh()
    await shared.refresh()

    XCTAssertEqual(wrapped.list, .loaded(loaded), "@Paged lost its pages")
    XCTAssertEqual($wrapped.refreshError as? TestError, TestError(code: 9))
    XCTAssertEqual(model.feed.list, .loaded(loaded), "a paged key path lost its pages")
    XCTAssertEqual(model.handle(\.feed).refreshError as? TestError, TestError(code: 9))
    XCTAssertEqual(loader.state.list, .loaded(loaded), "a PagedLoader lost its pages")
    XCTAssertEqual(loader.refreshError as? TestError, TestError(code: 9))
    XCTAssertEqual(shared.state.list, .loaded(loaded), "a shared paged entry lost its pages")
    XCTAssertEqual(shared.refreshError as? TestError, TestError(code: 9))
  }
}

@MainActor
private final class FailingPagedFeedModel: LoadableSupport {
  var feed = PagedState<Int, Int>()
}

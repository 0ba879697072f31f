import Loadables
import LoadablesTesting
import XCTest

/// The 0.3 spellings of the loader objects and shared entries still compile and behave as
/// they did.
///
/// The build treats warnings as errors, so the deprecated calls live in deprecated methods
/// of `LoaderSpellings03`, reached through the protocol they satisfy, which is not.
@MainActor
final class LoaderSpellings03Tests: XCTestCase {
  func testStartLoadStillStartsALoadAtOnce() async throws {
    let gate = Gate<Int>()
    let loader = BlockLoader { try await gate.pass() }
    let recorder = StateRecorder(loader)
    let task = LoaderSpellings03.checks().startLoad(loader)
    XCTAssertEqual(loader.state, .loading, "startLoad returned before its load started")
    gate.open(1)
    await task.value
    XCTAssertEqual(loader.state, .loaded(1))
    let silent = LoaderSpellings03.checks().startLoadSilently(loader)
    XCTAssertEqual(loader.state, .loaded(1), "a silent startLoad showed .loading")
    await silent.value
    // The silent reload brought back the state on screen: nothing written.
    XCTAssertEqual(recorder.states, [.absent, .loading, .loaded(1)])
    recorder.stop()
  }

  func testStartLoadOfALoaderOfYourOwnAndOfAnEntryStillLoads() async throws {
    let loader = ForwardingLoader(BlockLoader { 2 })
    await LoaderSpellings03.checks().startLoad(loader).value
    XCTAssertEqual(loader.state, .loaded(2))
    let entry = LoaderStore(clock: ManualClock()).loader(for: ["n"]) { 3 }
    await LoaderSpellings03.checks().startLoad(entry).value
    XCTAssertEqual(entry.state, .loaded(3))
  }
}

@MainActor
private protocol LoaderSpellingChecks {
  func startLoad<L: Loader>(_ loader: L) -> Task<Void, Never>
  func startLoadSilently<L: Loader>(_ loader: L) -> Task<Void, Never>
}

private struct LoaderSpellings03: LoaderSpellingChecks {
  /// The checks, seen only through the protocol.
  static func checks() -> any LoaderSpellingChecks { LoaderSpellings03() }

  @available(*, deprecated, message: "calls the 0.3 spellings on purpose")
  func startLoad<L: Loader>(_ loader: L) -> Task<Void, Never> {
    loader.startLoad()
  }

  @available(*, deprecated, message: "calls the 0.3 spellings on purpose")
  func startLoadSilently<L: Loader>(_ loader: L) -> Task<Void, Never> {
    loader.startLoad(silently: true)
  }
}

import Loadables
import LoadablesTesting
import XCTest

/// A failed refresh keeps the data: `LoadPolicy.keepValueOnFailure()` keeps a loaded value on
/// screen and shows the error beside the state as `refreshError`, in every form.
@MainActor
final class KeepValueOnFailureTests: XCTestCase {
  func testAFailedSilentRefreshKeepsTheValueAndShowsTheErrorBesideIt() async {
    @Loadable var feed: LoadableState<[Int]> = .loaded([1, 2])
    let recorder = StateRecorder($feed)
    let wakeUps = ChangeCounter { [binding = $feed] in _ = binding.refreshError }
    await $feed.load(silently: true, policy: .keepValueOnFailure()) {
      throw TestError(code: 503)
    }
    XCTAssertEqual(feed, .loaded([1, 2]), "a failed refresh replaced the list")
    XCTAssertEqual($feed.refreshError as? TestError, TestError(code: 503))
    XCTAssertEqual(recorder.states, [.loaded([1, 2])], "a failed silent refresh wrote a state")
    XCTAssertEqual(wakeUps.count, 1, "observers of refreshError were not told")

    await $feed.load(silently: true, policy: .keepValueOnFailure()) { [1, 2, 3] }
    XCTAssertEqual(feed, .loaded([1, 2, 3]))
    XCTAssertNil($feed.refreshError, "the next success did not clear the refresh error")
    XCTAssertEqual(wakeUps.count, 2)
    recorder.stop()
  }

  func testAFailedRefreshThatShowedASpinnerBringsTheValueBack() async {
    @Loadable var feed: LoadableState<[Int]> = .loaded([1])
    let recorder = StateRecorder($feed)
    await $feed.load(policy: .keepValueOnFailure()) { throw TestError(code: 1) }
    XCTAssertEqual(recorder.states, [.loaded([1]), .loading, .loaded([1])])
    XCTAssertEqual($feed.refreshError as? TestError, TestError(code: 1))
    recorder.stop()
  }

  func testAFirstLoadThatFailsStillShowsTheError() async {
    @Loadable var feed: LoadableState<[Int]>
    await $feed.load(policy: .keepValueOnFailure()) { throw TestError(code: 2) }
    XCTAssertEqual(feed, .error(TestError(code: 2)), "with no value to keep, the error shows")
    XCTAssertNil($feed.refreshError)
  }

  func testResetAndAssignmentClearTheRefreshError() async {
    @Loadable var feed: LoadableState<[Int]> = .loaded([1])
    await $feed.load(silently: true, policy: .keepValueOnFailure()) { throw TestError(code: 1) }
    XCTAssertNotNil($feed.refreshError)
    $feed.reset()
    XCTAssertNil($feed.refreshError, "reset() kept the refresh error")

    feed = .loaded([1])
    await $feed.load(silently: true, policy: .keepValueOnFailure()) { throw TestError(code: 1) }
    feed = .loaded([9])
    XCTAssertNil($feed.refreshError, "an assignment kept the refresh error")
  }

  func testRetryThenKeepTheValueWhenEveryAttemptFails() async {
    @Loadable var feed: LoadableState<[Int]> = .loaded([1])
    var calls = 0
    await $feed.load(
      silently: true,
      policy: .retry(maxAttempts: 2, backoff: .immediate, showsFailedAttempts: true)
        .keepValueOnFailure()
    ) {
      calls += 1
      throw TestError(code: calls)
    }
    XCTAssertEqual(calls, 2)
    XCTAssertEqual(feed, .loaded([1]), "the shown failed attempt was left on screen")
    XCTAssertEqual($feed.refreshError as? TestError, TestError(code: 2))
  }

  func testTheKeyPathFormKeepsTheValue() async {
    let model = RefreshingFeedModel()
    model.posts = .loaded(["a"])
    let task: Task<Void, Never> = model.load(
      \.posts, silently: true, policy: .keepValueOnFailure()
    ) { throw TestError(code: 7) }
    await task.value
    XCTAssertEqual(model.posts, .loaded(["a"]))
    XCTAssertEqual(model.handle(\.posts).refreshError as? TestError, TestError(code: 7))
    await model.load(\.posts, policy: .keepValueOnFailure()) { ["a", "b"] }
    XCTAssertNil(model.handle(\.posts).refreshError)
  }

  func testALoaderKeepsItsValueAndValueThrowsTheError() async {
    let server = FlakyServer()
    let feed = BlockLoader<[Int]>(state: .loaded([1]), policy: .keepValueOnFailure()) {
      if server.fails { throw TestError(code: 4) }
      return [2]
    }
    let state = await feed.load(silently: true)
    XCTAssertEqual(state, .loaded([1]))
    XCTAssertEqual(feed.refreshError as? TestError, TestError(code: 4))
    do {
      _ = try await feed.value(silently: true)
      XCTFail("value() returned the kept value of a failed load")
    } catch {
      XCTAssertEqual(error as? TestError, TestError(code: 4))
    }
    server.fails = false
    let value = try? await feed.value()
    XCTAssertEqual(value, [2])
    XCTAssertNil(feed.refreshError)
  }

  func testTheDescriptionNamesThePolicy() {
    XCTAssertEqual(LoadPolicy<Int>.keepValueOnFailure().description, "keepValueOnFailure")
    XCTAssertEqual(
      LoadPolicy<Int>.retry(maxAttempts: 2, backoff: .immediate).keepValueOnFailure()
        .description.hasSuffix("→ keepValueOnFailure"), true)
  }
}

@MainActor
final class FlakyServer {
  var fails = true
}

@MainActor
final class RefreshingFeedModel: LoadableSupport {
  var posts: LoadableState<[String]> = .absent
}

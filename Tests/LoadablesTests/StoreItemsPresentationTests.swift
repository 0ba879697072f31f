import Loadables
import XCTest

/// `LoadingPresentation(items:phase:...)`: items a store keeps, with the request's phase in the
/// view.
final class StoreItemsPresentationTests: XCTestCase {
  private enum Request: Equatable {
    case load
    case refresh
  }

  private func present(
    _ items: [Int], _ phase: ProcessState<Request>, running: Bool, canRetry: Bool = true
  ) -> LoadingPresentation<[Int]> {
    LoadingPresentation(items: items, phase: phase, isRunning: running, canRetry: canRetry)
  }

  private let phases: [ProcessState<Request>] = [
    .idle, .running(.load), .finished(.load), .failed(process: .refresh, error: TestError()),
  ]

  func testItemsStayOnScreenWhateverThePhase() {
    for phase in phases {
      for running in [false, true] {
        let presentation = present([1, 2], phase, running: running)
        XCTAssertEqual(presentation.shown, .content([1, 2]), "\(phase) blanked the items")
        XCTAssertEqual(presentation.isRefreshing, running, "\(phase), running: \(running)")
      }
    }
  }

  func testAnEmptyResultShowsTheEmptyView() {
    XCTAssertEqual(present([], .finished(.refresh), running: false).shown, .empty)
    XCTAssertEqual(present([], .idle, running: false).shown, .empty, "nothing requested yet")
  }

  func testNoItemsWhileARequestRunsShowsProgress() {
    XCTAssertEqual(present([], .running(.load), running: true).shown, .loading)
    XCTAssertEqual(present([], .idle, running: true).shown, .loading, "a silent first load")
    XCTAssertEqual(present([], .finished(.load), running: true).shown, .loading)
  }

  func testAFailureWithoutItemsShowsTheErrorWithARetryButtonWhenNothingRuns() {
    let failed = ProcessState<Request>.failed(process: .load, error: TestError())
    XCTAssertEqual(present([], failed, running: false).shown, .failure(retryButton: true))
    XCTAssertEqual(present([], failed, running: true).shown, .failure(retryButton: false))
    XCTAssertTrue(present([], failed, running: true).isRefreshing)
    XCTAssertEqual(
      present([], failed, running: false, canRetry: false).shown, .failure(retryButton: false))
  }

  func testTheRequestRunsOnAppearUntilOneFinished() {
    XCTAssertTrue(present([], .idle, running: false).shouldLoadOnAppear)
    XCTAssertTrue(
      present([], .running(.load), running: false).shouldLoadOnAppear,
      "a request cancelled when the view left")
    XCTAssertTrue(
      present([1], .failed(process: .load, error: TestError()), running: false)
        .shouldLoadOnAppear)
    XCTAssertFalse(present([], .finished(.load), running: false).shouldLoadOnAppear)
    XCTAssertFalse(present([], .idle, running: true).shouldLoadOnAppear)
    XCTAssertFalse(present([], .idle, running: false, canRetry: false).shouldLoadOnAppear)
  }
}

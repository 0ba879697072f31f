import Foundation
import Loadables
import XCTest

private struct OfflineError: LocalizedError {
  var errorDescription: String? { "The server is offline." }
}

/// The phase without its payload, so tests can compare phases.
private enum Shown: Equatable {
  case empty
  case loading
  case failure(retryButton: Bool)
  case content(Int)
}

extension LoadingPresentation<Int> {
  fileprivate var shown: Shown {
    switch phase {
    case .empty: .empty
    case .loading: .loading
    case .failure(let failure): .failure(retryButton: failure.showsRetryButton)
    case .content(let value): .content(value)
    }
  }

  fileprivate var failure: FailurePresentation? {
    if case .failure(let failure) = phase { return failure }
    return nil
  }
}

final class LoadingPresentationTests: XCTestCase {
  private let progress = LoadingProgress(fraction: 0.5, message: "half")

  private func present(
    _ state: LoadableState<Int>, running: Bool, canRetry: Bool = true
  ) -> LoadingPresentation<Int> {
    LoadingPresentation(state: state, isRunning: running, progress: progress, canRetry: canRetry)
  }

  // MARK: - Which view a state maps to

  func testEachStateMapsToItsViewWhenNothingRuns() {
    XCTAssertEqual(present(.absent, running: false).shown, .empty)
    XCTAssertEqual(present(.loading, running: false).shown, .loading)
    XCTAssertEqual(present(.error(TestError()), running: false).shown, .failure(retryButton: true))
    XCTAssertEqual(present(.loaded(4), running: false).shown, .content(4))
  }

  func testAFirstSilentLoadShowsProgressBecauseThereIsNothingToKeep() {
    let presentation = present(.absent, running: true)
    XCTAssertEqual(presentation.shown, .loading)
    XCTAssertFalse(presentation.isRefreshing, "nothing is on screen to refresh")
  }

  // MARK: - When a refresh keeps the content

  func testASilentRefreshKeepsTheContentAndFlagsTheRefresh() {
    let presentation = present(.loaded(4), running: true)
    XCTAssertEqual(presentation.shown, .content(4), "a silent refresh replaced the content")
    XCTAssertTrue(presentation.isRefreshing, "a running refresh over content is not flagged")
  }

  func testALoadThatWritesLoadingReplacesTheContent() {
    let presentation = present(.loading, running: true)
    XCTAssertEqual(presentation.shown, .loading)
    XCTAssertFalse(presentation.isRefreshing, "a spinner in place of content is not a refresh")
  }

  func testSettledStatesAreNotRefreshing() {
    for state in [LoadableState<Int>.absent, .loading, .error(TestError()), .loaded(1)] {
      XCTAssertFalse(present(state, running: false).isRefreshing, "\(state) refreshes idle")
    }
  }

  // MARK: - Progress

  func testProgressIsShownOnlyWhileALoadRuns() {
    XCTAssertEqual(present(.loading, running: true).progress, progress)
    XCTAssertEqual(present(.loaded(1), running: true).progress, progress)
    XCTAssertNil(present(.loading, running: false).progress, "stale progress after the load")
    XCTAssertNil(present(.loaded(1), running: false).progress, "stale progress after the load")
  }

  // MARK: - When the retry button shows

  func testTheRetryButtonShowsOnlyWhenRetryingIsPossibleAndNothingRuns() {
    XCTAssertEqual(
      present(.error(TestError()), running: false, canRetry: true).shown,
      .failure(retryButton: true))
    XCTAssertEqual(
      present(.error(TestError()), running: false, canRetry: false).shown,
      .failure(retryButton: false), "a retry button without a way to retry")
    XCTAssertEqual(
      present(.error(TestError()), running: true, canRetry: true).shown,
      .failure(retryButton: false), "a retry button while a retry already runs")
  }

  func testASilentRetryKeepsTheErrorAndFlagsTheRefresh() {
    let presentation = present(.error(TestError()), running: true)
    XCTAssertNotNil(presentation.failure, "a silent retry hid the error")
    XCTAssertTrue(presentation.isRefreshing)
  }

  // MARK: - Accessibility text

  func testTheErrorViewReadsItsLabelAndTheErrorMessage() throws {
    let failure = try XCTUnwrap(present(.error(OfflineError()), running: false).failure)
    XCTAssertEqual(failure.message, "The server is offline.")
    XCTAssertEqual(failure.accessibilityLabel, "Loading failed")
    XCTAssertEqual(failure.accessibilityValue, "The server is offline.")
    XCTAssertTrue(failure.error is OfflineError, "the presentation lost the error")
  }

  func testAScreenCanNameItsErrorView() throws {
    let presentation = LoadingPresentation(
      state: LoadableState<Int>.error(OfflineError()), isRunning: false, canRetry: true,
      failureLabel: "Books could not be loaded")
    XCTAssertEqual(presentation.failure?.accessibilityLabel, "Books could not be loaded")
  }

  func testAnErrorWithoutADescriptionStillHasAMessage() throws {
    let failure = try XCTUnwrap(present(.error(TestError()), running: false).failure)
    XCTAssertEqual(failure.message, TestError().localizedDescription)
    XCTAssertFalse(failure.accessibilityValue.isEmpty, "VoiceOver would read nothing")
  }

  // MARK: - Retry attempts

  func testTheAttemptIsShownOnlyWhileALoadRuns() {
    let attempt = RetryAttempt(number: 2, maxAttempts: 3)
    let running = LoadingPresentation(
      state: LoadableState<Int>.loading, isRunning: true, attempt: attempt, canRetry: true)
    XCTAssertEqual(running.attempt?.number, 2)
    let settled = LoadingPresentation(
      state: LoadableState<Int>.loading, isRunning: false, attempt: attempt, canRetry: true)
    XCTAssertNil(settled.attempt, "a stale attempt after the load")
  }

  func testTheProgressTextNamesTheMessageAndASecondOrLaterAttempt() {
    func text(_ progress: LoadingProgress?, _ attempt: RetryAttempt?) -> String? {
      LoadingPresentation(
        state: LoadableState<Int>.loading, isRunning: true, progress: progress, attempt: attempt,
        canRetry: true
      ).progressText
    }
    XCTAssertNil(text(nil, nil))
    XCTAssertNil(text(nil, RetryAttempt(number: 1, maxAttempts: 3)), "a first attempt is news")
    XCTAssertEqual(text(progress, nil), "half")
    XCTAssertEqual(text(nil, RetryAttempt(number: 2, maxAttempts: 3)), "attempt 2 of 3")
    XCTAssertEqual(
      text(progress, RetryAttempt(number: 3, maxAttempts: 3, delay: .seconds(2))),
      "half, attempt 3 of 3 starts in 2.0 seconds")
  }

  // MARK: - Waiting for the network

  private func waiting(_ state: LoadableState<Int>, running: Bool) -> LoadingPresentation<Int> {
    LoadingPresentation(
      state: state, isRunning: running, progress: progress, isWaitingForNetwork: true,
      canRetry: true)
  }

  func testWaitingForTheNetworkNeverChangesWhatIsOnScreen() {
    for state in [LoadableState<Int>.absent, .loading, .error(TestError()), .loaded(1)] {
      let plain = present(state, running: true)
      let presentation = waiting(state, running: true)
      XCTAssertEqual(presentation.shown, plain.shown, "a wait changed the phase of \(state)")
      XCTAssertEqual(presentation.isRefreshing, plain.isRefreshing, "\(state)")
      XCTAssertTrue(presentation.isWaitingForNetwork, "\(state)")
      XCTAssertEqual(presentation.waitingText, "Waiting for the network")
    }
    XCTAssertEqual(waiting(.loaded(1), running: true).shown, .content(1), "a refresh blanked")
  }

  func testTheWaitIsShownOnlyWhileALoadRuns() {
    for state in [LoadableState<Int>.absent, .loading, .error(TestError()), .loaded(1)] {
      let presentation = waiting(state, running: false)
      XCTAssertFalse(presentation.isWaitingForNetwork, "a stale wait over \(state)")
      XCTAssertNil(presentation.waitingText)
    }
    XCTAssertFalse(present(.loading, running: true).isWaitingForNetwork, "waiting by default")
  }

  func testTheProgressTextSaysTheLoadWaitsInPlaceOfTheMessage() {
    XCTAssertEqual(waiting(.loading, running: true).progressText, "Waiting for the network")
    let retried = LoadingPresentation(
      state: LoadableState<Int>.loading, isRunning: true, progress: progress,
      attempt: RetryAttempt(number: 2, maxAttempts: 3), isWaitingForNetwork: true,
      canRetry: true)
    XCTAssertEqual(retried.progressText, "Waiting for the network, attempt 2 of 3")
  }

  func testStoreItemsStayOnScreenWhileTheirRefreshWaits() {
    let refresh = LoadingPresentation(
      items: [1, 2], phase: ProcessState<Int>.running(1), isRunning: true,
      isWaitingForNetwork: true, canRetry: true)
    guard case .content([1, 2]) = refresh.phase else {
      return XCTFail("the items left the screen: \(refresh.phase)")
    }
    XCTAssertTrue(refresh.isRefreshing)
    XCTAssertTrue(refresh.isWaitingForNetwork)
    let first = LoadingPresentation(
      items: [Int](), phase: ProcessState<Int>.running(1), isRunning: true,
      isWaitingForNetwork: true, canRetry: true)
    guard case .loading = first.phase else { return XCTFail("\(first.phase)") }
    XCTAssertEqual(first.progressText, "Waiting for the network")
    let settled = LoadingPresentation(
      items: [1], phase: ProcessState<Int>.finished(1), isRunning: false,
      isWaitingForNetwork: true, canRetry: true)
    XCTAssertFalse(settled.isWaitingForNetwork, "a stale wait after the request")
  }

  // MARK: - When to load on appear

  func testALoadStartsOnAppearOnlyWhenNothingIsLoadedOrRunning() {
    func loads(_ state: LoadableState<Int>, running: Bool, canRetry: Bool = true) -> Bool {
      present(state, running: running, canRetry: canRetry).shouldLoadOnAppear
    }
    XCTAssertTrue(loads(.absent, running: false), "nothing was requested")
    XCTAssertTrue(loads(.loading, running: false), "a load was cancelled when the view left")
    XCTAssertTrue(loads(.error(TestError()), running: false), "the last load failed")
    XCTAssertFalse(loads(.loaded(1), running: false), "coming back reloaded the content")
    for state in [LoadableState<Int>.absent, .loading, .error(TestError()), .loaded(1)] {
      XCTAssertFalse(loads(state, running: true), "a second load over a running \(state)")
      XCTAssertFalse(loads(state, running: false, canRetry: false), "no way to load \(state)")
    }
  }
}

import Loadables
import XCTest

final class ProcessButtonPresentationTests: XCTestCase {
  private enum Job: Equatable {
    case save
    case delete
  }

  private func button(
    _ state: ProcessState<Job>, running: Bool, canRun: Bool = true
  ) -> ProcessButtonPresentation {
    ProcessButtonPresentation(state: state, process: .save, isRunning: running, canRun: canRun)
  }

  private func title(_ presentation: ProcessButtonPresentation) -> String {
    presentation.title(ready: "Save", running: "Saving…", succeeded: "Saved", failed: "Try Again")
  }

  func testEachStateOfTheJobMapsToItsStageAndTitle() {
    XCTAssertEqual(button(.idle, running: false).stage, .ready)
    XCTAssertEqual(button(.running(.save), running: true).stage, .running)
    XCTAssertEqual(button(.finished(.save), running: false).stage, .succeeded)
    XCTAssertEqual(
      button(.failed(process: .save, error: TestError()), running: false).stage, .failed)
    XCTAssertEqual(
      [.idle, .running(.save), .finished(.save), .failed(process: .save, error: TestError())].map {
        title(button($0, running: $0.isRunning))
      },
      ["Save", "Saving…", "Saved", "Try Again"])
  }

  func testTheButtonIsDisabledWhileAnyJobRuns() {
    XCTAssertFalse(button(.running(.save), running: true).isEnabled)
    let deleting = button(.running(.delete), running: true)
    XCTAssertFalse(deleting.isEnabled, "a tap would cancel the running delete")
    XCTAssertEqual(deleting.stage, .ready, "another job's run is not this button's")
    XCTAssertFalse(button(.finished(.save), running: true).isEnabled, "a silent job runs")
  }

  func testTheButtonIsDisabledWhenTheScreenDoesNotAllowTheJob() {
    XCTAssertFalse(button(.idle, running: false, canRun: false).isEnabled)
    XCTAssertTrue(button(.idle, running: false).isEnabled)
  }

  func testACancelledRunOffersToRunAgain() {
    let cancelled = button(.running(.save), running: false)
    XCTAssertEqual(cancelled.stage, .ready)
    XCTAssertTrue(cancelled.isEnabled)
    XCTAssertFalse(cancelled.showsProgress)
  }

  func testAnotherJobsResultIsNotThisButtons() {
    XCTAssertEqual(button(.finished(.delete), running: false).stage, .ready)
    XCTAssertEqual(
      button(.failed(process: .delete, error: TestError()), running: false).stage, .ready)
  }

  func testWithoutAJobTheButtonFollowsAnyJobOfTheState() {
    let running = ProcessButtonPresentation(
      state: SingleProcessState.running(SingleProcess()), isRunning: true)
    XCTAssertEqual(running.stage, .running)
    XCTAssertTrue(running.showsProgress)
    let done = ProcessButtonPresentation(
      state: SingleProcessState.finished(SingleProcess()), isRunning: false)
    XCTAssertEqual(done.stage, .succeeded)
  }

  func testAJobThatWaitsForTheNetworkSaysSoAndStaysRunning() {
    func waiting(_ state: ProcessState<Job>, running: Bool) -> ProcessButtonPresentation {
      ProcessButtonPresentation(
        state: state, process: .save, isRunning: running, isWaitingForNetwork: true)
    }
    let saving = waiting(.running(.save), running: true)
    XCTAssertEqual(saving.stage, .running, "a wait is a way of running")
    XCTAssertTrue(saving.isWaitingForNetwork)
    XCTAssertFalse(saving.isEnabled)
    XCTAssertEqual(
      saving.title(ready: "Save", running: "Saving…", waiting: "Waiting for the network"),
      "Waiting for the network")
    XCTAssertEqual(title(saving), "Saving…", "without a waiting title, the running one")
    let deleting = waiting(.running(.delete), running: true)
    XCTAssertFalse(deleting.isWaitingForNetwork, "another job's wait is not this button's")
    XCTAssertFalse(waiting(.finished(.save), running: false).isWaitingForNetwork)
    XCTAssertFalse(button(.running(.save), running: true).isWaitingForNetwork)
  }

  func testMissingTitlesFallBackToTheReadyTitle() {
    let done = button(.finished(.save), running: false)
    XCTAssertEqual(done.title(ready: "Save", running: "Saving…"), "Save")
  }
}

import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// `EventGate` and `ProgressGate`: a stub that passes several events in order, then a value
/// or an error.
@MainActor
final class EventGateTests: XCTestCase {
  func testAProgressGateReportsEachEventAsTheTestSendsItThenReturnsItsValue() async throws {
    @Loadable var download: LoadableState<String>
    let gate = ProgressGate<String>()
    let progress = ProgressRecorder { $download.progress }
    defer { progress.stop() }
    let task: Task<Void, Never> = $download.load { try await gate.pass() }

    try await gate.arrival()
    gate.send(LoadingProgress(fraction: 0.25))
    try await gate.delivery(count: 1)
    XCTAssertEqual($download.progress?.fraction, 0.25)
    XCTAssertEqual(download, .loading)
    gate.send(LoadingProgress(fraction: 0.5, message: "halfway"))
    try await gate.delivery(count: 2)
    XCTAssertEqual($download.progress?.message, "halfway")
    gate.open("file")
    await task.value

    XCTAssertEqual(download, .loaded("file"))
    XCTAssertEqual(progress.values.map { $0?.fraction }, [nil, 0.25, 0.5, nil])
    XCTAssertEqual(gate.arrived, 1)
    XCTAssertEqual(gate.delivered, 2)
  }

  func testEventsSentBeforeTheCodeArrivesPassInOrderBeforeTheError() async throws {
    @Loadable var numbers: LoadableState<[Int]>
    let gate = EventGate<LoadableState<[Int]>, Void>()
    gate.send(.loaded([1]))
    gate.send(.loaded([1, 2]))
    gate.fail(TestError(code: 3))
    XCTAssertEqual(gate.pending, 2)
    let recorder = StateRecorder($numbers)
    defer { recorder.stop() }

    let task: Task<Void, Never> = $numbers.load { yield in
      try await gate.pass { yield($0) }
    }
    await task.value

    XCTAssertEqual(
      recorder.states,
      [.absent, .loading, .loaded([1]), .loaded([1, 2]), .error(TestError(code: 3))])
    XCTAssertEqual(gate.pending, 0)
  }

  func testAnOpenedGateLetsEveryLaterCallerThrough() async throws {
    let gate = EventGate<Int, String>()
    gate.open("done")
    var seen: [Int] = []
    let first = try await gate.pass { seen.append($0) }
    let second = try await gate.pass { seen.append($0) }
    XCTAssertEqual([first, second], ["done", "done"])
    XCTAssertEqual(seen, [])
  }

  func testAnErrorFromTheHandlerEndsThePass() async {
    let gate = EventGate<Int, Void>()
    gate.send(1)
    gate.send(2)
    do {
      try await gate.pass { if $0 == 1 { throw TestError(code: $0) } }
      XCTFail("the pass returned after its handler threw")
    } catch {
      XCTAssertEqual(error as? TestError, TestError(code: 1))
    }
    XCTAssertEqual(gate.delivered, 0)
    XCTAssertEqual(gate.pending, 1)
  }

  func testAPassWaitingForAnEventThrowsAtOnceWhenItsTaskIsCancelled() async throws {
    let gate = EventGate<Int, Int>()
    let task = Task { try await gate.pass { _ in } }
    try await gate.arrival()
    task.cancel()
    do {
      _ = try await task.value
      XCTFail("a cancelled pass returned")
    } catch {
      XCTAssertTrue(error is CancellationError)
    }
  }

  func testADeliveryThatNeverComesFailsWithAMessage() async throws {
    let gate = EventGate<Int, Void>()
    let task = Task { try await gate.pass { _ in } }
    try await gate.arrival()
    do {
      try await gate.delivery(count: 1, timeout: .milliseconds(100))
      XCTFail("delivery returned with no event sent")
    } catch let error as WaitTimeout {
      XCTAssertEqual(
        error.description,
        "EventGate.delivery(count: 1): waited 0.1 seconds for 1 delivered event; saw 1 "
          + "arrival, 0 sent, 0 delivered, 0 pending, 1 waiting now. Did the code under test "
          + "reach the gate?")
    }
    gate.open()
    try await task.value
  }

  func testAnArrivalThatNeverComesFailsWithAMessage() async {
    let gate = ProgressGate<Int>()
    gate.send(LoadingProgress(fraction: 0.1))
    do {
      try await gate.arrival(count: 2, timeout: .milliseconds(100))
      XCTFail("arrival returned with nobody at the gate")
    } catch {
      XCTAssertEqual(
        "\(error)",
        "EventGate.arrival(count: 2): waited 0.1 seconds for 2 arrivals; saw 0 arrivals, 1 "
          + "sent, 0 delivered, 1 pending, 0 waiting now. Did the code under test reach the "
          + "gate?")
    }
  }
}

import Foundation
import Loadables
import LoadablesTesting
import Testing
import XCTest

// LoadablesTesting from Swift Testing: the same helpers the XCTest suite uses, in a Swift
// Testing test. It runs in a child process started by the XCTest test below, so `swift test
// --disable-swift-testing` (the README's command) runs it and its last line still counts
// every test: the suite stays one XCTest run.

/// Set by the XCTest test below for its child process, and only there.
private let swiftTestingChild = "LOADABLES_SWIFT_TESTING_CHILD"

@Suite(
  "LoadablesTesting from Swift Testing",
  .enabled(
    if: ProcessInfo.processInfo.environment[swiftTestingChild] == "1",
    "runs inside the XCTest suite, in SwiftTestingClientTests' child process"))
struct LoadablesTestingFromSwiftTesting {
  @Test("A recorder, a gate and a manual clock follow a load from Swift Testing")
  @MainActor
  func recorderGateAndClock() async throws {
    @Loadable var numbers: LoadableState<[Int]>
    let recorder = StateRecorder($numbers)
    let gate = LoadablesTesting.Gate<[Int]>()
    let clock = ManualClock()
    let load: Task<Void, Never> = $numbers.load(policy: .timeout(.seconds(10), clock: clock)) {
      try await gate.pass()
    }
    try await gate.arrival()
    clock.advance(by: .seconds(1))
    gate.open([1, 2])
    try await recorder.wait(until: \.isLoaded)
    await load.value
    #expect(recorder.states == [.absent, .loading, .loaded([1, 2])])
    recorder.stop()
  }
}

final class SwiftTestingClientTests: XCTestCase {
  #if os(Linux)
    /// Runs the Swift Testing suite above in a child process (this test binary, run as
    /// `swift test` runs it for Swift Testing) and checks that its one test passed.
    func testLoadablesTestingWorksFromSwiftTesting() throws {
      let child = Process()
      child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
      child.arguments = [
        "--testing-library", "swift-testing", "--filter", "LoadablesTestingFromSwiftTesting",
      ]
      var environment = ProcessInfo.processInfo.environment
      environment[swiftTestingChild] = "1"
      child.environment = environment
      let output = Pipe()
      child.standardOutput = output
      child.standardError = output
      try child.run()
      let deadline = DispatchWorkItem { [child] in
        if child.isRunning { child.terminate() }
      }
      DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: deadline)
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      child.waitUntilExit()
      deadline.cancel()
      XCTAssertEqual(child.terminationStatus, 0, text)
      XCTAssertTrue(text.contains("Test run with 1 test in 1 suite passed"), text)
    }
  #endif
}

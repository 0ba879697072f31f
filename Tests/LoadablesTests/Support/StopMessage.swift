import Foundation
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The environment variable that tells a child test process which test's bad call to make.
private let stopTestVariable = "LOADABLES_STOP_TEST"

extension XCTestCase {
  /// Runs `badCall` in a child process and returns what it wrote to standard error, after
  /// checking that it stopped the program (a trap, or a non-zero exit).
  ///
  /// The child is this test binary run again for this one test, with `LOADABLES_STOP_TEST`
  /// naming it: there the same call to `stopMessage` makes the bad call, and exits normally
  /// if the call returns, which the parent reports as a failure. An exit test in XCTest, so
  /// that the whole suite is one XCTest run and its last line counts every test.
  ///
  /// - Parameters:
  ///   - test: the calling test method (`#function`).
  ///   - badCall: the call that must stop the program.
  /// - Returns: the child's standard error.
  /// - Throws: when the child cannot be started; fails the test when it does not stop, or
  ///   runs past its deadline (it is killed).
  func stopMessage(
    test: String = #function,
    _ badCall: () async throws -> Void,
    file: StaticString = #filePath,
    line: UInt = #line
  ) async throws -> String {
    let method = String(test.prefix { $0 != "(" })
    let name = "LoadablesTests.\(String(describing: type(of: self)))/\(method)"
    if ProcessInfo.processInfo.environment[stopTestVariable] == name {
      try? await badCall()
      exit(0)  // the call returned: the parent sees a normal exit and fails the test
    }
    let child = Process()
    #if os(Linux)
      child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
      child.arguments = [name]
    #else
      // The xctest runner, given this bundle and one test (not run on this project's CI).
      child.executableURL = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0])
      child.arguments = ["-XCTest", name, Bundle(for: type(of: self)).bundlePath]
    #endif
    var environment = ProcessInfo.processInfo.environment
    environment[stopTestVariable] = name
    environment["SWIFT_BACKTRACE"] = "enable=no"  // a short message, at once
    child.environment = environment
    let errors = Pipe()
    child.standardError = errors
    child.standardOutput = FileHandle.nullDevice
    try child.run()
    // The deadline: a child that neither stops nor exits within a minute is killed.
    let deadline = DispatchWorkItem { [child] in
      if child.isRunning { kill(child.processIdentifier, SIGKILL) }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: deadline)
    let output = errors.fileHandleForReading.readDataToEndOfFile()
    child.waitUntilExit()
    deadline.cancel()
    let message = String(decoding: output, as: UTF8.self)
    let stopped =
      child.terminationReason == .uncaughtSignal && child.terminationStatus != SIGKILL
      || child.terminationReason == .exit && child.terminationStatus != 0
    XCTAssertTrue(
      stopped,
      "\(name) did not stop the program: it ended with \(child.terminationReason == .exit ? "exit" : "signal") \(child.terminationStatus); standard error: \(message)",
      file: file, line: line)
    return message
  }
}

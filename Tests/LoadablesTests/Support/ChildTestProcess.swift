#if os(Linux)
  import Foundation
  import Glibc

  /// This test binary run again (`/proc/self/exe`) as a child process that runs one test,
  /// whose standard output the parent reads line by line with a deadline: the app of the
  /// crash tests, which the parent kills with SIGKILL.
  final class ChildTestProcess {
    let process = Foundation.Process()
    private let output = Pipe()
    private var pending = ""

    /// What one read found.
    enum Read {
      /// The complete lines that arrived (possibly none, while a line is still partial).
      case lines([String])
      /// Nothing arrived before the deadline.
      case timedOut
      /// The child closed its output: it ended.
      case ended
    }

    /// Starts the child running `test` (`"Module.Class/testMethod"`), with `environment`
    /// added to (or, for `nil`, removed from) the parent's.
    init(running test: String, environment changes: [String: String?]) throws {
      process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
      process.arguments = [test]
      var environment = ProcessInfo.processInfo.environment
      for (name, value) in changes { environment[name] = value }
      process.environment = environment
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
    }

    /// Waits up to `milliseconds` for output, and returns the lines it completed.
    func read(waitingUpTo milliseconds: Int32) -> Read {
      let descriptor = output.fileHandleForReading.fileDescriptor
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, milliseconds) > 0 else { return .timedOut }
      var buffer = [UInt8](repeating: 0, count: 4_096)
      let read = buffer.withUnsafeMutableBytes {
        Glibc.read(descriptor, $0.baseAddress!, $0.count)
      }
      guard read > 0 else { return .ended }
      pending += String(decoding: buffer[0..<read], as: UTF8.self)
      var lines: [String] = []
      while let newline = pending.firstIndex(of: "\n") {
        lines.append(String(pending[..<newline]))
        pending = String(pending[pending.index(after: newline)...])
      }
      return .lines(lines)
    }

    /// Kills the child with SIGKILL.
    func kill() { Glibc.kill(process.processIdentifier, SIGKILL) }

    /// Kills the child if it still runs, and waits for it to end.
    func end() {
      if process.isRunning { kill() }
      process.waitUntilExit()
    }
  }
#endif

import Foundation
import Loadables
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An app killed with SIGKILL at random points while it enqueues and sends edits loses none
/// and applies none twice.
///
/// The app is this test binary run again (`/proc/self/exe`, Linux only) with a filter that
/// selects ``testCrashAppChild()``: a `LoaderStore` on the real directory persistence that
/// enqueues edits in four scopes, with a handler sending them to a fake server. The server
/// lives in the child too, but its state is a log file the parent reads: it applies an edit
/// by idempotency key (a key it has applied is acknowledged again, not applied), appends an
/// `apply` line and flushes it before answering; it fails at random, transiently, before
/// applying and after applying (a lost answer), so edits are resent. The child prints
/// `enq <scope> <n>` once `enqueue` has returned. The parent kills it after a random number
/// of enqueues at a random moment, starts it again, and at the end runs it once more to
/// drain the outbox. Then it checks: every acknowledged edit applied exactly once, no edit
/// applied twice, each scope's edits applied in the order they were enqueued, no saved file
/// unreadable, the outbox empty.
///
/// `LOADABLES_OUTBOX_CRASH_KILLS` sets the number of kills (25 by default);
/// `.ci/crash-outbox [kills]` runs hundreds. `LOADABLES_OUTBOX_CRASH_SEED` replays a run.
final class OutboxCrashTests: XCTestCase {
  private static let directoryVariable = "LOADABLES_OUTBOX_CRASH_DIR"
  private static let startVariable = "LOADABLES_OUTBOX_CRASH_START"
  private static let seedVariable = "LOADABLES_OUTBOX_CRASH_CHILD_SEED"
  private static let drainVariable = "LOADABLES_OUTBOX_CRASH_DRAIN"
  static let scopeCount = 4

  /// The app: enqueues edits for ever (or, draining, sends what is queued and exits). Does
  /// nothing unless run by ``testKilledAppsApplyEveryEditOnceInOrder()``.
  @MainActor
  func testCrashAppChild() async throws {
    let environment = ProcessInfo.processInfo.environment
    guard let path = environment[Self.directoryVariable] else { return }
    let directory = URL(fileURLWithPath: path)
    let start = Int(environment[Self.startVariable] ?? "0") ?? 0
    var random = SplitMix64(seed: UInt64(environment[Self.seedVariable] ?? "") ?? 1)
    let server = CrashServer(
      log: directory.appendingPathComponent("server.log"), seed: random.next())
    let store = LoaderStore(
      persistence: .directory(directory.appendingPathComponent("store"), version: "crash"))
    store.register(CrashEdit.self, backoff: .constant(.milliseconds(1))) { edit, context in
      try await server.apply(edit, context)
    }
    // Entries made after the restore get the pending changes laid over them.
    let counters = (0..<Self.scopeCount).map { scope in
      store.loader(for: ["counter", scope]) { 0 }
    }
    for counter in counters { await counter.load() }

    if environment[Self.drainVariable] != nil {
      await store.outbox.untilIdle()
      for issue in store.outbox.issues { say("issue \(issue)") }
      say("idle \(store.outbox.items.count)")
      return
    }
    for issue in store.outbox.issues { say("issue \(issue)") }
    var number = start
    while true {
      let scope = random.below(Self.scopeCount)
      store.enqueue(CrashEdit(lane: scope, number: number))
      say("enq \(scope) \(number)")
      number += 1
      // Gives the lanes time to send, so kills land while sending too.
      try await Task.sleep(for: .microseconds(random.below(3_000)))
    }
  }

  func testKilledAppsApplyEveryEditOnceInOrder() throws {
    #if os(Linux)
      let environment = ProcessInfo.processInfo.environment
      let kills = Int(environment["LOADABLES_OUTBOX_CRASH_KILLS"] ?? "") ?? 25
      let seed =
        UInt64(environment["LOADABLES_OUTBOX_CRASH_SEED"] ?? "")
        ?? UInt64.random(in: 0...UInt64.max)
      var random = SplitMix64(seed: seed)
      let directory = temporaryDirectory("outbox-crash")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      var acknowledged: Set<String> = []
      var issues: [String] = []
      for kill in 0..<kills {
        let lines = try runApp(
          directory, start: kill * 1_000_000, childSeed: random.next(),
          killAfter: 1 + random.below(25), delay: random.below(4_000), seed: seed)
        for line in lines {
          if line.hasPrefix("enq ") { acknowledged.insert(String(line.dropFirst(4))) }
          if line.hasPrefix("issue ") { issues.append("kill \(kill): \(line)") }
        }
      }
      let drained = try runApp(
        directory, start: 0, childSeed: random.next(), killAfter: nil, delay: 0, seed: seed)
      issues += drained.filter { $0.hasPrefix("issue ") }
      XCTAssertTrue(
        drained.contains("idle 0"), "seed \(seed): the outbox did not drain: \(drained.suffix(5))")

      // The server's log: `apply <scope> <n> <key>` once per edit it applied, `again <key>`
      // for each repeated send it acknowledged without applying.
      let log = try String(
        contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)
      var appliedCount: [String: Int] = [:]
      var lastInScope: [Int: Int] = [:]
      var repeats = 0
      var outOfOrder = 0
      for line in log.split(separator: "\n") {
        let fields = line.split(separator: " ")
        if fields.first == "again" {
          repeats += 1
          continue
        }
        guard fields.count == 4, fields[0] == "apply", let scope = Int(fields[1]),
          let number = Int(fields[2])
        else {
          XCTFail("seed \(seed): a torn server log line: \(line)")
          continue
        }
        appliedCount["\(scope) \(number)", default: 0] += 1
        if let last = lastInScope[scope], last >= number {
          outOfOrder += 1
          XCTFail("seed \(seed): scope \(scope) applied \(number) after \(last)")
        }
        lastInScope[scope] = number
      }
      let lost = acknowledged.subtracting(appliedCount.keys)
      let duplicated = appliedCount.filter { $0.value > 1 }
      XCTAssertEqual(lost, [], "seed \(seed): acknowledged edits never applied")
      XCTAssertEqual(duplicated, [:], "seed \(seed): edits applied more than once")
      XCTAssertEqual(issues, [], "seed \(seed): the outbox reported problems")
      print(
        "Crash-outbox: \(kills) kills, \(acknowledged.count) edits acknowledged, "
          + "\(appliedCount.count) applied, \(repeats) repeated sends deduplicated, "
          + "\(lost.count) lost, \(duplicated.count) duplicated, \(outOfOrder) out of order "
          + "(seed \(seed))")
    #endif
  }

  #if os(Linux)
    /// Runs the app on `directory`. With `killAfter`, kills it with SIGKILL once it has
    /// acknowledged that many enqueues and `delay` microseconds more; without, waits for it
    /// to drain and exit. Returns the lines it printed. Fails after 60 s without progress.
    private func runApp(
      _ directory: URL, start: Int, childSeed: UInt64, killAfter: Int?, delay: Int,
      seed: UInt64
    ) throws -> [String] {
      let app = Foundation.Process()
      app.executableURL = URL(fileURLWithPath: "/proc/self/exe")
      app.arguments = ["LoadablesTests.OutboxCrashTests/testCrashAppChild"]
      var environment = ProcessInfo.processInfo.environment
      environment[Self.directoryVariable] = directory.path
      environment[Self.startVariable] = String(start)
      environment[Self.seedVariable] = String(childSeed)
      environment[Self.drainVariable] = killAfter == nil ? "1" : nil
      app.environment = environment
      let output = Pipe()
      app.standardOutput = output
      app.standardError = FileHandle.nullDevice
      try app.run()
      defer {
        if app.isRunning { Glibc.kill(app.processIdentifier, SIGKILL) }
        app.waitUntilExit()
      }

      var lines: [String] = []
      var enqueued = 0
      var pending = ""
      let descriptor = output.fileHandleForReading.fileDescriptor
      reading: while killAfter.map({ enqueued < $0 }) ?? true {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 60_000) > 0 else {
          XCTFail("seed \(seed): the app printed nothing for 60 s after \(lines.suffix(3))")
          return lines
        }
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let read = buffer.withUnsafeMutableBytes {
          Glibc.read(descriptor, $0.baseAddress!, $0.count)
        }
        guard read > 0 else { break reading }  // the app exited
        pending += String(decoding: buffer[0..<read], as: UTF8.self)
        while let newline = pending.firstIndex(of: "\n") {
          let line = String(pending[..<newline])
          pending = String(pending[pending.index(after: newline)...])
          guard line.hasPrefix("enq ") || line.hasPrefix("issue ") || line.hasPrefix("idle ")
          else { continue }
          lines.append(line)
          if line.hasPrefix("enq ") { enqueued += 1 }
        }
      }
      if killAfter != nil {
        // Picks the moment of the kill: the app sends between enqueues.
        usleep(UInt32(delay))
        Glibc.kill(app.processIdentifier, SIGKILL)
        app.waitUntilExit()
        XCTAssertEqual(app.terminationReason, .uncaughtSignal, "seed \(seed): \(lines.suffix(3))")
      } else {
        app.waitUntilExit()
      }
      return lines
    }
  #endif
}

/// Prints `line` unbuffered: out before the app goes on.
private func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Adds one to a counter: the crash app's edit.
struct CrashEdit: OutboxEdit {
  static let name = "CrashEdit"
  var lane: Int
  var number: Int

  var scope: LoadKey { ["counter", lane] }

  func applyOptimistically(to edit: inout SharedEdit, in store: LoaderStore) {
    edit.update(matching: ["counter", lane], in: store, as: Int.self) { $0 += 1 }
  }
}

/// The fake server: applies each idempotency key once, recording it in a log file it
/// appends to and flushes before answering; fails transiently at random, before applying and
/// after (an answer lost on the way).
@MainActor
final class CrashServer {
  private let descriptor: Int32
  private var applied: Set<String> = []
  private var random: SplitMix64

  init(log: URL, seed: UInt64) {
    random = SplitMix64(seed: seed)
    let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ")
      if fields.count == 4, fields[0] == "apply" { applied.insert(String(fields[3])) }
    }
    descriptor = open(log.path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
  }

  func apply(_ edit: CrashEdit, _ context: OutboxContext) async throws {
    await Task.yield()  // a request takes a moment
    if random.below(100) < 15 { throw TestError(code: 503) }
    if applied.contains(context.idempotencyKey) {
      append("again \(context.idempotencyKey)\n")
    } else {
      append("apply \(edit.lane) \(edit.number) \(context.idempotencyKey)\n")
      applied.insert(context.idempotencyKey)
    }
    await Task.yield()
    if random.below(100) < 10 { throw TestError(code: 504) }  // applied, answer lost
  }

  /// One `write` (appends are not torn by a kill) and an `fsync`.
  private func append(_ line: String) {
    var bytes = Array(line.utf8)
    let written = write(descriptor, &bytes, bytes.count)
    precondition(written == bytes.count, "CrashServer: the log write failed (errno \(errno))")
    fsync(descriptor)
  }
}

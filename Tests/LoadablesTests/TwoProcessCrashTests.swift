import Foundation
import Loadables
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Two apps (an app and its extension) over one directory, both enqueuing edits in the same
/// scopes and sending them to one fake server, each killed with SIGKILL at random points
/// while the other runs, and started again: every edit enqueued in either is applied exactly
/// once, each process's edits of a scope in the order they were enqueued, never by two
/// senders at once, and every saved record reads back.
///
/// Each app is this test binary run again (`/proc/self/exe`, Linux only) with a filter that
/// selects ``testTwoProcessAppChild()``: a `LoaderStore` on the real directory persistence
/// of the shared directory, enqueuing edits in four scopes it shares with the other app. The
/// server lives in each child, its state a log file both append to under an OS file lock:
/// it applies an edit by idempotency key (`apply <slot> <scope> <n> <key>`; a key applied
/// before is acknowledged again, `again <key>`), and fails at random, transiently, before
/// applying and after applying (a lost answer), so edits are resent. It detects overlapping
/// senders: while one of its handlers runs, a process holds a second lock file
/// (`flock`, `LOCK_NB`); a process that cannot take it logs `overlap`.
///
/// The child prints `enq <slot> <scope> <n>` once `enqueue` has returned, and `issue ...`
/// for each outbox issue (an unreadable record among them). The parent keeps both running,
/// kills one of them at random after a random number of its enqueues and a random moment,
/// starts it again, and at the end kills both and runs one app to drain the outbox.
///
/// `LOADABLES_TWO_PROCESS_KILLS` sets the number of kills (4 by default);
/// `.ci/crash-two-processes [kills]` runs hundreds. `LOADABLES_TWO_PROCESS_SEED` replays a
/// run's random choices.
final class TwoProcessCrashTests: XCTestCase {
  private static let directoryVariable = "LOADABLES_TWO_PROCESS_DIR"
  private static let slotVariable = "LOADABLES_TWO_PROCESS_SLOT"
  private static let startVariable = "LOADABLES_TWO_PROCESS_START"
  private static let seedVariable = "LOADABLES_TWO_PROCESS_CHILD_SEED"
  private static let drainVariable = "LOADABLES_TWO_PROCESS_DRAIN"
  static let scopeCount = 4

  /// The app: enqueues edits for ever (or, draining, sends what is queued and exits). Does
  /// nothing unless run by ``testTwoProcessesKilledApplyEveryEditOnceInOrder()``.
  @MainActor
  func testTwoProcessAppChild() async throws {
    let environment = ProcessInfo.processInfo.environment
    guard let path = environment[Self.directoryVariable] else { return }
    let directory = URL(fileURLWithPath: path)
    let slot = Int(environment[Self.slotVariable] ?? "0") ?? 0
    let start = Int(environment[Self.startVariable] ?? "0") ?? 0
    var random = SplitMix64(seed: UInt64(environment[Self.seedVariable] ?? "") ?? 1)
    let server = SharedCrashServer(directory: directory, seed: random.next())
    let store = LoaderStore(
      persistence: .directory(directory.appendingPathComponent("store"), version: "crash"))
    store.register(TwoProcessEdit.self, backoff: .constant(.milliseconds(1))) { edit, context in
      try await server.apply(edit, context)
    }
    if environment[Self.drainVariable] != nil {
      await store.outbox.untilIdle()
      for issue in store.outbox.issues { say("issue \(issue)") }
      say("idle \(store.outbox.items.count)")
      return
    }
    var number = start
    var reported = 0
    while true {
      let scope = random.below(Self.scopeCount)
      store.edit(TwoProcessEdit(slot: slot, lane: scope, number: number))
      say("enq \(slot) \(scope) \(number)")
      number += 1
      for issue in store.outbox.issues.dropFirst(reported) { say("issue \(issue)") }
      reported = store.outbox.issues.count
      // Gives the lanes time to send, so kills land while sending too.
      try await Task.sleep(for: .microseconds(random.below(3_000)))
    }
  }

  func testTwoProcessesKilledApplyEveryEditOnceInOrder() throws {
    #if os(Linux)
      let environment = ProcessInfo.processInfo.environment
      let kills = Int(environment["LOADABLES_TWO_PROCESS_KILLS"] ?? "") ?? 4
      let seed =
        UInt64(environment["LOADABLES_TWO_PROCESS_SEED"] ?? "")
        ?? UInt64.random(in: 0...UInt64.max)
      var random = SplitMix64(seed: seed)
      let directory = temporaryDirectory("two-processes")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      var enqueued: [String] = []
      var issues: [String] = []
      var launches = 0
      var apps: [RunningApp?] = [nil, nil]
      func launch(_ slot: Int, draining: Bool = false) throws -> RunningApp {
        launches += 1
        return try RunningApp(
          ChildTestProcess(
            running: "LoadablesTests.TwoProcessCrashTests/testTwoProcessAppChild",
            environment: [
              Self.directoryVariable: directory.path, Self.slotVariable: String(slot),
              Self.startVariable: String(launches * 1_000_000),
              Self.seedVariable: String(random.next()), Self.drainVariable: draining ? "1" : nil,
            ]))
      }
      func collect(_ app: RunningApp) {
        for line in app.lines {
          if line.hasPrefix("enq ") { enqueued.append(String(line.dropFirst(4))) }
          if line.hasPrefix("issue ") { issues.append(line) }
        }
      }
      for slot in 0..<2 { apps[slot] = try launch(slot) }
      for kill in 0..<kills {
        let victim = random.below(2)
        let target = (apps[victim]?.enqueued ?? 0) + 1 + random.below(15)
        let deadline = Date().addingTimeInterval(60)
        // Both run; the victim is killed once it has enqueued `target` edits.
        while let app = apps[victim], app.enqueued < target, !app.ended {
          for other in apps.compactMap({ $0 }) { other.poll(milliseconds: other === app ? 5 : 0) }
          if Date() > deadline {
            XCTFail("seed \(seed): app \(victim) made no progress for 60 s: \(app.lines.suffix(3))")
            break
          }
        }
        usleep(UInt32(random.below(4_000)))
        guard let app = apps[victim] else { continue }
        XCTAssertFalse(app.ended, "seed \(seed): app \(victim) ended before kill \(kill)")
        app.killAndFinish(seed: seed)
        collect(app)
        apps[victim] = try launch(victim)
      }
      for app in apps.compactMap({ $0 }) {
        app.killAndFinish(seed: seed)
        collect(app)
      }
      let drain = try launch(0, draining: true)
      drain.finish(seed: seed)
      collect(drain)
      XCTAssertTrue(
        drain.lines.contains("idle 0"), "seed \(seed): the outbox did not drain: \(drain.lines)")

      let log = try SharedServerLog(directory.appendingPathComponent("server.log"), seed: seed)
      var applied: [String: Int] = [:]
      var lastInLine: [String: Int] = [:]
      var outOfOrder = 0
      for edit in log.applied {
        applied["\(edit.slot) \(edit.scope) \(edit.number)", default: 0] += 1
        let line = "\(edit.slot) \(edit.scope)"
        if let last = lastInLine[line], last >= edit.number {
          outOfOrder += 1
          XCTFail(
            "seed \(seed): process \(edit.slot), scope \(edit.scope): \(edit.number) after \(last)")
        }
        lastInLine[line] = edit.number
      }
      let lost = Set(enqueued).subtracting(applied.keys)
      let duplicated = applied.filter { $0.value > 1 }
      XCTAssertEqual(lost, [], "seed \(seed): enqueued edits never applied")
      XCTAssertEqual(duplicated, [:], "seed \(seed): edits applied more than once")
      XCTAssertEqual(log.overlaps, 0, "seed \(seed): two processes sent at once")
      XCTAssertEqual(issues, [], "seed \(seed): the outbox reported problems (unreadable records)")
      print(
        "Crash-two-processes: \(kills) kills, \(launches) launches, \(enqueued.count) edits "
          + "enqueued, \(applied.count) applied, \(log.repeats) repeated sends deduplicated, "
          + "\(lost.count) lost, \(duplicated.count) duplicated, \(outOfOrder) out of order, "
          + "\(log.overlaps) overlapping senders, \(issues.count) records unreadable or other "
          + "outbox issues (seed \(seed))")
    #endif
  }
}

#if os(Linux)
  /// A running app of the two-process test: its output so far.
  private final class RunningApp {
    let child: ChildTestProcess
    var lines: [String] = []
    var enqueued = 0
    var ended = false

    init(_ child: ChildTestProcess) { self.child = child }

    /// Reads what it printed, waiting up to `milliseconds`.
    func poll(milliseconds: Int32) {
      guard !ended else { return }
      switch child.read(waitingUpTo: milliseconds) {
      case .timedOut: break
      case .ended: ended = true
      case .lines(let read):
        for line in read
        where line.hasPrefix("enq ") || line.hasPrefix("issue ")
          || line.hasPrefix("idle ")
        {
          lines.append(line)
          if line.hasPrefix("enq ") { enqueued += 1 }
        }
      }
    }

    /// Kills it with SIGKILL and reads what it printed before it died.
    func killAndFinish(seed: UInt64) {
      child.kill()
      while !ended { poll(milliseconds: 10_000) }
      child.process.waitUntilExit()
      XCTAssertTrue(
        child.process.terminationReason == .uncaughtSignal
          && child.process.terminationStatus == SIGKILL,
        "seed \(seed): an app ended by \(child.process.terminationReason.rawValue) "
          + "\(child.process.terminationStatus), not our SIGKILL: \(lines.suffix(3))")
    }

    /// Waits for it to exit on its own (draining), up to 60 s.
    func finish(seed: UInt64) {
      let deadline = Date().addingTimeInterval(60)
      while !ended, Date() < deadline { poll(milliseconds: 1_000) }
      if !ended {
        XCTFail("seed \(seed): the draining app did not end in 60 s: \(lines.suffix(3))")
        child.kill()
      }
      child.process.waitUntilExit()
      XCTAssertTrue(
        child.process.terminationReason == .exit && child.process.terminationStatus == 0,
        "seed \(seed): the draining app ended by \(child.process.terminationReason.rawValue) "
          + "\(child.process.terminationStatus): \(lines.suffix(3))")
    }
  }
#endif

/// The server log both apps append to, as the parent reads it.
struct SharedServerLog {
  var applied: [(slot: Int, scope: Int, number: Int)] = []
  var repeats = 0
  var overlaps = 0

  init(_ url: URL, seed: UInt64) throws {
    guard FileManager.default.fileExists(atPath: url.path) else { return }
    for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
      let fields = line.split(separator: " ")
      switch fields.first {
      case "again": repeats += 1
      case "overlap": overlaps += 1
      case "apply":
        guard fields.count == 5, let slot = Int(fields[1]), let scope = Int(fields[2]),
          let number = Int(fields[3])
        else {
          XCTFail("seed \(seed): a torn server log line: \(line)")
          continue
        }
        applied.append((slot, scope, number))
      default:
        XCTFail("seed \(seed): a torn server log line: \(line)")
      }
    }
  }
}

/// An edit of the two-process app: its process's slot, its scope and its number.
struct TwoProcessEdit: OutboxEdit {
  static let name = "TwoProcessEdit"
  var slot: Int
  var lane: Int
  var number: Int

  var scope: LoadKey { ["counter", lane] }
}

/// The fake server of the two-process test, in each app: applies each idempotency key once
/// across both apps (its log, appended to under `flock`, is the state they share), fails
/// transiently at random, and logs `overlap` when the other process is sending too.
@MainActor
final class SharedCrashServer {
  private let log: Int32
  private let busy: Int32
  private var applied: Set<String> = []
  private var readOffset = 0
  private var sending = 0
  private var random: SplitMix64

  init(directory: URL, seed: UInt64) {
    random = SplitMix64(seed: seed)
    log = open(
      directory.appendingPathComponent("server.log").path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC,
      0o644)
    busy = open(
      directory.appendingPathComponent("sending.lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
  }

  func apply(_ edit: TwoProcessEdit, _ context: OutboxContext) async throws {
    sending += 1
    if sending == 1, flock(busy, LOCK_EX | LOCK_NB) != 0 { append("overlap\n") }
    defer {
      sending -= 1
      if sending == 0 { flock(busy, LOCK_UN) }
    }
    await Task.yield()  // a request takes a moment
    if random.below(100) < 15 { throw TestError(code: 503) }
    flock(log, LOCK_EX)
    readNewLines()
    if applied.contains(context.idempotencyKey) {
      append("again \(context.idempotencyKey)\n")
    } else {
      append("apply \(edit.slot) \(edit.lane) \(edit.number) \(context.idempotencyKey)\n")
      applied.insert(context.idempotencyKey)
    }
    readOffset = Int(lseek(log, 0, SEEK_END))
    flock(log, LOCK_UN)
    await Task.yield()
    if random.below(100) < 10 { throw TestError(code: 504) }  // applied, answer lost
  }

  /// Reads the keys the other app applied since the last read (the log lock held).
  private func readNewLines() {
    let end = Int(lseek(log, 0, SEEK_END))
    guard end > readOffset else { return }
    var bytes = [UInt8](repeating: 0, count: end - readOffset)
    let count = pread(log, &bytes, bytes.count, off_t(readOffset))
    guard count > 0 else { return }
    for line in String(decoding: bytes[0..<count], as: UTF8.self).split(separator: "\n") {
      let fields = line.split(separator: " ")
      if fields.count == 5, fields[0] == "apply" { applied.insert(String(fields[4])) }
    }
    readOffset += count
  }

  /// One `write` (appends are not torn by a kill) and an `fsync`.
  private func append(_ line: String) {
    var bytes = Array(line.utf8)
    let written = write(log, &bytes, bytes.count)
    precondition(written == bytes.count, "SharedCrashServer: the log write failed (errno \(errno))")
    fsync(log)
  }
}

/// Prints `line` unbuffered: out before the app goes on.
private func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

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
/// senders at once, and every saved record reads back; every value restored is one the
/// server had, in its order.
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
/// Each app keeps a persisted tally per scope, fetched from the server (the numbers applied
/// there by both apps, in order; now and then fetched again while it runs), over which an
/// edit's optimistic change appends its number. At each start it prints what each tally
/// restored (`restore <scope> <numbers>`, before the edit type is registered) and what it
/// shows once registered, with the app's queued edits of the scope (`shown ...`): each must be
/// a state the server had, its edits in the server's order (``RestoredOrder``).
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
    // Before anything else: what each scope's tally restored from disk (no edit is laid over
    // it yet: its type is not registered).
    let tallies = (0..<Self.scopeCount).map { lane in
      store.loader(for: ["counter", lane]) { await server.tally(lane) }
    }
    for (lane, tally) in tallies.enumerated() {
      say("restore \(lane) \(tally.state.data.map(Self.numbers) ?? "absent")")
    }
    store.register(TwoProcessEdit.self, backoff: .constant(.milliseconds(1))) { edit, context in
      try await server.apply(edit, context)
    }
    // Registered: the committed edits and the queued ones are laid over what was restored.
    for (lane, tally) in tallies.enumerated() {
      let queued = store.outbox.items.compactMap { $0.edit(as: TwoProcessEdit.self) }
        .filter { $0.lane == lane }.map { String($0.number) }
      say(
        "shown \(lane) \(tally.state.data.map(Self.numbers) ?? "absent") "
          + (queued.isEmpty ? "-" : queued.joined(separator: ",")))
    }
    for tally in tallies { await tally.refresh() }
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
      // A fetch now and then, landing among the sends and commits of both apps.
      if random.below(4) == 0 {
        let tally = tallies[random.below(Self.scopeCount)]
        Task { await tally.refresh() }
      }
      for issue in store.outbox.issues.dropFirst(reported) { say("issue \(issue)") }
      reported = store.outbox.issues.count
      // Gives the lanes time to send, so kills land while sending too.
      try await Task.sleep(for: .microseconds(random.below(3_000)))
    }
  }

  /// A tally's numbers as the parent reads them: `-` for none, else comma-separated.
  private static func numbers(_ tally: TwoProcessTally) -> String {
    tally.applied.isEmpty ? "-" : tally.applied.map(String.init).joined(separator: ",")
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
      var restores: [String] = []
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
          if line.hasPrefix("restore ") || line.hasPrefix("shown ") { restores.append(line) }
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
      let order = RestoredOrder(log: log, seed: seed)
      for line in restores { order.check(line) }
      let lost = Set(enqueued).subtracting(applied.keys)
      let duplicated = applied.filter { $0.value > 1 }
      XCTAssertEqual(lost, [], "seed \(seed): enqueued edits never applied")
      XCTAssertEqual(duplicated, [:], "seed \(seed): edits applied more than once")
      XCTAssertEqual(log.overlaps, 0, "seed \(seed): two processes sent at once")
      XCTAssertEqual(issues, [], "seed \(seed): the outbox reported problems (unreadable records)")
      XCTAssertEqual(
        order.misordered, 0, "seed \(seed): restored values in an order the server never had")
      XCTAssertEqual(order.neverHeld, 0, "seed \(seed): restored values the server never had")
      print(
        "Crash-two-processes: \(kills) kills, \(launches) launches, \(enqueued.count) edits "
          + "enqueued, \(applied.count) applied, \(log.repeats) repeated sends deduplicated, "
          + "\(lost.count) lost, \(duplicated.count) duplicated, \(outOfOrder) out of order, "
          + "\(log.overlaps) overlapping senders, \(issues.count) records unreadable or other "
          + "outbox issues; \(order.checked) restored values checked (\(order.withEdits) holding "
          + "edits), \(order.misordered) misordered, \(order.neverHeld) never held by the server "
          + "(seed \(seed))")
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
          || line.hasPrefix("idle ") || line.hasPrefix("restore ") || line.hasPrefix("shown ")
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

/// Checks each value the apps restored against the order in which the server applied the
/// edits of its scope (both apps' edits, in one log).
///
/// A `restore <lane> <numbers>` line (the saved value, no edit laid over it) must be a prefix
/// of the scope's edits as the server applied them: a state the server had. A
/// `shown <lane> <numbers> <queued>` line (the value once the edit type is registered: the
/// committed edits laid over it, and the app's queued edits) must be one too, once the edits
/// still queued in that app are left out of both (a queued edit may have been applied, its
/// answer lost). A value holding the right edits in another order is *misordered*; one
/// holding other edits, or missing one before the last, the server *never held*.
final class RestoredOrder {
  private let orders: [Int: [Int]]
  private let seed: UInt64
  private(set) var checked = 0
  private(set) var withEdits = 0
  private(set) var misordered = 0
  private(set) var neverHeld = 0

  init(log: SharedServerLog, seed: UInt64) {
    var orders: [Int: [Int]] = [:]
    for edit in log.applied { orders[edit.scope, default: []].append(edit.number) }
    self.orders = orders
    self.seed = seed
  }

  func check(_ line: String) {
    let fields = line.split(separator: " ").map(String.init)
    guard fields.count >= 3, let lane = Int(fields[1]) else {
      return XCTFail("seed \(seed): a torn restore line: \(line)")
    }
    guard fields[2] != "absent" else { return }
    let queued = Set(fields.count > 3 ? Self.numbers(fields[3]) : [])
    let value = Self.numbers(fields[2]).filter { !queued.contains($0) }
    let server = (orders[lane] ?? []).filter { !queued.contains($0) }
    checked += 1
    if !value.isEmpty { withEdits += 1 }
    let had = Array(server.prefix(value.count))
    guard value != had else { return }
    // From the first edit that differs.
    let first = zip(value, had).prefix { $0 == $1 }.count
    let (theirs, ours) = (had.dropFirst(first).prefix(6), value.dropFirst(first).prefix(6))
    if value.sorted() == had.sorted() {
      misordered += 1
      XCTFail(
        "seed \(seed): \(line): from edit \(first) on, the server applied \(Array(theirs)), "
          + "this lists \(Array(ours))")
    } else {
      neverHeld += 1
      XCTFail(
        "seed \(seed): \(line): the server never held it: from edit \(first) on, the server "
          + "applied \(Array(theirs)), this lists \(Array(ours))")
    }
  }

  private static func numbers(_ field: String) -> [Int] {
    field == "-" ? [] : field.split(separator: ",").compactMap { Int($0) }
  }
}

/// A scope's tally on the two-process server: the numbers of the edits it applied, both
/// apps', in order. An edit's optimistic change appends its number, if not there.
struct TwoProcessTally: Codable, Equatable, Sendable {
  var applied: [Int]
}

/// An edit of the two-process app: its process's slot, its scope and its number.
struct TwoProcessEdit: OutboxEdit {
  static let name = "TwoProcessEdit"
  var slot: Int
  var lane: Int
  var number: Int

  var scope: LoadKey { ["counter", lane] }

  func applyOptimistically(to edit: inout SharedEdit, in store: LoaderStore) {
    let number = number
    edit.update(matching: ["counter", lane], in: store, as: TwoProcessTally.self) { tally in
      if !tally.applied.contains(number) { tally.applied.append(number) }
    }
  }
}

/// The fake server of the two-process test, in each app: applies each idempotency key once
/// across both apps (its log, appended to under `flock`, is the state they share), fails
/// transiently at random, and logs `overlap` when the other process is sending too.
@MainActor
final class SharedCrashServer {
  private let log: Int32
  private let busy: Int32
  private var applied: Set<String> = []
  /// The numbers applied in each scope, by both apps, in order (as far as read).
  private var tallies: [Int: [Int]] = [:]
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
      tallies[edit.lane, default: []].append(edit.number)
    }
    readOffset = Int(lseek(log, 0, SEEK_END))
    flock(log, LOCK_UN)
    await Task.yield()
    if random.below(100) < 10 { throw TestError(code: 504) }  // applied, answer lost
  }

  /// What a fetch of `lane`'s tally returns: the numbers applied there by both apps, in order.
  func tally(_ lane: Int) async -> TwoProcessTally {
    await Task.yield()  // a request takes a moment
    flock(log, LOCK_EX)
    readNewLines()
    readOffset = Int(lseek(log, 0, SEEK_END))
    flock(log, LOCK_UN)
    let tally = TwoProcessTally(applied: tallies[lane] ?? [])
    await Task.yield()
    return tally
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
      if fields.count == 5, fields[0] == "apply", let lane = Int(fields[2]),
        let number = Int(fields[3])
      {
        applied.insert(String(fields[4]))
        tallies[lane, default: []].append(number)
      }
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

import Foundation
import Loadables
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An app killed with SIGKILL at random points while it enqueues and sends edits and
/// fetches and saves entries loses no edit, applies none twice, and never restores a value
/// the server did not have.
///
/// The app is this test binary run again (`/proc/self/exe`, Linux only) with a filter that
/// selects ``testCrashAppChild()``: a `LoaderStore` on the real directory persistence that
/// enqueues edits in four scopes, with a handler sending them to a fake server. The server
/// lives in the child too, but its state is a log file the parent reads: it applies an edit
/// by idempotency key (a key it has applied is acknowledged again, not applied), appends an
/// `apply` line and flushes it before answering; it fails at random, transiently, before
/// applying and after applying (a lost answer), so edits are resent. Each scope has a
/// persisted entry, its ``CrashTally``, fetched from the server (at each start and now and
/// then while running); an edit's optimistic change appends its number to it.
///
/// The child prints, at each start before anything else, what each entry restored (tally
/// and `fetchedAt`) and the persistence events of the restore; then `ack <scope> <n>` when
/// the server's answer to an edit reached it (before the edit commits), `enq <scope> <n>`
/// once `enqueue` has returned, and any later persistence event. The parent kills it after
/// a random number of enqueues at a random moment (and reads what it printed before it
/// died), now and then damages a saved record in place (a flipped byte, a cut), starts it
/// again, and at the end runs it once more to drain the outbox. At every start it checks:
///
/// - each restored tally is committed: its first part exactly what the server had applied
///   when its fetch ran, then only edits whose acknowledgement had reached the app, and the
///   whole a prefix of what the server applied (never an edit still pending, never one the
///   server had not applied); its `fetchedAt` lies within the run;
/// - every record file present loaded or was reported removed, the damaged one among the
///   reported; temporary files left by killed writes are removed and reported, none
///   vanishing unreported; no other persistence event;
/// - the app ended by our SIGKILL (the draining run: exit status 0).
///
/// - once the edit type is registered, each restored value (the counters and every page of
///   the paged list) holds every edit the server acknowledged before the kill: committed
///   edits are laid over values saved before their commit;
/// - the paged list came back whole (its pages in order, its next cursor and `hasNextPage`
///   as saved, each page's tally committed as above), and its next page is fetched at the
///   saved cursor, not from the first page.
///
/// While running, the app now and then trims its store (every entry leaves memory), lets a
/// few edits commit with no entry in memory, and makes the entries again from their saved
/// records: each must hold every edit acknowledged so far.
///
/// At the end: every acknowledged edit applied exactly once, each scope's in the order they
/// were enqueued, no outbox issue, the outbox empty, no temporary file left.
///
/// `LOADABLES_OUTBOX_CRASH_KILLS` sets the number of kills (25 by default);
/// `.ci/crash-outbox [kills]` runs hundreds. `LOADABLES_OUTBOX_CRASH_SEED` replays a run.
final class OutboxCrashTests: XCTestCase {
  private static let directoryVariable = "LOADABLES_OUTBOX_CRASH_DIR"
  private static let startVariable = "LOADABLES_OUTBOX_CRASH_START"
  private static let seedVariable = "LOADABLES_OUTBOX_CRASH_CHILD_SEED"
  private static let drainVariable = "LOADABLES_OUTBOX_CRASH_DRAIN"
  static let scopeCount = 4

  /// The app: reports what it restored, then enqueues edits for ever, refreshing now and
  /// then (or, draining, sends what is queued and exits). Does nothing unless run by
  /// ``testKilledAppsApplyEveryEditOnceInOrder()``.
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
    // Before anything else: what each entry restored from disk (no edit is laid over it
    // yet: its type is not registered), and what the restore reported.
    var counters = (0..<Self.scopeCount).map { scope in
      store.loader(for: ["counter", scope]) { await server.tally(scope) }
    }
    for (scope, counter) in counters.enumerated() {
      switch counter.state {
      case .loaded(let tally):
        let fetchedAt = counter.fetchedAt.map { String(Int64($0.timeIntervalSince1970 * 1e6)) }
        let numbers =
          tally.applied.isEmpty ? "-" : tally.applied.map(String.init).joined(separator: ",")
        say("restore \(scope) \(tally.through) \(numbers) \(fetchedAt ?? "none")")
      case .absent:
        say("restore \(scope) absent")
      default:
        say("restore \(scope) other \(counter.state)")
      }
    }
    // A paged list of every scope's tally, one page a scope: restored whole (its pages and
    // next cursor) before anything is laid over it.
    let feedSource = PagedSource<CrashTally, Int>(first: 0) { lane in
      say("pfetch \(lane)")
      var tally = await server.tally(lane)
      tally.lane = lane
      return Page(items: [tally], next: lane + 1 < Self.scopeCount ? lane + 1 : nil)
    }
    var feed = store.pagedLoader(for: ["feed"], source: feedSource)
    if case .loaded = feed.state.list {
      let next = feed.state.nextCursor.map(String.init) ?? "-"
      say("prestore \(feed.state.pages.count) \(next) \(feed.state.hasNextPage ? 1 : 0)")
      for tally in feed.state.items {
        say("ptally \(tally.lane ?? -1) \(tally.through) \(Self.numbers(tally))")
      }
    } else {
      say("prestore absent")
    }
    for event in store.recentPersistenceEvents { say(Self.line(for: event)) }
    say("restored")
    store.onPersistenceEvent = { say(Self.line(for: $0)) }

    store.register(CrashEdit.self, backoff: .constant(.milliseconds(1))) { edit, context in
      try await server.apply(edit, context)
      // Printed before the edit commits: before any save of a value holding it as committed.
      say("ack \(edit.lane) \(edit.number)")
    }
    // Registered: every edit the server acknowledged, committed or still queued, is laid
    // over what was restored.
    for (scope, counter) in counters.enumerated() {
      say("shown \(scope) \(counter.state.data.map(Self.numbers) ?? "absent")")
    }
    for tally in feed.state.items { say("pshown \(tally.lane ?? -1) \(Self.numbers(tally))") }
    // The restored list pages on from its saved cursor.
    if feed.state.hasNextPage, !feed.state.pages.isEmpty {
      say("pnext \(feed.state.pages.count)")
      await feed.loadNextPage()
    }
    for counter in counters { await counter.refresh() }

    if environment[Self.drainVariable] != nil {
      await store.outbox.untilIdle()
      await store.flushPersistence()
      for issue in store.outbox.issues { say("issue \(issue)") }
      say("idle \(store.outbox.items.count)")
      return
    }
    for issue in store.outbox.issues { say("issue \(issue)") }
    var number = start
    // While cold, the entries are out of the store: edits commit with no entry in memory.
    var coldUntil: Int?
    while true {
      let scope = random.below(Self.scopeCount)
      store.edit(CrashEdit(lane: scope, number: number))
      say("enq \(scope) \(number)")
      number += 1
      if let until = coldUntil {
        guard number >= until else {
          try await Task.sleep(for: .microseconds(random.below(3_000)))
          continue
        }
        // Made again from their saved records: what was acknowledged meanwhile shows.
        coldUntil = nil
        counters = (0..<Self.scopeCount).map { scope in
          store.loader(for: ["counter", scope]) { await server.tally(scope) }
        }
        feed = store.pagedLoader(for: ["feed"], source: feedSource)
        for (scope, counter) in counters.enumerated() {
          say("made \(scope) \(counter.state.data.map(Self.numbers) ?? "absent")")
        }
        for tally in feed.state.items { say("pmade \(tally.lane ?? -1) \(Self.numbers(tally))") }
      } else if random.below(12) == 0 {
        store.trim()
        coldUntil = number + 1 + random.below(8)
      }
      // A fetch now and then, landing among the sends and commits; the list pages on.
      if coldUntil == nil, random.below(4) == 0 {
        let counter = counters[random.below(Self.scopeCount)]
        Task { await counter.refresh() }
      }
      if coldUntil == nil, random.below(3) == 0 {
        let (list, pages) = (feed, random.below(2) == 0)
        Task {
          if pages { await list.loadNextPage() } else { await list.refresh() }
        }
      }
      // Gives the lanes time to send, so kills land while sending too.
      try await Task.sleep(for: .microseconds(random.below(3_000)))
    }
  }

  /// A tally's numbers as the parent reads them: `-` for none, else comma-separated.
  private static func numbers(_ tally: CrashTally) -> String {
    tally.applied.isEmpty ? "-" : tally.applied.map(String.init).joined(separator: ",")
  }

  /// A persistence event as one line the parent reads: `pev unreadable <file>`,
  /// `pev temporary <file>` or `pev other <event>`.
  private static func line(for event: PersistenceEvent) -> String {
    switch event {
    case .removedUnreadable(let file, _): "pev unreadable \(file)"
    case .removedTemporary(let file): "pev temporary \(file)"
    case .droppedExpired: "pev expired"
    default: "pev other \(String(describing: event).replacingOccurrences(of: "\n", with: " "))"
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
      var audit = RestoreAudit(seed: seed, began: Date())
      var enqueued: Set<String> = []
      var issues: [String] = []
      for kill in 0...kills {
        let draining = kill == kills
        // Now and then a record goes bad on disk (a bit flipped, a file cut short).
        let corrupted = random.below(6) == 0 ? corruptRecord(directory, &random) : nil
        let files = storeFiles(directory)
        let log = try ServerLog(directory.appendingPathComponent("server.log"), seed: seed)
        let lines = try runApp(
          directory, start: (kill + 1) * 1_000_000, childSeed: random.next(),
          killAfter: draining ? nil : 1 + random.below(25), delay: random.below(4_000),
          seed: seed)
        audit.check(start: kill, lines: lines, files: files, corrupted: corrupted, log: log)
        for line in lines {
          if line.hasPrefix("enq ") { enqueued.insert(String(line.dropFirst(4))) }
          if line.hasPrefix("issue ") { issues.append("start \(kill): \(line)") }
        }
        if draining {
          XCTAssertTrue(
            lines.contains("idle 0"), "seed \(seed): the outbox did not drain: \(lines.suffix(5))")
          XCTAssertEqual(
            storeFiles(directory).temporaries, [],
            "seed \(seed): temporary files stayed after a launch that ran to its end")
        }
      }

      // The server's log: `apply <scope> <n> <key>` once per edit it applied, `again <key>`
      // for each repeated send it acknowledged without applying.
      let log = try ServerLog(directory.appendingPathComponent("server.log"), seed: seed)
      var appliedCount: [String: Int] = [:]
      var lastInScope: [Int: Int] = [:]
      var outOfOrder = 0
      for (scope, number) in log.applied {
        appliedCount["\(scope) \(number)", default: 0] += 1
        if let last = lastInScope[scope], last >= number {
          outOfOrder += 1
          XCTFail("seed \(seed): scope \(scope) applied \(number) after \(last)")
        }
        lastInScope[scope] = number
      }
      let lost = enqueued.subtracting(appliedCount.keys)
      let duplicated = appliedCount.filter { $0.value > 1 }
      XCTAssertEqual(lost, [], "seed \(seed): acknowledged edits never applied")
      XCTAssertEqual(duplicated, [:], "seed \(seed): edits applied more than once")
      XCTAssertEqual(issues, [], "seed \(seed): the outbox reported problems")
      XCTAssertEqual(audit.failures, [], "seed \(seed): restores that break the rules")
      print(
        "Crash-outbox: \(kills) kills survived, \(enqueued.count) edits enqueued, "
          + "\(audit.acknowledged.count) acknowledged by the server, "
          + "\(appliedCount.count) applied, \(log.repeats) repeated sends deduplicated, "
          + "\(lost.count) lost, \(duplicated.count) duplicated, \(outOfOrder) out of order; "
          + "\(audit.restoredChecked) restored values checked "
          + "(\(audit.restoredWithCommitted) holding committed edits past their fetch), "
          + "\(audit.absent) absent, \(audit.corrupted) records damaged by the test and "
          + "\(audit.unreadable) unreadable files reported, "
          + "\(audit.temporaries) temporary files left by kills and "
          + "\(audit.temporariesReported) reported removed; "
          + "\(audit.coverageChecked) values shown after a restore checked against the "
          + "acknowledged edits (\(audit.madeWhileRunning) made again while running), "
          + "\(audit.olderThanAcknowledged) older than an acknowledged edit; "
          + "\(audit.pagedRestored) paged lists restored whole, \(audit.pagedContinued) paged on "
          + "from their saved cursor; \(audit.expired) values dropped below the committed "
          + "edits' floor (seed \(seed))")
    #endif
  }

  #if os(Linux)
    /// The entries' files in the store's directory before a start: records and temporary
    /// files (a write killed before its rename).
    private func storeFiles(_ directory: URL) -> (records: Set<String>, temporaries: Set<String>) {
      let store = directory.appendingPathComponent("store")
      let names = (try? FileManager.default.contentsOfDirectory(atPath: store.path)) ?? []
      // Temporaries live in `tmp`, each named after its writer, beside its lock file.
      let temporaries =
        (try? FileManager.default.contentsOfDirectory(
          atPath: store.appendingPathComponent("tmp").path)) ?? []
      return (
        Set(names.filter { $0.hasSuffix(".loadable") }),
        Set(temporaries.filter { !$0.hasSuffix(".lock") }.map { "tmp/" + $0 })
      )
    }

    /// Damages one record file of the store's at random (flips a byte or cuts it short), as
    /// storage can; returns its name, or `nil` when there is none.
    private func corruptRecord(_ directory: URL, _ random: inout SplitMix64) -> String? {
      let records = storeFiles(directory).records.sorted()
      guard !records.isEmpty else { return nil }
      let name = records[random.below(records.count)]
      let url = directory.appendingPathComponent("store").appendingPathComponent(name)
      guard var bytes = try? Data(contentsOf: url), !bytes.isEmpty else { return nil }
      if random.below(2) == 0 {
        let offset = random.below(bytes.count)
        bytes[offset] ^= UInt8(1 + random.below(255))
      } else {
        bytes = bytes.prefix(random.below(bytes.count))
      }
      // In place, as a failing disk does (not a new file renamed over the old one).
      guard (try? bytes.write(to: url)) != nil else { return nil }
      return name
    }

    /// Runs the app on `directory`. With `killAfter`, kills it with SIGKILL once it has
    /// acknowledged that many enqueues and `delay` microseconds more, then reads what it
    /// printed before it died; without, waits for it to drain and exit. Returns the lines it
    /// printed. Fails after 60 s without progress, and when the app ends any other way than
    /// by our SIGKILL (or, draining, by exiting with status 0).
    private func runApp(
      _ directory: URL, start: Int, childSeed: UInt64, killAfter: Int?, delay: Int,
      seed: UInt64
    ) throws -> [String] {
      let app = try ChildTestProcess(
        running: "LoadablesTests.OutboxCrashTests/testCrashAppChild",
        environment: [
          Self.directoryVariable: directory.path, Self.startVariable: String(start),
          Self.seedVariable: String(childSeed), Self.drainVariable: killAfter == nil ? "1" : nil,
        ])
      defer { app.end() }

      var lines: [String] = []
      var enqueued = 0
      var ended = false
      /// Reads one chunk into `lines`; false at the end of the output or after 60 s.
      func readChunk() -> Bool {
        switch app.read(waitingUpTo: 60_000) {
        case .timedOut:
          XCTFail("seed \(seed): the app printed nothing for 60 s after \(lines.suffix(3))")
          return false
        case .ended:
          ended = true
          return false
        case .lines(let read):
          let known = [
            "enq ", "ack ", "issue ", "idle ", "restore", "pev ", "shown ", "made ", "pshown ",
            "pmade ", "prestore", "ptally ", "pnext ", "pfetch ",
          ]
          for line in read where known.contains(where: line.hasPrefix) {
            lines.append(line)
            if line.hasPrefix("enq ") { enqueued += 1 }
          }
          return true
        }
      }
      while killAfter.map({ enqueued < $0 }) ?? true, readChunk() {}
      if killAfter != nil {
        XCTAssertFalse(ended, "seed \(seed): the app ended before its kill: \(lines.suffix(3))")
        // Picks the moment of the kill: the app sends between enqueues.
        usleep(UInt32(delay))
        app.kill()
        while readChunk() {}  // what it printed before it died
        app.process.waitUntilExit()
        XCTAssertTrue(
          app.process.terminationReason == .uncaughtSignal
            && app.process.terminationStatus == SIGKILL,
          "seed \(seed): the app ended by \(app.process.terminationReason.rawValue) "
            + "\(app.process.terminationStatus), not our SIGKILL: \(lines.suffix(3))")
      } else {
        app.process.waitUntilExit()
        XCTAssertTrue(
          app.process.terminationReason == .exit && app.process.terminationStatus == 0,
          "seed \(seed): the draining app ended by \(app.process.terminationReason.rawValue) "
            + "\(app.process.terminationStatus): \(lines.suffix(3))")
      }
      return lines
    }
  #endif
}

/// The crash app's server log as the parent reads it: the edits applied, in order.
struct ServerLog {
  /// `(scope, number)` of each `apply` line, in order.
  var applied: [(scope: Int, number: Int)] = []
  /// How many `again` lines: repeated sends acknowledged without applying.
  var repeats = 0

  init(_ url: URL, seed: UInt64) throws {
    guard FileManager.default.fileExists(atPath: url.path) else { return }
    for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
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
      applied.append((scope, number))
    }
  }

  /// The numbers `scope` had applied once the first `count` edits were applied: what a
  /// fetch at that moment returned.
  func sequence(_ scope: Int, through count: Int? = nil) -> [Int] {
    applied.prefix(count ?? applied.count).filter { $0.scope == scope }.map(\.number)
  }
}

/// Checks what each start of the crash app restored against the server's log as the killed
/// app left it and the edits the server acknowledged to the app before it died.
///
/// A restored tally must be one the app may keep as committed: its first part exactly what
/// the server had applied when the fetch ran (`through` says when), then only edits the
/// server acknowledged (their answers reached the app) — never one still pending — and the
/// whole a prefix of what the server has applied. Every record file present at a start
/// must load or be reported removed; the restored `fetchedAt` must lie within the run.
struct RestoreAudit {
  let seed: UInt64
  let began: Date
  /// `"<scope> <n>"` of each edit whose send the server acknowledged to the app.
  var acknowledged: Set<String> = []
  var failures: [String] = []
  var restoredChecked = 0
  var restoredWithCommitted = 0
  var absent = 0
  var unreadable = 0
  var corrupted = 0
  var temporaries = 0
  var temporariesReported = 0
  /// Values shown after a restore (at launch once the edit type is registered, or made again
  /// from a saved record while running) missing an edit the server had acknowledged: must be 0.
  var olderThanAcknowledged = 0
  /// Values checked for that, and how many of them were made again while running.
  var coverageChecked = 0
  var madeWhileRunning = 0
  /// Paged lists restored whole, and how many then paged on from their saved cursor.
  var pagedRestored = 0
  var pagedContinued = 0
  var expired = 0
  /// The temporary files present at the last start that it did not report removed: they
  /// must still be there at the next.
  var unreportedTemporaries: Set<String> = []

  mutating func check(
    start: Int, lines: [String], files: (records: Set<String>, temporaries: Set<String>),
    corrupted damaged: String?, log: ServerLog
  ) {
    func fail(_ message: String) { failures.append("start \(start): \(message)") }
    guard let end = lines.firstIndex(of: "restored") else {
      return fail("no restore report: \(lines.prefix(6))")
    }
    var loaded = 0
    var restoredPages = 0
    var pageIndex = 0
    var expiredNow = 0
    var removed: Set<String> = []
    var removedTemporaries: Set<String> = []
    for line in lines[..<end] {
      let fields = line.split(separator: " ").map(String.init)
      if fields.first == "prestore" {
        if fields[1] == "absent" { continue }
        guard fields.count == 4, let count = Int(fields[1]) else {
          fail("a paged restore line without its pages: \(line)")
          continue
        }
        loaded += 1
        pagedRestored += 1
        restoredPages = count
        let end = count >= OutboxCrashTests.scopeCount
        if fields[2] != (end ? "-" : String(count)) || fields[3] != (end ? "0" : "1") {
          fail(
            "the paged list restored \(count) pages with next cursor \(fields[2]) and hasNextPage \(fields[3])"
          )
        }
        continue
      }
      if fields.first == "ptally" {
        guard fields.count == 4, let lane = Int(fields[1]), let through = Int(fields[2]) else {
          fail("a paged tally line without its tally: \(line)")
          continue
        }
        if lane != pageIndex {
          fail("the paged list restored page \(pageIndex) holding scope \(lane)")
        }
        pageIndex += 1
        let tally = fields[3] == "-" ? [] : fields[3].split(separator: ",").compactMap { Int($0) }
        checkCommitted(
          scope: lane, through: through, tally: tally, log: log, acknowledged: acknowledged, fail)
        continue
      }
      if fields.first == "pev" {
        switch fields[1] {
        case "unreadable":
          unreadable += 1
          removed.insert(fields[2])
        case "temporary":
          removedTemporaries.insert(fields[2])
        case "expired":
          expired += 1
          expiredNow += 1
        default:
          fail("unexpected persistence event at launch: \(line)")
        }
        continue
      }
      guard fields.first == "restore", fields.count >= 3, let scope = Int(fields[1]) else {
        fail("an unexpected line in the restore report: \(line)")
        continue
      }
      if fields[2] == "absent" {
        absent += 1
        continue
      }
      guard fields.count == 5, let through = Int(fields[2]),
        let micros = Int64(fields[4])
      else { return fail("a restore without a tally or fetchedAt: \(line)") }
      let tally = fields[3] == "-" ? [] : fields[3].split(separator: ",").compactMap { Int($0) }
      loaded += 1
      restoredChecked += 1
      if checkCommitted(
        scope: scope, through: through, tally: tally, log: log, acknowledged: acknowledged, fail)
      {
        restoredWithCommitted += 1
      }
      let fetchedAt = Date(timeIntervalSince1970: Double(micros) / 1e6)
      if fetchedAt < began.addingTimeInterval(-1) || fetchedAt > Date().addingTimeInterval(1) {
        fail("scope \(scope) restored fetchedAt \(fetchedAt), outside the run (began \(began))")
      }
    }
    // No silent loss: every record present loaded or was reported removed.
    if pageIndex != restoredPages {
      fail("the paged list restored \(restoredPages) pages and \(pageIndex) tallies")
    }
    let reported = files.records.intersection(removed).count
    if loaded + reported + expiredNow != files.records.count {
      fail(
        "\(files.records.count) record files present, \(loaded) loaded, \(reported) reported removed"
      )
    }
    if let damaged {
      corrupted += 1
      if !removed.contains(damaged) { fail("the damaged record \(damaged) was not reported") }
    }
    var expectedFetch: String?
    for line in lines[end...] {
      let fields = line.split(separator: " ").map(String.init)
      if fields.first == "ack", fields.count == 3 {
        acknowledged.insert("\(fields[1]) \(fields[2])")
      }
      // A value shown after a restore holds every edit acknowledged before it.
      // (An entry with no value restored none: its record was damaged, or never saved.)
      if ["shown", "made", "pshown", "pmade"].contains(fields.first), fields.count == 3,
        fields[2] != "absent", let scope = Int(fields[1])
      {
        coverageChecked += 1
        if fields[0] == "made" || fields[0] == "pmade" { madeWhileRunning += 1 }
        let shown = Set(fields[2].split(separator: ",").compactMap { Int($0) })
        let missing = acknowledged.compactMap { key -> Int? in
          let parts = key.split(separator: " ")
          guard parts.count == 2, Int(parts[0]) == scope, let number = Int(parts[1]) else {
            return nil
          }
          return shown.contains(number) ? nil : number
        }
        if !missing.isEmpty {
          olderThanAcknowledged += 1
          fail("\(line): older than acknowledged edits \(missing.sorted().prefix(4))")
        }
      }
      if fields.first == "pnext", fields.count == 2 { expectedFetch = fields[1] }
      if fields.first == "pfetch", fields.count == 2, let expected = expectedFetch {
        expectedFetch = nil
        if fields[1] == expected {
          pagedContinued += 1
        } else {
          fail("the restored list's next page fetched cursor \(fields[1]), not \(expected)")
        }
      }
      if fields.first == "pev", fields.count == 2, fields[1] == "expired" {
        expired += 1
      } else if fields.first == "pev", fields.count == 3, fields[1] == "temporary" {
        removedTemporaries.insert(fields[2])
      } else if fields.first == "pev" {
        fail("persistence event while running: \(line)")
      }
    }
    // Temporary files (writes killed before their rename) go, reported, at the next launch:
    // none vanishes unreported, none is reported that was not there.
    let vanished = unreportedTemporaries.subtracting(files.temporaries)
    if !vanished.isEmpty { fail("temporary files went unreported: \(vanished.sorted())") }
    let invented = removedTemporaries.subtracting(files.temporaries)
    if !invented.isEmpty { fail("reported temporary files that were not there: \(invented)") }
    temporaries += files.temporaries.subtracting(unreportedTemporaries).count
    temporariesReported += removedTemporaries.count
    unreportedTemporaries = files.temporaries.subtracting(removedTemporaries)
  }
}

/// Checks that a restored tally is committed: its first part exactly what the server had
/// applied when its fetch ran (`through` edits in all), then only edits acknowledged to the
/// app, the whole a prefix of what the server applied.
@discardableResult
private func checkCommitted(
  scope: Int, through: Int, tally: [Int], log: ServerLog, acknowledged: Set<String>,
  _ fail: (String) -> Void
) -> Bool {
  guard through <= log.applied.count else {
    fail(
      "scope \(scope) restored a fetch through \(through) edits; the server applied \(log.applied.count)"
    )
    return false
  }
  let fetched = log.sequence(scope, through: through)
  guard tally.starts(with: fetched) else {
    fail(
      "scope \(scope) restored \(tally.suffix(4)), not what the server had at its fetch (…\(fetched.suffix(4)))"
    )
    return false
  }
  // Past it: only edits the server acknowledged to the app, never a pending one.
  let pendingOnes = tally.dropFirst(fetched.count).filter {
    !acknowledged.contains("\(scope) \($0)")
  }
  if !pendingOnes.isEmpty {
    fail("scope \(scope) restored uncommitted edits \(pendingOnes.prefix(4)) as committed")
  }
  if !log.sequence(scope).starts(with: tally) {
    fail("scope \(scope) restored \(tally.suffix(4)): the server never had it")
  }
  return tally.count > fetched.count
}

/// Prints `line` unbuffered: out before the app goes on.
private func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// A scope's counter on the crash app's server: the numbers of the edits it applied, in
/// order, and how many edits the server had applied in all (every scope) when it was
/// fetched. An edit's optimistic change appends its number, if not there, and leaves
/// `through` alone: past `through`, a tally holds only edits laid over the fetch.
struct CrashTally: Codable, Equatable, Sendable {
  var applied: [Int]
  var through: Int
  /// The scope, in the paged list's items.
  var lane: Int?
}

/// Adds its number to a counter: the crash app's edit.
struct CrashEdit: OutboxEdit {
  static let name = "CrashEdit"
  var lane: Int
  var number: Int

  var scope: LoadKey { ["counter", lane] }

  func applyOptimistically(to edit: inout SharedEdit, in store: LoaderStore) {
    let (lane, number) = (lane, number)
    edit.update(matching: ["counter", lane], in: store, as: CrashTally.self) { tally in
      if !tally.applied.contains(number) { tally.applied.append(number) }
    }
    edit.update(
      matching: ["feed"], in: store, as: CrashTally.self, where: { $0.lane == lane },
      { tally in if !tally.applied.contains(number) { tally.applied.append(number) } })
  }
}

/// The fake server: applies each idempotency key once, recording it in a log file it
/// appends to and flushes before answering; fails transiently at random, before applying and
/// after (an answer lost on the way).
@MainActor
final class CrashServer {
  private let descriptor: Int32
  private var applied: Set<String> = []
  /// The numbers each scope has applied, in order, and how many edits were applied in all.
  private var sequences: [Int: [Int]] = [:]
  private var appliedCount = 0
  private var random: SplitMix64

  init(log: URL, seed: UInt64) {
    random = SplitMix64(seed: seed)
    let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ")
      if fields.count == 4, fields[0] == "apply", let scope = Int(fields[1]),
        let number = Int(fields[2])
      {
        applied.insert(String(fields[3]))
        sequences[scope, default: []].append(number)
        appliedCount += 1
      }
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
      sequences[edit.lane, default: []].append(edit.number)
      appliedCount += 1
    }
    await Task.yield()
    if random.below(100) < 10 { throw TestError(code: 504) }  // applied, answer lost
  }

  /// What a fetch of `scope`'s counter returns: the numbers applied there, in order, and
  /// how many edits were applied in all when it ran.
  func tally(_ scope: Int) async -> CrashTally {
    await Task.yield()  // a request takes a moment
    return CrashTally(applied: sequences[scope] ?? [], through: appliedCount)
  }

  /// One `write` (appends are not torn by a kill) and an `fsync`.
  private func append(_ line: String) {
    var bytes = Array(line.utf8)
    let written = write(descriptor, &bytes, bytes.count)
    precondition(written == bytes.count, "CrashServer: the log write failed (errno \(errno))")
    fsync(descriptor)
  }
}

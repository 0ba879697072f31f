import Foundation
import Loadables
import LoadablesTesting
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The Working Offline article's promises for an app and its extension over one App Group
/// folder ("Sharing a folder with an extension"): two stores over one directory stand in for
/// the two processes (the sender lock is an OS file lock held per open file, so two stores in
/// one process meet it as two processes do; `.ci/crash-two-processes` runs two processes).
@MainActor
final class WorkingOfflineArticleSharedDirectoryTests: XCTestCase {
  struct RenamePost: OutboxEdit {
    static let name = "RenamePost"
    let id: Int
    let title: String

    var scope: LoadKey { ["posts", id] }

    func applyOptimistically(to edit: inout SharedEdit, in store: LoaderStore) {
      edit.update(matching: ["posts", id], in: store, as: String.self) { $0 = title }
    }
  }

  /// The server both processes send to: applies each idempotency key once, and counts the
  /// stores sending at one moment.
  @MainActor
  final class Server {
    var applied: [(store: String, title: String)] = []
    var keys: Set<String> = []
    var sendingNow: Set<String> = []
    var overlaps = 0

    func send(_ edit: RenamePost, _ context: OutboxContext, from store: String, gate: Gate<Void>?)
      async throws
    {
      sendingNow.insert(store)
      if sendingNow.count > 1 { overlaps += 1 }
      defer { sendingNow.remove(store) }
      if let gate { try await gate.pass() }
      if keys.insert(context.idempotencyKey).inserted { applied.append((store, edit.title)) }
    }
  }

  private func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("shared-folder-\(UUID().uuidString)")
    addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
  }

  func testOnlyOneProcessSendsAndAnEditQueuedInEitherIsSentOnce() async throws {
    let folder = try folder()
    let server = Server()
    let firstSend = Gate<Void>()
    let (appClock, widgetClock) = (ManualClock(), ManualClock())
    let secondSend = Gate<Void>()
    let app = LoaderStore(clock: appClock, persistence: .directory(folder, version: "1"))
    let widget = LoaderStore(clock: widgetClock, persistence: .directory(folder, version: "1"))
    var gates = [firstSend, secondSend]
    app.register(RenamePost.self) { edit, context in
      let gate = gates.isEmpty ? nil : gates.removeFirst()
      try await server.send(edit, context, from: "app", gate: gate)
    }
    widget.register(RenamePost.self) { edit, context in
      try await server.send(edit, context, from: "widget", gate: nil)
    }

    app.edit(RenamePost(id: 1, title: "from the app"))
    await firstSend.arrival()  // the app holds the sender lock while it sends
    let fromWidget = widget.edit(RenamePost(id: 2, title: "from the widget"))
    try await widgetClock.sleepers(count: 1)  // it waits for its turn, on its clock
    XCTAssertEqual(widget.outbox.pendingCount, 1, "the widget's edit is not pending")
    XCTAssertEqual(server.applied.count, 0, "the widget sent while the app was sending")

    // The app's lane reads the folder again before it ends: it sends the widget's edit too.
    firstSend.open()
    await secondSend.arrival()
    secondSend.open()
    await app.outbox.untilIdle()
    XCTAssertEqual(server.applied.map(\.title), ["from the app", "from the widget"])
    XCTAssertEqual(server.applied.map(\.store), ["app", "app"])

    // The widget takes the lock once the app let it go, reads that its edit was sent, and
    // ends it committed, without sending it again.
    widgetClock.advance(by: .seconds(1))
    let outcome = await fromWidget.outcome()
    guard case .committed = outcome else { return XCTFail("the widget's edit ended \(outcome)") }
    await widget.outbox.untilIdle()
    XCTAssertEqual(server.applied.count, 2, "an edit was applied twice: \(server.applied)")
    XCTAssertEqual(server.keys.count, 2)
    XCTAssertEqual(server.overlaps, 0, "two stores sent at once")
  }

  func testAnEditTheOtherProcessQueuesInAScopeBeingSentFollowsItInOrder() async throws {
    let folder = try folder()
    let server = Server()
    let firstSend = Gate<Void>()
    let widgetClock = ManualClock()
    let app = LoaderStore(clock: ManualClock(), persistence: .directory(folder, version: "1"))
    let widget = LoaderStore(clock: widgetClock, persistence: .directory(folder, version: "1"))
    let lastSend = Gate<Void>()
    app.register(RenamePost.self) { edit, context in
      let gate = ["first": firstSend, "third": lastSend][edit.title]
      try await server.send(edit, context, from: "app", gate: gate)
    }
    widget.register(RenamePost.self) { edit, context in
      try await server.send(edit, context, from: "widget", gate: nil)
    }
    app.edit(RenamePost(id: 1, title: "first"))
    await firstSend.arrival()
    widget.edit(RenamePost(id: 1, title: "second"))
    let third = widget.edit(RenamePost(id: 1, title: "third"))
    try await widgetClock.sleepers(count: 1)
    firstSend.open()
    // The app sends both (the widget's line joined its own scope's); the widget then ends
    // them committed without sending them again.
    await lastSend.arrival()
    lastSend.open()
    await app.outbox.untilIdle()
    XCTAssertEqual(server.applied.map(\.title), ["first", "second", "third"])
    widgetClock.advance(by: .seconds(1))
    _ = await third.outcome()
    await widget.outbox.untilIdle()
    XCTAssertEqual(server.applied.count, 3, "an edit was applied twice: \(server.applied)")
    XCTAssertEqual(server.overlaps, 0)
  }

  func testAProcessThatDoesNotSendKeepsTryingOnItsClockAndSendsOnceTheOtherLetsGo() async throws {
    let folder = try folder()
    let server = Server()
    let held = Gate<Void>()
    let widgetClock = ManualClock()
    let app = LoaderStore(clock: ManualClock(), persistence: .directory(folder, version: "1"))
    let widget = LoaderStore(clock: widgetClock, persistence: .directory(folder, version: "1"))
    let joined = Gate<Void>()
    app.register(RenamePost.self) { edit, context in
      try await server.send(edit, context, from: "app", gate: edit.title == "held" ? held : joined)
    }
    widget.register(RenamePost.self) { edit, context in
      try await server.send(edit, context, from: "widget", gate: nil)
    }
    app.edit(RenamePost(id: 1, title: "held"))
    await held.arrival()
    widget.edit(RenamePost(id: 2, title: "waiting"))
    for _ in 0..<3 {  // no busy loop: one try a second, on the widget's clock
      try await widgetClock.sleepers(count: 1)
      widgetClock.advance(by: .seconds(1))
    }
    try await widgetClock.sleepers(count: 1)
    XCTAssertEqual(server.applied.count, 0)
    XCTAssertEqual(widget.outbox.items.map(\.status), [.ready], "its edit is not pending")
    // The app's send fails for good: it rolls back, and its lane ends having read the folder
    // (the widget's edit joins its line and goes from the app).
    held.fail(OutboxFailure.permanent(URLError(.badServerResponse)))
    await joined.arrival()
    joined.open()
    await app.outbox.untilIdle()
    widgetClock.advance(by: .seconds(1))
    await widget.outbox.untilIdle()
    XCTAssertEqual(server.applied.map(\.title), ["waiting"])
    XCTAssertEqual(server.overlaps, 0)
  }

  func testRecordsWrittenByOneProcessAreReadWholeByTheOther() async throws {
    let folder = try folder()
    let writer = DirectoryPersistence(folder)
    let reader = DirectoryPersistence(folder)
    let rules = PersistenceRules(version: "1")
    let key = try PersistentKey(["shared"])
    // Values of very different sizes: a torn read would show as a bad length or checksum.
    let values = (0..<8).map { Data(repeating: UInt8($0), count: 1 + $0 * 9_000) }
    try writer.write(
      PersistedRecord(key: key, value: values[0], savedAt: Date(), version: "1"),
      rules: rules)
    let rounds = 60
    let failures = LockedFailures()
    DispatchQueue.concurrentPerform(iterations: 2) { lane in
      for round in 0..<rounds {
        if lane == 0 {
          do {
            try writer.write(
              PersistedRecord(
                key: key, value: values[round % values.count], savedAt: Date(), version: "1"),
              rules: rules)
          } catch {
            failures.append("write \(round): \(error)")
          }
        } else {
          let load = reader.read(key, rules: rules, now: Date())
          if !load.events.isEmpty { failures.append("read \(round): \(load.events)") }
          if load.records.count != 1 || !values.contains(load.records[0].value) {
            failures.append("read \(round): \(load.records.map(\.value.count))")
          }
        }
      }
    }
    XCTAssertEqual(failures.all, [], "a record was read torn while the other wrote it")
  }

  func testALaunchNeverRemovesATemporaryFileOfALiveProcessAndRemovesADeadOnes() async throws {
    let folder = try folder()
    let rules = PersistenceRules(version: "1")
    var other: DirectoryPersistence? = DirectoryPersistence(folder)
    try other?.write(
      PersistedRecord(key: PersistentKey(["a"]), value: Data([1]), savedAt: Date(), version: "1"),
      rules: rules)
    let tmp = folder.appendingPathComponent("tmp")
    let lockFiles = try FileManager.default.contentsOfDirectory(atPath: tmp.path)
      .filter { $0.hasSuffix(".lock") }
    XCTAssertEqual(lockFiles.count, 1, "the writer holds no lock file of its own: \(lockFiles)")
    let owner = String(lockFiles[0].dropLast(".lock".count))
    // A write of the other process in flight: its temporary, not renamed yet.
    let inFlight = owner + "~x.loadable~1"
    _ = FileManager.default.createFile(
      atPath: tmp.appendingPathComponent(inFlight).path, contents: Data([1]))
    let launch = DirectoryPersistence(folder)
    XCTAssertEqual(launch.removeTemporaries(), [])
    _ = launch.loadAll(rules, now: Date())
    XCTAssertTrue(
      FileManager.default.fileExists(atPath: tmp.appendingPathComponent(inFlight).path),
      "a launch removed the temporary file of a live writer")

    other = nil  // its process dies: the kernel releases its lock
    XCTAssertEqual(launch.removeTemporaries(), [.removedTemporary(file: "tmp/" + inFlight)])
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), [])
  }

  #if os(Linux)
    /// The sender lock is `flock(2)`: held per open file description, so two opens of one
    /// file in one process conflict (two stores in one process meet the rule two processes
    /// do), and a close releases it.
    func testTwoOpensOfOneLockFileInOneProcessConflict() async throws {
      let folder = try folder()
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let path = folder.appendingPathComponent("lock").path
      let first = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
      let second = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
      defer { _ = close(second) }
      XCTAssertEqual(flock(first, LOCK_EX | LOCK_NB), 0)
      XCTAssertEqual(flock(second, LOCK_EX | LOCK_NB), -1)
      XCTAssertEqual(errno, EWOULDBLOCK)
      _ = close(first)
      XCTAssertEqual(flock(second, LOCK_EX | LOCK_NB), 0, "a close did not release the lock")
    }
  #endif
}

/// Failures gathered from threads.
private final class LockedFailures: @unchecked Sendable {
  // Safe: `items` is read and written only while holding `lock`.
  private let lock = NSLock()
  private var items: [String] = []
  func append(_ failure: String) { lock.withLock { items.append(failure) } }
  var all: [String] { lock.withLock { items } }
}

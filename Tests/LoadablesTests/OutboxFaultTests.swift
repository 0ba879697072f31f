import Foundation
import LoadablesTesting
import XCTest

@testable import Loadables

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The outbox under faults: a backend that throws on write (a full disk), and an app killed
/// with SIGKILL at random points while it enqueues and sends edits.
@MainActor
final class OutboxFaultTests: XCTestCase {
  // MARK: - A full disk

  func testABackendThatThrowsOnWriteLosesNoEditAndCrashesNothing() async throws {
    let disk = FlakyBackend()
    disk.failsWrites = true
    let saved = StorePersistence(
      backend: InMemoryPersistence(), outboxBackend: disk, rules: PersistenceRules(version: "1"))
    let clock = ManualClock()
    let server = PostServer()
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    let store = LoaderStore(clock: clock, persistence: saved, startDate: start)
    let post = server.entry(1, in: store)
    await post.load()
    store.register(RenamePost.self, backoff: .constant(.seconds(3))) { edit, context in
      try await server.rename(edit, context)
    }

    store.edit(RenamePost(id: 1, title: "mine"))
    XCTAssertEqual(post.state.data?.title, "mine", "an unsaved edit's change did not show")
    XCTAssertEqual(store.outbox.pendingCount, 1, "an unsaved edit left the outbox")
    XCTAssertEqual(store.outbox.issues.first?.kind, .notSaved)
    try await waitUntil(
      "the outbox waits to save again", seen: "sleepers \(clock.sleeperDeadlines)"
    ) { clock.sleeperDeadlines.contains(.seconds(3)) }
    XCTAssertTrue(server.calls.isEmpty, "an edit was sent before it was saved")
    XCTAssertEqual(
      store.outbox.items.map(\.status),
      [.waitingToSave(attempt: 1, nextTry: start.addingTimeInterval(3))])

    disk.failsWrites = false
    clock.advance(by: .seconds(3))
    try await waitUntil("the edit is saved and sent", seen: "\(store.outbox.items)") {
      store.outbox.items.isEmpty
    }
    XCTAssertEqual(disk.writes, 2, "the edit was not saved, then rewritten as committed")
    XCTAssertEqual(server.calls.map(\.title), ["mine"])
    XCTAssertEqual(post.state.data?.title, "mine")
  }

  func testAFullDiskForEntriesLosesNoQueuedEditAndSavesOnceItRecovers() async throws {
    // The entries' files fail to write; the outbox's (another directory) do not.
    let entriesDisk = FlakyBackend()
    entriesDisk.failsWrites = true
    let saved = StorePersistence(
      backend: entriesDisk, outboxBackend: InMemoryPersistence(),
      rules: PersistenceRules(version: "1"))
    let server = PostServer()
    let store = LoaderStore(persistence: saved)
    let post = server.entry(1, in: store)
    await post.load()
    let first = Gate<Void>()
    store.register(RenamePost.self, backoff: .constant(.milliseconds(1))) { edit, context in
      try await server.rename(edit, context, waitingAt: edit.title == "a" ? first : nil)
      server.title = edit.title
    }
    store.edit(RenamePost(id: 1, title: "a"))
    store.edit(RenamePost(id: 1, title: "b"))
    await first.arrival()
    await store.flushPersistence()
    XCTAssertTrue(
      store.recentPersistenceEvents.contains { if case .writeFailed = $0 { true } else { false } },
      "the failed save of the fetch was not reported: \(store.recentPersistenceEvents)")
    // Killed now, a relaunch finds both edits queued.
    let relaunched = LoaderStore(persistence: saved)
    XCTAssertEqual(
      relaunched.outbox.items.map(\.name), ["RenamePost", "RenamePost"],
      "an edit queued while the entries' disk was full was lost")

    first.open(())
    try await waitUntil("both edits are sent", seen: "\(store.outbox.items)") {
      store.outbox.items.isEmpty
    }
    await store.flushPersistence()
    XCTAssertEqual(server.calls.map(\.title), ["a", "b"], "an edit was lost or sent twice")
    XCTAssertEqual(store.outbox.issues, [], "the entries' full disk troubled the outbox")
    XCTAssertEqual(post.state.data?.title, "b")
    let failedSaves = store.recentPersistenceEvents.count {
      if case .writeFailed = $0 { true } else { false }
    }
    XCTAssertGreaterThanOrEqual(failedSaves, 3, "the commits' failed saves were not reported")
    XCTAssertEqual(entriesDisk.writes, 0)

    // Once the disk has room, the next committed value is saved.
    entriesDisk.failsWrites = false
    store.edit(RenamePost(id: 1, title: "c"))
    try await waitUntil("the third edit is sent", seen: "\(store.outbox.items)") {
      store.outbox.items.isEmpty
    }
    await store.flushPersistence()
    XCTAssertEqual(
      LoaderStore(persistence: saved).loader(for: ["posts", 1]) {
        OutboxPost(id: 1, title: "fetched", body: "")
      }.state.data?.title, "c", "the committed value was not saved once the disk had room")
  }

  func testAKillBeforeTheCommittedValueIsSavedLaysTheCommittedEditOverTheRestore() async throws {
    // The crash test's failure (seed 18349606250050811401), step by step: the entry's save
    // of a committed edit is still on its way to storage when the app is killed.
    let entriesDisk = StallingBackend()
    defer { entriesDisk.loseStalledWrites() }
    let saved = StorePersistence(
      backend: entriesDisk, outboxBackend: InMemoryPersistence(),
      rules: PersistenceRules(version: "1"))
    let server = PostServer()
    let before = LoaderStore(persistence: saved)
    await server.entry(1, in: before).load()
    await before.flushPersistence()  // "old" is on storage
    entriesDisk.stalls = true
    before.register(RenamePost.self) { edit, context in
      try await server.rename(edit, context)
      server.title = edit.title
    }
    before.edit(RenamePost(id: 1, title: "a"))
    try await waitUntil(
      "the committed value's save is on its way", seen: "\(before.outbox.items)"
    ) { entriesDisk.stalledWrites == 1 && before.outbox.items.isEmpty }
    XCTAssertEqual(server.applied.count, 1)

    // Killed now: the save never lands, and storage holds the value fetched before the edit;
    // the edit's record says it committed.
    let after = LoaderStore(persistence: saved)
    entriesDisk.loseStalledWrites()
    XCTAssertEqual(after.outbox.items.map(\.name), [], "a committed edit was queued again")
    let post = server.entry(1, in: after)
    XCTAssertEqual(post.state.data?.title, "old")
    after.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    XCTAssertEqual(
      post.state.data?.title, "a",
      "the relaunch lost an edit the server applied: its change is not laid over the restore")
    XCTAssertEqual(server.calls.count, 1, "a committed edit was sent again")
  }

  func testARecordThatCannotBeSavedAsCommittedIsReportedAndSentOnceMore() async throws {
    let disk = FlakyBackend()
    let saved = StorePersistence(
      backend: InMemoryPersistence(), outboxBackend: disk, rules: PersistenceRules(version: "1"))
    let server = PostServer()
    let before = LoaderStore(persistence: saved)
    before.register(RenamePost.self) { edit, context in
      try await server.rename(edit, context)
      disk.failsWrites = true  // the disk fills up as the answer comes back
    }
    before.edit(RenamePost(id: 1, title: "mine"))
    try await waitUntil("the edit is sent", seen: "\(before.outbox.items)") {
      before.outbox.items.isEmpty
    }
    XCTAssertEqual(before.outbox.issues.map(\.kind), [.notSaved])

    disk.failsWrites = false
    let after = LoaderStore(persistence: saved)
    after.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    try await waitUntil("the edit is sent again", seen: "\(after.outbox.items)") {
      after.outbox.items.isEmpty
    }
    XCTAssertEqual(server.calls.count, 2)
    XCTAssertEqual(server.applied.count, 1, "the repeated send was applied twice")
  }

  func testAnUnreadableRecordStaysFailedAndIsReported() async throws {
    let disk = FlakyBackend()
    try disk.write(
      PersistedRecord(
        key: OutboxRecord.key("broken"), value: Data("not json".utf8), savedAt: Date(),
        version: OutboxRecord.rules.version),
      rules: OutboxRecord.rules)
    let saved = StorePersistence(
      backend: InMemoryPersistence(), outboxBackend: disk, rules: PersistenceRules(version: "1"))
    let store = LoaderStore(persistence: saved)
    XCTAssertEqual(store.outbox.items.map(\.id), ["broken"])
    XCTAssertEqual(store.outbox.failedCount, 1)
    XCTAssertEqual(store.outbox.issues.map(\.kind), [.unreadable])
    XCTAssertFalse(store.outbox.retry("broken"))
    XCTAssertTrue(store.outbox.discard("broken"))
    XCTAssertTrue(LoaderStore(persistence: saved).outbox.items.isEmpty)
  }
}

/// An outbox backend in memory whose writes and removals fail while told to, as a full disk
/// does.
final class FlakyBackend: PersistenceBackend, @unchecked Sendable {
  // Safe to share: the flags and counts are read and written only while holding `lock`; the
  // wrapped backend locks itself.
  private let lock = NSLock()
  private let base = InMemoryPersistence()
  private var failingWrites = false
  private var failingRemoves = false
  private var writeCount = 0

  var failsWrites: Bool {
    get { lock.withLock { failingWrites } }
    set { lock.withLock { failingWrites = newValue } }
  }
  var failsRemoves: Bool {
    get { lock.withLock { failingRemoves } }
    set { lock.withLock { failingRemoves = newValue } }
  }
  /// The writes that succeeded.
  var writes: Int { lock.withLock { writeCount } }

  func loadAll(_ rules: PersistenceRules, now: Date) -> PersistenceLoad {
    base.loadAll(rules, now: now)
  }

  func read(_ key: PersistentKey, rules: PersistenceRules, now: Date) -> PersistenceLoad {
    base.read(key, rules: rules, now: now)
  }

  @discardableResult
  func write(_ record: PersistedRecord, rules: PersistenceRules) throws(PersistenceError)
    -> [PersistenceEvent]
  {
    if failsWrites { throw .io(operation: "write", path: "outbox", errno: ENOSPC) }
    lock.withLock { writeCount += 1 }
    return try base.write(record, rules: rules)
  }

  func remove(_ key: PersistentKey) throws(PersistenceError) {
    if failsRemoves { throw .io(operation: "unlink", path: "outbox", errno: EIO) }
    try base.remove(key)
  }

  func removeAll() throws(PersistenceError) { try base.removeAll() }
}

/// An entries backend in memory whose writes wait while ``stalls`` is set, as a write still on
/// its way to storage; ``loseStalledWrites()`` ends them unwritten, as killing the app does.
final class StallingBackend: PersistenceBackend, @unchecked Sendable {
  // Safe to share: the flag and the count are read and written only while holding
  // `condition`; the wrapped backend locks itself.
  private let condition = NSCondition()
  private let base = InMemoryPersistence()
  private var stalling = false
  private var stalledCount = 0

  /// Whether writes wait (on the writer's thread) until ``loseStalledWrites()``.
  var stalls: Bool {
    get { condition.withLock { stalling } }
    set { condition.withLock { stalling = newValue } }
  }
  /// The writes waiting now.
  var stalledWrites: Int { condition.withLock { stalledCount } }

  /// Ends the waiting writes without writing them, and lets later writes through.
  func loseStalledWrites() {
    condition.withLock {
      stalling = false
      condition.broadcast()
    }
  }

  func loadAll(_ rules: PersistenceRules, now: Date) -> PersistenceLoad {
    base.loadAll(rules, now: now)
  }

  func read(_ key: PersistentKey, rules: PersistenceRules, now: Date) -> PersistenceLoad {
    base.read(key, rules: rules, now: now)
  }

  @discardableResult
  func write(_ record: PersistedRecord, rules: PersistenceRules) throws(PersistenceError)
    -> [PersistenceEvent]
  {
    let lost = condition.withLock {
      guard stalling else { return false }
      stalledCount += 1
      while stalling { condition.wait() }
      stalledCount -= 1
      return true
    }
    if lost { return [] }
    return try base.write(record, rules: rules)
  }

  func remove(_ key: PersistentKey) throws(PersistenceError) { try base.remove(key) }

  func removeAll() throws(PersistenceError) { try base.removeAll() }
}

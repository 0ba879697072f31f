import Foundation
import XCTest

@testable import Loadables

/// The rules every backend keeps, checked against both: the in-memory one, and the directory
/// one, each "relaunch" a new instance on the same directory.
final class PersistenceBackendTests: XCTestCase {
  private let start = Date(timeIntervalSince1970: 1_700_000_000)

  /// A backend and a way to get a fresh instance on the same storage (a relaunch).
  private func backends() -> [(name: String, relaunch: () -> any PersistenceBackend)] {
    let memory = InMemoryPersistence()
    let directory = temporaryDirectory()
    return [
      ("in memory", { memory }),
      ("directory", { DirectoryPersistence(directory) }),
    ]
  }

  private func record(
    _ key: LoadKey, _ text: String, savedAt: Date? = nil, version: String = "1"
  ) throws -> PersistedRecord {
    PersistedRecord(
      key: try PersistentKey(key), value: Data(text.utf8), savedAt: savedAt ?? start,
      version: version)
  }

  private func texts(_ load: PersistenceLoad) -> [String: String] {
    Dictionary(
      uniqueKeysWithValues: load.records.map {
        ($0.key.identity, String(decoding: $0.value, as: UTF8.self))
      })
  }

  func testARecordWrittenReadsBackAfterARelaunchWithItsFetchTime() throws {
    let rules = PersistenceRules(version: "1")
    for backend in backends() {
      let first = backend.relaunch()
      XCTAssertEqual(first.loadAll(rules, now: start), PersistenceLoad(), backend.name)
      let saved = try record(["posts", 1], "hello", savedAt: start.addingTimeInterval(-60))
      XCTAssertEqual(try first.write(saved, rules: rules), [])
      try first.write(record(["posts", 2], "two"), rules: rules)
      try first.write(record(["posts", 1], "hello again"), rules: rules)
      try first.write(saved, rules: rules)

      let relaunched = backend.relaunch()
      let load = relaunched.loadAll(rules, now: start)
      XCTAssertEqual(load.events, [], backend.name)
      XCTAssertEqual(load.records.count, 2, backend.name)
      XCTAssertEqual(load.records.first { $0.key == saved.key }, saved, backend.name)
      XCTAssertEqual(relaunched.read(saved.key, rules: rules, now: start).records, [saved])
      XCTAssertEqual(
        relaunched.read(try PersistentKey(["posts", 3]), rules: rules, now: start),
        PersistenceLoad())

      try relaunched.remove(saved.key)
      try relaunched.remove(saved.key)  // removing what is gone is no error
      XCTAssertEqual(texts(backend.relaunch().loadAll(rules, now: start)), ["s5:postsi1:2": "two"])
      try backend.relaunch().removeAll()
      XCTAssertEqual(backend.relaunch().loadAll(rules, now: start), PersistenceLoad(), backend.name)
    }
  }

  func testRecordsOfAnotherVersionAreDroppedAndReported() throws {
    for backend in backends() {
      let old = try record(["a"], "old", version: "1")
      try backend.relaunch().write(old, rules: PersistenceRules(version: "1"))
      try backend.relaunch().write(
        record(["b"], "new", version: "2"), rules: PersistenceRules(version: "2"))

      let rules = PersistenceRules(version: "2")
      let load = backend.relaunch().loadAll(rules, now: start)
      XCTAssertEqual(texts(load), ["s1:b": "new"], backend.name)
      XCTAssertEqual(load.events, [.droppedOtherVersion(key: old.key, version: "1")], backend.name)
      XCTAssertEqual(backend.relaunch().loadAll(rules, now: start).events, [], "dropped for good")

      // Read one drops it too.
      try backend.relaunch().write(old, rules: PersistenceRules(version: "1"))
      let read = backend.relaunch().read(old.key, rules: rules, now: start)
      XCTAssertEqual(
        read, PersistenceLoad(events: [.droppedOtherVersion(key: old.key, version: "1")]))
    }
  }

  func testRecordsOlderThanMaxAgeAreDroppedAndReported() throws {
    let rules = PersistenceRules(version: "1", maxAge: .seconds(3_600))
    for backend in backends() {
      let stale = try record(["stale"], "s", savedAt: start.addingTimeInterval(-3_601))
      let fresh = try record(["fresh"], "f", savedAt: start.addingTimeInterval(-3_600))
      try backend.relaunch().write(stale, rules: rules)
      try backend.relaunch().write(fresh, rules: rules)

      let load = backend.relaunch().loadAll(rules, now: start)
      XCTAssertEqual(load.records, [fresh], backend.name)
      XCTAssertEqual(load.events, [.droppedExpired(key: stale.key, savedAt: stale.savedAt)])
      let later = backend.relaunch().read(fresh.key, rules: rules, now: start.addingTimeInterval(1))
      XCTAssertEqual(later.records, [], backend.name)
      XCTAssertEqual(later.events, [.droppedExpired(key: fresh.key, savedAt: fresh.savedAt)])
      XCTAssertEqual(
        backend.relaunch().loadAll(PersistenceRules(version: "1"), now: start), PersistenceLoad())
    }
  }

  func testTheByteBudgetEvictsTheLeastRecentlyUsedRecords() throws {
    for backend in backends() {
      let records = try ["a", "b", "c", "d"].map {
        try record([$0], String(repeating: $0, count: 100))
      }
      let size = RecordFormat.encodedSize(records[0])
      let rules = PersistenceRules(version: "1", byteBudget: 3 * size)
      let live = backend.relaunch()
      for record in records.prefix(3) { XCTAssertEqual(try live.write(record, rules: rules), []) }
      // Reading a makes b the least recently used.
      XCTAssertEqual(live.read(records[0].key, rules: rules, now: start).records, [records[0]])
      XCTAssertEqual(
        try live.write(records[3], rules: rules), [.evicted(key: records[1].key, bytes: size)],
        backend.name)
      XCTAssertEqual(
        Set(backend.relaunch().loadAll(rules, now: start).records.map(\.key.identity)),
        ["s1:a", "s1:c", "s1:d"])

      // A smaller budget at the next launch evicts down to it, oldest first (c, then a).
      let smaller = PersistenceRules(version: "1", byteBudget: size)
      let load = backend.relaunch().loadAll(smaller, now: start)
      XCTAssertEqual(load.records, [records[3]], backend.name)
      XCTAssertEqual(
        load.events,
        [.evicted(key: records[2].key, bytes: size), .evicted(key: records[0].key, bytes: size)],
        backend.name)

      // A record larger than the whole budget is not kept.
      let huge = try record(["huge"], String(repeating: "h", count: 1_000))
      let events = try backend.relaunch().write(huge, rules: smaller)
      XCTAssertEqual(
        events,
        [
          .evicted(key: records[3].key, bytes: size),
          .evicted(key: huge.key, bytes: RecordFormat.encodedSize(huge)),
        ],
        backend.name)
    }
  }

  func testALaunchHandsTheTemporariesSweepToTheWriterOnlyWhenTmpHoldsATemporary() throws {
    // The look a store's launch makes on the main actor before handing the sweep to its
    // writer: `tmp` with nothing but lock files is swept at once.
    let directory = temporaryDirectory("sweep")
    XCTAssertFalse(DirectoryPersistence(directory).sweepIfOnlyLockFiles(), "no folder yet")
    let tmp = directory.appending(path: "tmp", directoryHint: .isDirectory)
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    XCTAssertTrue(DirectoryPersistence(directory).sweepIfOnlyLockFiles(), "an empty tmp")
    let temporary = "0123-4567~x.loadable~1"
    try Data("half a record".utf8).write(to: tmp.appending(path: temporary))
    try Data().write(to: tmp.appending(path: "0123-4567.lock"))
    XCTAssertFalse(DirectoryPersistence(directory).sweepIfOnlyLockFiles(), "a temporary in tmp")
    XCTAssertEqual(
      Set(try FileManager.default.contentsOfDirectory(atPath: tmp.path)),
      [temporary, "0123-4567.lock"], "the look touched a file")
    XCTAssertEqual(
      DirectoryPersistence(directory).removeTemporaries(),
      [.removedTemporary(file: "tmp/" + temporary)])
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), [])
    XCTAssertTrue(DirectoryPersistence(directory).sweepIfOnlyLockFiles(), "tmp swept")
  }

  @MainActor
  func testALaunchRemovesADeadWritersLockFileAtOnceWithoutTheWriter() async throws {
    // A launch that wrote, then was killed: its lock file stays in `tmp`, held by nobody.
    let directory = temporaryDirectory("sweep")
    let rules = PersistenceRules(version: "1")
    try DirectoryPersistence(directory).write(try record(["a"], "saved"), rules: rules)
    let tmp = directory.appending(path: "tmp", directoryHint: .isDirectory)
    let left = try FileManager.default.contentsOfDirectory(atPath: tmp.path)
    XCTAssertEqual(left.count, 1, "the writer left no lock file: \(left)")
    XCTAssertTrue(left.allSatisfy { $0.hasSuffix(".lock") }, "\(left)")

    let store = LoaderStore(persistence: .directory(directory, version: "1"))
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: tmp.path), [],
      "the dead writer's lock file was not removed by the launch itself")
    XCTAssertEqual(store.persister?.writer.hasQueue, false, "the launch handed the writer work")
    await store.flushPersistence()
    XCTAssertEqual(store.recentPersistenceEvents, [])
  }

  @MainActor
  func testALaunchLeavesALiveWritersLockFileAndItsWritesAlone() async throws {
    // Another instance over the same folder (another process, as an app extension) that has
    // written, and lives: its lock file stays, and it holds its lock still.
    let directory = temporaryDirectory("sweep")
    let rules = PersistenceRules(version: "1")
    let other = DirectoryPersistence(directory)
    try other.write(try record(["a"], "first"), rules: rules)
    let tmp = directory.appending(path: "tmp", directoryHint: .isDirectory)
    let lockFiles = try FileManager.default.contentsOfDirectory(atPath: tmp.path)
    XCTAssertEqual(lockFiles.count, 1, "the writer left no lock file: \(lockFiles)")

    let store = LoaderStore(persistence: .directory(directory, version: "1"))
    XCTAssertEqual(store.persister?.writer.hasQueue, false, "the launch handed the writer work")
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: tmp.path), lockFiles,
      "the launch removed a live writer's lock file")
    let probe = FileLock(path: tmp.appending(path: lockFiles[0]).path)
    XCTAssertFalse(probe.tryLock(), "the live writer no longer holds its lock")
    XCTAssertEqual(try other.write(try record(["a"], "second"), rules: rules), [])
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: tmp.path), lockFiles,
      "the live writer's next write made another lock file")
    XCTAssertEqual(
      texts(DirectoryPersistence(directory).loadAll(rules, now: start)), ["s1:a": "second"])
    await store.flushPersistence()
    XCTAssertEqual(store.recentPersistenceEvents, [])
    withExtendedLifetime(other) {}
  }

  @MainActor
  func testALaunchStillRemovesAndReportsADeadWritersTemporariesOnTheWriter() async throws {
    // A write killed before its rename: its temporary and its writer's lock file, held by
    // nobody; beside them, a live writer's write in flight, which stays.
    let directory = temporaryDirectory("sweep")
    let rules = PersistenceRules(version: "1")
    let live = DirectoryPersistence(directory)
    try live.write(try record(["a"], "saved"), rules: rules)
    let tmp = directory.appending(path: "tmp", directoryHint: .isDirectory)
    let liveLock = try XCTUnwrap(
      try FileManager.default.contentsOfDirectory(atPath: tmp.path).first)
    let inFlight = String(liveLock.dropLast(".lock".count)) + "~x.loadable~1"
    let dead = "0123-4567~y.loadable~2"
    for name in [inFlight, dead, "0123-4567.lock"] {
      try Data("half a record".utf8).write(to: tmp.appending(path: name))
    }

    let store = LoaderStore(persistence: .directory(directory, version: "1"))
    XCTAssertEqual(store.persister?.writer.hasQueue, true, "the sweep was not handed over")
    await store.flushPersistence()
    XCTAssertEqual(store.recentPersistenceEvents, [.removedTemporary(file: "tmp/" + dead)])
    XCTAssertEqual(
      Set(try FileManager.default.contentsOfDirectory(atPath: tmp.path)), [liveLock, inFlight],
      "the dead writer's files stayed, or the live writer's went")
    withExtendedLifetime(live) {}
  }

  func testTheDirectoryBackendKeepsRecencyAcrossARelaunch() throws {
    let directory = temporaryDirectory()
    let records = try ["a", "b", "c"].map { try record([$0], $0) }
    let size = RecordFormat.encodedSize(records[0])
    let rules = PersistenceRules(version: "1", byteBudget: 3 * size)
    let first = DirectoryPersistence(directory)
    for record in records { try first.write(record, rules: rules) }
    // Make the order unambiguous whatever the file system's time resolution: a, b, c were
    // written in this order; set b's and c's times back, then read a (touching it to now).
    for (name, age) in [("b", 20.0), ("c", 10.0)] {
      let path = directory.appendingPathComponent(first.fileName(for: try PersistentKey([name])))
        .path
      try FileManager.default.setAttributes(
        [.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: path)
    }
    XCTAssertEqual(first.read(records[0].key, rules: rules, now: start).records, [records[0]])

    let relaunched = DirectoryPersistence(directory)
    XCTAssertEqual(relaunched.loadAll(rules, now: start).events, [])
    let events = try relaunched.write(record(["d"], "d"), rules: rules)
    XCTAssertEqual(events, [.evicted(key: records[1].key, bytes: size)])
  }

  func testAWriteBeforeTheLaunchLoadStillKeepsTheBudget() throws {
    let directory = temporaryDirectory()
    let records = try ["a", "b"].map { try record([$0], $0) }
    let size = RecordFormat.encodedSize(records[0])
    let rules = PersistenceRules(version: "1", byteBudget: 2 * size)
    for record in records { try DirectoryPersistence(directory).write(record, rules: rules) }
    let oldest = directory.appendingPathComponent(
      DirectoryPersistence(directory).fileName(for: records[0].key)
    ).path
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: oldest)

    // No loadAll: the backend learns the files' sizes and ages from the directory.
    let events = try DirectoryPersistence(directory).write(record(["c"], "c"), rules: rules)
    XCTAssertEqual(events, [.evicted(key: records[0].key, bytes: size)])
    XCTAssertEqual(
      Set(DirectoryPersistence(directory).loadAll(rules, now: start).records.map(\.key.identity)),
      ["s1:b", "s1:c"])
  }

  func testRemoveAllLeavesOtherFilesInTheDirectoryAlone() throws {
    let directory = temporaryDirectory()
    let backend = DirectoryPersistence(directory)
    try backend.write(record(["a"], "a"), rules: PersistenceRules(version: "1"))
    let other = directory.appendingPathComponent("settings.json")
    try Data("{}".utf8).write(to: other)
    XCTAssertEqual(backend.loadAll(PersistenceRules(version: "1"), now: start).records.count, 1)
    try backend.removeAll()
    // The `tmp` folder stays: it holds the lock file of this backend's temporaries.
    XCTAssertEqual(
      Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)),
      ["settings.json", DirectoryPersistence.temporaryFolder])
  }

  func testAWriteAfterTheDirectoryWasRemovedMakesItAgain() throws {
    // The backend makes its folders at its first write and remembers it: a folder removed
    // behind its back (by hand, by the system) is made again by the next write, which
    // neither fails nor loses the record.
    let rules = PersistenceRules(version: "1")
    let directory = temporaryDirectory()
    let backend = DirectoryPersistence(directory)
    try backend.write(record(["a"], "first"), rules: rules)
    try FileManager.default.removeItem(at: directory)
    XCTAssertEqual(try backend.write(record(["a"], "second"), rules: rules), [])
    try backend.write(record(["b"], "b"), rules: rules)
    let load = DirectoryPersistence(directory).loadAll(rules, now: start)
    XCTAssertEqual(load.events, [])
    XCTAssertEqual(texts(load), ["s1:a": "second", "s1:b": "b"])
  }

  func testConcurrentCallsFromManyThreadsKeepEveryRecordWhole() throws {
    for backend in backends() {
      let shared = backend.relaunch()
      let rules = PersistenceRules(version: "1", byteBudget: 20 * 1_200)
      let keys = try (0..<8).map { try PersistentKey(["key", $0]) }
      let start = start
      DispatchQueue.concurrentPerform(iterations: 8) { worker in
        for round in 0..<40 {
          let key = keys[(worker + round) % keys.count]
          let text = "\(key.identity) \(round) " + String(repeating: "x", count: 1_000)
          if round % 3 == 0 {
            _ = shared.read(key, rules: rules, now: start)
          } else {
            let saved = PersistedRecord(
              key: key, value: Data(text.utf8), savedAt: start, version: "1")
            do { try shared.write(saved, rules: rules) } catch { XCTFail("\(error)") }
          }
        }
      }
      let load = backend.relaunch().loadAll(rules, now: start)
      XCTAssertEqual(load.events, [], backend.name)
      XCTAssertEqual(load.records.count, keys.count, backend.name)
      for record in load.records {
        XCTAssertTrue(
          String(decoding: record.value, as: UTF8.self).hasPrefix(record.key.identity + " "))
      }
    }
  }

  func testRecencyIndexEvictsOldestFirstAndTheNewestOnlyWhenItAloneIsTooLarge() {
    var index = RecencyBook()
    index.use("a", bytes: 10, key: nil)
    index.use("b", bytes: 10, key: nil)
    index.use("a", bytes: 10, key: nil)
    XCTAssertEqual(index.totalBytes, 20)
    XCTAssertEqual(index.victims(budget: 20), [])
    XCTAssertEqual(index.victims(budget: 19), ["b"])
    XCTAssertEqual(index.victims(budget: nil), [])
    index.use("c", bytes: 50, key: nil)
    XCTAssertEqual(index.victims(budget: 40), ["b", "a", "c"])
    let previous = index.use("c", bytes: 5, key: PersistentKey(identity: "x"))
    XCTAssertNil(previous)
    XCTAssertEqual(
      index.use("c", bytes: 5, key: PersistentKey(identity: "y")), PersistentKey(identity: "x"))
    XCTAssertEqual(index.totalBytes, 25)
  }
}

import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// A store that outlives the app: entries whose value is `Codable` are saved after each
/// fetch and each committed edit, and show their saved value at once in the next launch
/// ("a relaunch" here is a second store made from the same `StorePersistence`).
@MainActor
final class PersistedStoreTests: XCTestCase {
  struct Post: Codable, Equatable, Sendable {
    var id: Int
    var title: String
  }

  /// A fixed wall-clock start, so ages are exact with a `ManualClock`.
  let launch = Date(timeIntervalSince1970: 1_800_000_000)

  private func relaunch(
    _ saved: StorePersistence, after elapsed: TimeInterval = 0, clock: ManualClock = ManualClock()
  ) -> LoaderStore {
    LoaderStore(clock: clock, persistence: saved, startDate: launch.addingTimeInterval(elapsed))
  }

  private func fetchAndSave(
    _ saved: StorePersistence, _ value: Post, key: LoadKey = ["posts", 1]
  ) async -> LoaderStore {
    let store = relaunch(saved)
    let entry = store.loader(for: key) { value }
    await entry.load()
    await store.flushPersistence()
    return store
  }

  // MARK: - At launch

  func testARelaunchedStoreShowsTheSavedValueAtOnceWithItsFetchTime() async {
    let saved = StorePersistence.inMemory(version: "1")
    _ = await fetchAndSave(saved, Post(id: 1, title: "Hello"))

    let store = relaunch(saved, after: 3_600)
    let entry = store.loader(for: ["posts", 1]) { Post(id: 1, title: "fresh") }
    XCTAssertEqual(
      entry.state, .loaded(Post(id: 1, title: "Hello")), "the saved value is not shown")
    XCTAssertEqual(entry.fetchedAt, launch, "fetchedAt is not the first launch's fetch time")
    XCTAssertFalse(entry.isRunning, "making the entry fetched")
  }

  func testADirectoryKeepsValuesAcrossARelaunch() async throws {
    let directory = temporaryDirectory("store")
    let saved = StorePersistence.directory(directory, version: "1")
    _ = await fetchAndSave(saved, Post(id: 7, title: "On disk"), key: ["posts", 7, "détail/../x"])

    // A new value of StorePersistence over the same directory: a new process would make one.
    let store = relaunch(StorePersistence.directory(directory, version: "1"), after: 10)
    let entry = store.loader(for: ["posts", 7, "détail/../x"]) { Post(id: 7, title: "x") }
    XCTAssertEqual(entry.state, .loaded(Post(id: 7, title: "On disk")))
    XCTAssertEqual(store.recentPersistenceEvents, [])
  }

  func testAValueOlderThanItsStaleTimeIsStaleAndRefreshesSilently() async {
    let saved = StorePersistence.inMemory(version: "1")
    _ = await fetchAndSave(saved, Post(id: 1, title: "old"))

    let store = relaunch(saved, after: 600)
    let gate = Gate<Post>()
    let entry = store.loader(for: ["posts", 1], staleTime: .seconds(300)) { try await gate.pass() }
    XCTAssertTrue(entry.isStale, "a value ten minutes old with a five-minute stale time is fresh")
    let load = Task { await entry.load() }
    await gate.arrival()
    XCTAssertEqual(entry.state, .loaded(Post(id: 1, title: "old")), "the refresh hid the value")
    gate.open(Post(id: 1, title: "new"))
    let final = await load.value
    XCTAssertEqual(final, .loaded(Post(id: 1, title: "new")))
    XCTAssertEqual(entry.fetchedAt, launch.addingTimeInterval(600), "fetchedAt did not move")
  }

  func testAYoungValueStaysFreshForTheRestOfItsStaleTime() async throws {
    let saved = StorePersistence.inMemory(version: "1")
    _ = await fetchAndSave(saved, Post(id: 1, title: "young"))

    let clock = ManualClock()
    let store = relaunch(saved, after: 60, clock: clock)
    let fetches = Counter()
    let entry = store.loader(for: ["posts", 1], staleTime: .seconds(300)) {
      fetches.count += 1
      return Post(id: 1, title: "refreshed")
    }
    XCTAssertFalse(entry.isStale, "a value one minute old is stale with a five-minute stale time")
    await entry.load()
    XCTAssertEqual(fetches.count, 0, "a fresh restored value was refreshed")

    // Observed, its stale timer fires when the value turns four minutes later.
    let token = entry.observe()
    try await clock.sleepers(count: 1)
    XCTAssertEqual(clock.sleeperDeadlines, [.seconds(240)], "the stale timer ignores the age")
    clock.advance(by: .seconds(240))
    await yieldUntil { entry.isStale }
    token.end()
  }

  func testAValueOlderThanMaxAgeIsDroppedNotShown() async {
    let saved = StorePersistence.inMemory(version: "1", maxAge: .seconds(3_600))
    _ = await fetchAndSave(saved, Post(id: 1, title: "ancient"))

    let store = relaunch(saved, after: 7_200)
    let entry = store.loader(for: ["posts", 1]) { Post(id: 1, title: "x") }
    XCTAssertEqual(entry.state, .absent, "a value older than maxAge was shown")
    guard case .droppedExpired? = store.recentPersistenceEvents.first else {
      return XCTFail("no droppedExpired event: \(store.recentPersistenceEvents)")
    }
  }

  func testAnotherVersionDropsEverythingSaved() async throws {
    let directory = temporaryDirectory("store")
    _ = await fetchAndSave(.directory(directory, version: "1"), Post(id: 1, title: "v1"))

    let store = relaunch(.directory(directory, version: "2"))
    let entry = store.loader(for: ["posts", 1]) { Post(id: 1, title: "x") }
    XCTAssertEqual(entry.state, .absent, "a value saved under another version was shown")
    XCTAssertEqual(
      store.recentPersistenceEvents.map { "\($0)".hasPrefix("droppedOtherVersion") }, [true])
  }

  // MARK: - What is written

  func testAFailedFetchIsNotSavedAndKeepsTheSavedValue() async {
    let saved = StorePersistence.inMemory(version: "1")
    _ = await fetchAndSave(saved, Post(id: 1, title: "good"))

    let second = relaunch(saved, after: 10)
    let entry = second.loader(for: ["posts", 1]) { () async throws -> Post in
      throw URLError(.notConnectedToInternet)
    }
    await entry.refresh()
    await second.flushPersistence()
    XCTAssertNil(entry.state.data, "the failed fetch did not show its error")

    let third = relaunch(saved, after: 20)
    XCTAssertEqual(
      shown(third),
      .loaded(Post(id: 1, title: "good")), "an error replaced the saved value")
  }

  func testAnOptimisticValueIsNotSavedUntilItsEditCommits() async throws {
    let saved = StorePersistence.inMemory(version: "1")
    let store = await fetchAndSave(saved, Post(id: 1, title: "before"))
    let entry = store.loader(for: ["posts", 1]) { Post(id: 1, title: "before") }
    let job = Gate<Void>()
    let edit = Task {
      try await store.edit {
        $0.update(entry) { $0.title = "optimistic" }
      } perform: {
        try await job.pass()
      }
    }
    await job.arrival()
    await store.flushPersistence()
    XCTAssertEqual(
      shown(relaunch(saved)),
      .loaded(Post(id: 1, title: "before")), "a pending optimistic value was saved")

    job.open(())
    try await edit.value
    await store.flushPersistence()
    XCTAssertEqual(
      shown(relaunch(saved)),
      .loaded(Post(id: 1, title: "optimistic")), "the committed value was not saved")
  }

  func testARolledBackEditIsNeverSaved() async {
    let saved = StorePersistence.inMemory(version: "1")
    let store = await fetchAndSave(saved, Post(id: 1, title: "before"))
    let entry = store.loader(for: ["posts", 1]) { Post(id: 1, title: "before") }
    _ = try? await store.edit {
      $0.update(entry) { $0.title = "failed" }
    } perform: {
      throw URLError(.badServerResponse)
    }
    await store.flushPersistence()
    XCTAssertEqual(
      shown(relaunch(saved)),
      .loaded(Post(id: 1, title: "before")))
  }

  func testResetRemovesTheSavedRecord() async {
    let saved = StorePersistence.inMemory(version: "1")
    let store = await fetchAndSave(saved, Post(id: 1, title: "gone"))
    store.loader(for: ["posts", 1]) { Post(id: 1, title: "x") }.reset()
    await store.flushPersistence()
    XCTAssertEqual(shown(relaunch(saved)), .absent)
  }

  func testRemovePersistedEntriesForgetsEverythingButKeepsMemory() async {
    let saved = StorePersistence.inMemory(version: "1")
    let store = await fetchAndSave(saved, Post(id: 1, title: "mine"))
    await store.removePersistedEntries()
    XCTAssertEqual(
      shown(store), .loaded(Post(id: 1, title: "mine")), "the entry in memory was cleared")
    XCTAssertEqual(shown(relaunch(saved)), .absent)
  }

  func testAnEntryCanOptOutAndNonCodableValuesStayInMemory() async {
    struct Opaque: Sendable { let text: String }
    let saved = StorePersistence.inMemory(version: "1")
    let store = relaunch(saved)
    await store.loader(for: ["opted-out"], persisted: false) { Post(id: 1, title: "no") }.load()
    await store.loader(for: ["opaque"]) { Opaque(text: "in memory") }.load()
    await store.flushPersistence()

    let next = relaunch(saved)
    let optedOut = next.loader(for: ["opted-out"]) { Post(id: 0, title: "") }
    XCTAssertEqual(optedOut.state, .absent)
    let opaque = next.loader(for: ["opaque"]) { Opaque(text: "") }
    XCTAssertNil(opaque.state.data)
  }

  // MARK: - Bad input and faults

  func testABadFileIsRemovedReportedAndTheEntryLoadsAsIfNeverSaved() async throws {
    let directory = temporaryDirectory("store")
    _ = await fetchAndSave(.directory(directory, version: "1"), Post(id: 1, title: "x"))
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasSuffix(".loadable") }
    XCTAssertEqual(files.count, 1)
    try Data("torn".utf8).write(to: directory.appending(path: files[0]))

    let store = relaunch(.directory(directory, version: "1"))
    var reported: [PersistenceEvent] = []
    store.onPersistenceEvent = { reported.append($0) }
    let entry = store.loader(for: ["posts", 1]) { Post(id: 1, title: "refreshed") }
    XCTAssertEqual(entry.state, .absent)
    guard case .removedUnreadable? = store.recentPersistenceEvents.first else {
      return XCTFail("the torn file was not reported: \(store.recentPersistenceEvents)")
    }
    await store.flushPersistence()
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: directory.appending(path: files[0]).path),
      "the torn file was not removed")
    let refreshed = await entry.load()
    XCTAssertEqual(refreshed, .loaded(Post(id: 1, title: "refreshed")))
    // The refreshed value is saved in its place (asynchronously: flushed before looking).
    await store.flushPersistence()
    let next = relaunch(.directory(directory, version: "1"))
    let restored = next.loader(for: ["posts", 1]) { Post(id: 1, title: "unused") }
    XCTAssertEqual(restored.state, .loaded(Post(id: 1, title: "refreshed")))
    _ = reported
  }

  func testATemporaryFileAKilledWriteLeftIsRemovedAndReportedAtLaunch() async throws {
    // What a write killed between its sync and its rename leaves: a whole file, not renamed,
    // in `tmp`, named after a writer whose process is gone (no lock file of its own holds it).
    try await assertALaunchRemoves("tmp/0123-4567~x.loadable~89", folderAsBefore: false)
  }

  func testATemporaryFileOfTheLayoutBeforeTmpIsRemovedAtTheFirstLaunchSinceIt() async throws {
    // A folder as 0.3 left it: no `tmp`, and a killed write's temporary beside the records.
    try await assertALaunchRemoves(".loadables-tmp-0123-4567-89", folderAsBefore: true)
  }

  /// Saves a value, leaves the temporary file `leftover`, relaunches, and checks the launch
  /// removed and reported it and kept the record.
  private func assertALaunchRemoves(
    _ leftover: String, folderAsBefore: Bool, file: StaticString = #filePath, line: UInt = #line
  ) async throws {
    let directory = temporaryDirectory("store")
    _ = await fetchAndSave(.directory(directory, version: "1"), Post(id: 1, title: "kept"))
    if folderAsBefore { try FileManager.default.removeItem(at: directory.appending(path: "tmp")) }
    try Data("half a record".utf8).write(to: directory.appending(path: leftover))

    let store = relaunch(.directory(directory, version: "1"))
    await store.flushPersistence()
    XCTAssertEqual(
      store.recentPersistenceEvents, [.removedTemporary(file: leftover)], file: file, line: line)
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: directory.appending(path: leftover).path),
      "the temporary file stayed", file: file, line: line)
    XCTAssertEqual(
      shown(store), .loaded(Post(id: 1, title: "kept")), "the record went too", file: file,
      line: line)
  }

  func testAValueThatNoLongerDecodesIsRemovedAndReported() async {
    struct PostV2: Codable, Equatable, Sendable {
      var id: Int
      var body: String
    }
    let saved = StorePersistence.inMemory(version: "1")
    _ = await fetchAndSave(saved, Post(id: 1, title: "v1 shape"))

    let store = relaunch(saved)
    let entry = store.loader(for: ["posts", 1]) { PostV2(id: 1, body: "b") }
    XCTAssertEqual(entry.state, .absent)
    guard case .undecodable? = store.recentPersistenceEvents.first else {
      return XCTFail("no undecodable event: \(store.recentPersistenceEvents)")
    }
  }

  func testAnUnwritableDirectoryIsReportedAndTheStoreWorksInMemory() async throws {
    // A file where the directory should be: no user, root included, can write under it.
    let parent = temporaryDirectory("store")
    try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
    let directory = parent.appending(path: "store")
    try Data("not a directory".utf8).write(to: directory)
    let store = relaunch(.directory(directory, version: "1"))
    let entry = store.loader(for: ["posts", 1]) { Post(id: 1, title: "memory") }
    let loaded = await entry.load()
    XCTAssertEqual(loaded, .loaded(Post(id: 1, title: "memory")))
    await store.flushPersistence()
    guard case .writeFailed(_, .unwritableDirectory)? = store.recentPersistenceEvents.first else {
      return XCTFail("the failed write was not reported: \(store.recentPersistenceEvents)")
    }
    let edited = try await store.edit {
      $0.update(entry) { $0.title = "still works" }
    } perform: {
      1
    }
    XCTAssertEqual(edited, 1)
    XCTAssertEqual(entry.state, .loaded(Post(id: 1, title: "still works")))
  }

  func testAKeyThatCannotBeSavedIsReportedAndWorksInMemory() async {
    struct Local: Hashable, Sendable {}
    let store = relaunch(.inMemory(version: "1"))
    let entry = store.loader(for: ["posts", Local()]) { Post(id: 1, title: "memory") }
    let loaded = await entry.load()
    XCTAssertEqual(loaded, .loaded(Post(id: 1, title: "memory")))
    guard case .keyNotPersistable? = store.recentPersistenceEvents.first else {
      return XCTFail("no keyNotPersistable event: \(store.recentPersistenceEvents)")
    }
  }

  func testTheByteBudgetEvictsTheLeastRecentlyUsedEntry() async throws {
    let directory = temporaryDirectory("store")
    let saved = StorePersistence.directory(directory, version: "1", byteBudget: 400)
    let store = relaunch(saved)
    for id in 1...5 {
      await store.loader(for: ["posts", id]) {
        Post(id: id, title: String(repeating: "x", count: 60))
      }
      .load()
    }
    await store.flushPersistence()
    XCTAssertTrue(
      store.recentPersistenceEvents.contains { if case .evicted = $0 { true } else { false } },
      "nothing was evicted: \(store.recentPersistenceEvents)")
    let next = relaunch(.directory(directory, version: "1", byteBudget: 400))
    XCTAssertEqual(shown(next, id: 1), .absent, "the oldest stayed")
    XCTAssertNotEqual(shown(next, id: 5), .absent, "the newest went")
  }

  func testAnEntryReadBackAfterARelaunchCountsAsUsedByTheByteBudget() async throws {
    let directory = temporaryDirectory("store")
    let first = relaunch(.directory(directory, version: "1"))
    for id in 1...3 {
      await first.loader(for: ["posts", id]) { Post(id: id, title: "saved") }.load()
    }
    await first.flushPersistence()
    let sizes = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasSuffix(".loadable") }
      .map {
        try XCTUnwrap(
          (FileManager.default.attributesOfItem(atPath: directory.appending(path: $0).path)[.size]
            as? NSNumber)?.intValue)
      }
    XCTAssertEqual(sizes.count, 3, "saved files: \(sizes)")
    // Room for three records, not four.
    let budget = StorePersistence.directory(
      directory, version: "1", byteBudget: (sizes.max() ?? 0) * 7 / 2)

    // Post 1, the oldest write, is read back before this launch writes anything; post 4's
    // write then goes over the budget: the least recently used is post 2.
    let second = relaunch(budget)
    XCTAssertEqual(shown(second, id: 1), .loaded(Post(id: 1, title: "saved")))
    await second.loader(for: ["posts", 4]) { Post(id: 4, title: "saved") }.load()
    await second.flushPersistence()

    let third = relaunch(budget)
    XCTAssertEqual(shown(third, id: 1), .loaded(Post(id: 1, title: "saved")), "the read one went")
    XCTAssertEqual(shown(third, id: 2), .absent, "the least recently used stayed")
    XCTAssertEqual(shown(third, id: 4), .loaded(Post(id: 4, title: "saved")))
  }

  // MARK: - Helpers

  /// What the entry of post `id` shows as it is made in `store`.
  private func shown(_ store: LoaderStore, id: Int = 1) -> LoadableState<Post> {
    store.loader(for: ["posts", id]) { Post(id: id, title: "fetched") }.state
  }

}

@MainActor
private final class Counter {
  var count = 0
}

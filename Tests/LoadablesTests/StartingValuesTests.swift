import Foundation
import Loadables
import LoadablesTesting
import Observation
import XCTest

/// Entries that start from a value the app already has, placeholders shown until the first
/// fetch lands, and edits that say when there was nothing to update.
@MainActor
final class StartingValuesTests: XCTestCase {
  struct Note: Codable, Equatable, Sendable {
    var id: Int
    var title: String
  }

  let launch = Date(timeIntervalSinceReferenceDate: 800_000_000)

  // MARK: - Starting values

  func testAStartingValueWithoutAFetchTimeShowsAtOnceAndIsRefreshedSilently() async {
    let store = LoaderStore(clock: ManualClock(), startDate: launch)
    let gate = Gate<Note>()
    let note = store.loader(for: ["notes", 1], staleTime: .seconds(60)) { try await gate.pass() }
    XCTAssertTrue(note.start(with: Note(id: 1, title: "from the row")))
    XCTAssertEqual(note.state, .loaded(Note(id: 1, title: "from the row")))
    XCTAssertTrue(note.isStale, "a starting value without a fetch time is fresh")
    XCTAssertFalse(note.isPlaceholder)
    XCTAssertNil(note.fetchedAt)
    let load = Task { await note.load() }
    await gate.arrival()
    XCTAssertEqual(
      note.state, .loaded(Note(id: 1, title: "from the row")), "the refresh was not silent")
    gate.open(Note(id: 1, title: "fetched"))
    let state = await load.value
    XCTAssertEqual(state, .loaded(Note(id: 1, title: "fetched")))
    XCTAssertNotNil(note.fetchedAt)
  }

  func testAStartingValueWithAFetchTimeIsAsFreshAsItsAge() async {
    let clock = ManualClock()
    let store = LoaderStore(clock: clock, startDate: launch)
    var fetches = 0
    let note = store.loader(for: ["notes", 1], staleTime: .seconds(60)) {
      fetches += 1
      return Note(id: 1, title: "fetched")
    }
    let fetchedAt = launch.addingTimeInterval(-10)
    XCTAssertTrue(note.start(with: Note(id: 1, title: "row"), fetchedAt: fetchedAt))
    XCTAssertFalse(note.isStale)
    XCTAssertEqual(note.fetchedAt, fetchedAt)
    await note.load()
    XCTAssertEqual(fetches, 0, "a fresh starting value was fetched again")
    clock.advance(by: .seconds(50))
    XCTAssertTrue(note.isStale, "10 s old at the start, 60 s old now")
    await note.load()
    XCTAssertEqual(fetches, 1)
    XCTAssertEqual(note.state, .loaded(Note(id: 1, title: "fetched")))
  }

  func testAStartingValueDatedInTheFutureOrNotFiniteIsNeverFresherThanNow() {
    let clock = ManualClock()
    let store = LoaderStore(clock: clock, startDate: launch)
    let future = store.loader(for: ["future"], staleTime: .seconds(60)) { 1 }
    future.start(with: 0, fetchedAt: launch.addingTimeInterval(3600))
    XCTAssertEqual(future.fetchedAt, launch, "a future fetch time was kept")
    clock.advance(by: .seconds(60))
    XCTAssertTrue(future.isStale)
    let broken = store.loader(for: ["broken"], staleTime: .seconds(60)) { 1 }
    XCTAssertTrue(broken.start(with: 0, fetchedAt: Date(timeIntervalSinceReferenceDate: .nan)))
    XCTAssertTrue(broken.isStale, "a date that is not finite counts as long ago")
    XCTAssertNil(broken.fetchedAt)
  }

  func testAStartingValueNeverReplacesAValueOrARunningFetch() async {
    let store = LoaderStore()
    let gate = Gate<Int>()
    let number = store.loader(for: ["n"]) { try await gate.pass() }
    let load = Task { await number.load() }
    await gate.arrival()
    XCTAssertFalse(number.start(with: 7), "a running fetch's newer answer was overtaken")
    XCTAssertFalse(number.showPlaceholder(7))
    XCTAssertEqual(number.state, .loading)
    gate.open(1)
    _ = await load.value
    XCTAssertFalse(number.start(with: 7))
    XCTAssertEqual(number.state, .loaded(1))
  }

  // MARK: - Placeholders

  func testAPlaceholderShowsFlaggedUntilTheFetchLands() async throws {
    let store = LoaderStore()
    let gate = Gate<Note>()
    let note = store.loader(for: ["notes", 2]) { try await gate.pass() }
    let flag = ObservationRecorder { note.isPlaceholder }
    XCTAssertTrue(note.showPlaceholder(Note(id: 2, title: "row")))
    XCTAssertEqual(flag.values, [false, true], "isPlaceholder is not observable")
    XCTAssertTrue(note.isPlaceholder)
    XCTAssertEqual(note.state, .loaded(Note(id: 2, title: "row")))
    XCTAssertTrue(note.isStale)
    XCTAssertNil(note.fetchedAt)
    let load = Task { await note.load() }
    await gate.arrival()
    XCTAssertTrue(note.isPlaceholder, "the placeholder went while the fetch ran")
    XCTAssertEqual(note.state, .loaded(Note(id: 2, title: "row")))
    gate.open(Note(id: 2, title: "real"))
    _ = await load.value
    XCTAssertFalse(note.isPlaceholder)
    XCTAssertEqual(flag.values, [false, true, false])
    XCTAssertEqual(note.state, .loaded(Note(id: 2, title: "real")))
  }

  func testAFailedFetchOverAPlaceholderShowsTheError() async {
    let store = LoaderStore()
    let note = store.loader(for: ["notes", 3]) { () async throws -> Note in
      throw TestError(code: 3)
    }
    note.showPlaceholder(Note(id: 3, title: "row"))
    let state = await note.load()
    XCTAssertFalse(note.isPlaceholder, "a placeholder outlived the fetch that failed")
    guard case .error(let error as TestError) = state else {
      return XCTFail("expected the fetch's error over the placeholder, got \(state)")
    }
    XCTAssertEqual(error, TestError(code: 3))
  }

  func testAPlaceholderIsNeverSavedEvenWithACommittedEditOverIt() async throws {
    let saved = StorePersistence.inMemory(version: "1")
    let store = LoaderStore(persistence: saved, startDate: launch)
    let gate = Gate<Note>()
    let note = store.loader(for: ["notes", 4]) { try await gate.pass() }
    note.showPlaceholder(Note(id: 4, title: "row"))
    try await store.edit {
      XCTAssertEqual($0.update(note) { $0.title = "renamed" }, .updated)
    } perform: {
    }
    XCTAssertEqual(note.state, .loaded(Note(id: 4, title: "renamed")))
    await store.flushPersistence()
    let relaunched = LoaderStore(persistence: saved, startDate: launch)
    let restored = relaunched.loader(for: ["notes", 4]) { Note(id: 4, title: "unused") }
    XCTAssertEqual(restored.state, .absent, "a placeholder was saved as the entry's value")
  }

  struct NoteQuery: LoadDefinition {
    let id: Int
    var key: LoadKey { ["notes", id] }
    func fetch() async throws -> Note { Note(id: id, title: "fetched") }
    func placeholder(in store: LoaderStore) -> Note? {
      store.existingLoader(for: ["notes"], as: [Note].self)?.state.data?.first { $0.id == id }
    }
  }

  struct BrokenQuery: LoadDefinition {
    var key: LoadKey { ["broken"] }
    func fetch() async throws -> Note { Note(id: 0, title: "fetched") }
    func placeholder(in store: LoaderStore) throws -> Note? { throw TestError(code: 9) }
  }

  func testADefinitionsPlaceholderComesFromTheListTheStoreHolds() async {
    let store = LoaderStore()
    let list = store.loader(for: ["notes"]) { [Note(id: 5, title: "in the list")] }
    await list.load()
    let detail = store.loader(for: NoteQuery(id: 5))
    XCTAssertTrue(detail.isPlaceholder)
    XCTAssertEqual(detail.state, .loaded(Note(id: 5, title: "in the list")))
    let unknown = store.loader(for: NoteQuery(id: 6))
    XCTAssertFalse(unknown.isPlaceholder)
    XCTAssertEqual(unknown.state, .absent)
    await detail.load()
    XCTAssertFalse(detail.isPlaceholder)
    XCTAssertEqual(detail.state, .loaded(Note(id: 5, title: "fetched")))
  }

  func testAPlaceholderThatThrowsIsReportedAndNoneIsShown() async {
    let store = LoaderStore()
    let entry = store.loader(for: BrokenQuery())
    XCTAssertEqual(entry.state, .absent)
    XCTAssertFalse(entry.isPlaceholder)
    XCTAssertEqual(
      store.recentDiagnostics.map(\.description),
      [
        #"LoaderStore.loader(for: ["broken"]): the definition's placeholder threw "#
          + "TestError(code: 9); no placeholder is shown"
      ])
    let state = await entry.load()
    XCTAssertEqual(state, .loaded(Note(id: 0, title: "fetched")))
  }

  // MARK: - Updates that change nothing

  func testAnUpdateOfAnEntryWithNoValueSaysSoAndChangesNothing() async throws {
    let store = LoaderStore()
    let empty = store.loader(for: ["notes", 7]) { Note(id: 7, title: "fetched") }
    let loaded = store.loader(for: ["notes", 8]) { Note(id: 8, title: "fetched") }
    await loaded.load()
    var results: [SharedEdit.UpdateResult] = []
    var matched = -1
    try await store.edit { edit in
      results.append(edit.update(empty) { $0.title = "renamed" })
      results.append(edit.update(loaded) { $0.title = "renamed" })
      matched = edit.update(matching: ["notes"], in: store, as: Note.self) { $0.id += 100 }
    } perform: {
    }
    XCTAssertEqual(results, [.noValue, .updated])
    XCTAssertEqual(matched, 1, "the entry with no value was counted")
    XCTAssertEqual(empty.state, .absent)
    XCTAssertEqual(loaded.state, .loaded(Note(id: 108, title: "renamed")))
  }
}

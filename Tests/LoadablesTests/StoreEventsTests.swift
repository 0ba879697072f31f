import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// The store's and the edits' events, through the public API: what a store does with its
/// entries (made, invalidated, evicted, trimmed, restored, discarded, removed, reset) and
/// what happens to edits (applied, committed, rolled back, queued, sent, failed). The stream
/// is process-wide, so each test records only the events of its own keys.
@MainActor
final class StoreEventsTests: XCTestCase {
  struct Boom: Error, Equatable {}

  struct Note: Codable, Equatable, Sendable {
    var text: String
  }

  /// An entry described once, for the event that names its definition.
  struct NoteQuery: LoadDefinition {
    var key: LoadKey { ["storeEvents", "definition"] }
    func fetch() async throws -> Note { Note(text: "defined") }
  }

  /// An outbox edit on a key of this file's own, so no other test's events mix in.
  struct RenameNote: OutboxEdit {
    static let name = "StoreEventsTests.RenameNote"
    var tag: String
    var text: String

    var scope: LoadKey { ["storeEvents", tag] }

    func applyOptimistically(to edit: inout SharedEdit, in store: LoaderStore) {
      edit.update(matching: scope, in: store, as: Note.self) { $0.text = text }
    }
  }

  /// A fixed wall-clock start, so saved ages are exact with a `ManualClock`.
  let launch = Date(timeIntervalSince1970: 1_800_000_000)

  private func details(_ events: LoadEventRecorder, _ kind: LoadEventKind) -> [String?] {
    events.events.filter { $0.kind == kind }.map(\.detail)
  }

  // MARK: - Entries

  func testMakingAnEntryReportsItsKindAndItsDefinition() {
    let store = LoaderStore()
    let value = LoadEventRecorder(key: ["storeEvents", "value"])
    let paged = LoadEventRecorder(key: ["storeEvents", "paged"])
    let defined = LoadEventRecorder(key: ["storeEvents", "definition"])
    defer { for events in [value, paged, defined] { events.stop() } }

    _ = store.loader(for: ["storeEvents", "value"]) { 1 }
    _ = store.loader(for: ["storeEvents", "value"]) { 2 }  // the same entry: not made again
    _ = store.pagedLoader(
      for: ["storeEvents", "paged"], source: PagedSource(first: 1) { notePage($0) })
    _ = store.loader(for: NoteQuery())

    XCTAssertEqual(value.kinds, [.entryMade])
    XCTAssertEqual(value.events.first?.detail, "value")
    XCTAssertEqual(value.events.first?.subject, .entry(["storeEvents", "value"]))
    XCTAssertEqual(paged.events.map(\.detail), ["paged"])
    XCTAssertEqual(defined.events.map(\.detail), ["value, defined by NoteQuery"])
  }

  func testAnInvalidationSaysWhatInvalidated() async throws {
    let store = LoaderStore()
    let key: LoadKey = ["storeEvents", "invalidated"]
    let events = LoadEventRecorder(key: key)
    defer { events.stop() }
    let (signals, signal) = AsyncStream.makeStream(of: Void.self)
    let entry = store.loader(for: key, refreshing: [.signals { signals }]) { Note(text: "a") }
    await entry.load()

    store.invalidate(["storeEvents"])
    store.invalidateAll()
    try await store.edit(invalidating: [key]) { _ in
    } perform: {
    }
    let token = entry.observe()
    signal.yield()
    try await events.wait(for: .entryInvalidated, count: 4)
    token.end()

    let reasons = details(events, .entryInvalidated)
    XCTAssertEqual(reasons.count, 4, "\(reasons)")
    XCTAssertEqual(reasons[0], #"by invalidate(["storeEvents"])"#)
    XCTAssertEqual(reasons[1], "by invalidateAll()")
    XCTAssertTrue(
      reasons[2]?.hasPrefix("by edit ") == true && reasons[2]?.hasSuffix(", committed") == true,
      "\(reasons)")
    XCTAssertEqual(reasons[3], "by refresh trigger signals")
  }

  func testAnEntryEvictedSaysWhy() async throws {
    let clock = ManualClock()
    let store = LoaderStore(graceTime: .seconds(30), maxEntries: 2, clock: clock)
    let graced: LoadKey = ["storeEvents", "graced"]
    let trimmed: LoadKey = ["storeEvents", "trimmedAway"]
    let oldest: LoadKey = ["storeEvents", "oldest"]
    let events = LoadEventRecorder { [graced, trimmed, oldest].contains($0.subject.key) }
    defer { events.stop() }

    // Past maxEntries, the least recently used goes.
    _ = store.loader(for: oldest) { 1 }
    _ = store.loader(for: ["storeEvents", "kept"]) { 2 }
    _ = store.loader(for: ["storeEvents", "newest"]) { 3 }
    XCTAssertEqual(events.events.last?.kind, .entryEvicted)
    XCTAssertEqual(events.events.last?.subject.key, oldest)
    XCTAssertEqual(events.events.last?.detail, "over maxEntries, least recently used")

    // Memory pressure: trim drops every unobserved entry.
    _ = store.loader(for: trimmed) { 4 }
    store.trim()
    XCTAssertEqual(
      events.events.filter { $0.subject.key == trimmed }.map(\.kind), [.entryMade, .entryEvicted])
    XCTAssertEqual(events.events.last?.detail, "memory pressure (trim)")

    // The grace time.
    let entry = store.loader(for: graced) { 5 }
    await entry.load()
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(30))
    try await events.wait(for: .entryEvicted, count: 3)
    XCTAssertEqual(events.events.last?.subject.key, graced)
    XCTAssertEqual(events.events.last?.detail, "grace time ran out")
  }

  func testAPagedEntryThatDropsPagesToKeepWithinMaxPagesIsTrimmed() async {
    let store = LoaderStore()
    let key: LoadKey = ["storeEvents", "pages"]
    let events = LoadEventRecorder(key: key)
    defer { events.stop() }
    let feed = store.pagedLoader(
      for: key, maxPages: 2, source: PagedSource(first: 1) { notePage($0) })
    await feed.load()
    await feed.loadNextPage()
    XCTAssertFalse(events.kinds.contains(.entryTrimmed), "two pages are within maxPages")
    await feed.loadNextPage()
    XCTAssertEqual(feed.state.droppedPageCount, 1)
    XCTAssertEqual(details(events, .entryTrimmed), ["dropped 1 page to keep within maxPages"])

    // Paging back fetches the dropped first page again and drops the last one instead.
    await feed.loadPreviousPage()
    XCTAssertEqual(feed.state.droppedPageCount, 0)
    XCTAssertEqual(feed.state.droppedTrailingPageCount, 1)
    XCTAssertEqual(
      details(events, .entryTrimmed),
      ["dropped 1 page to keep within maxPages", "dropped 1 page to keep within maxPages"],
      "a page dropped at the other end is a trim too")
  }

  func testARestoredValueAndTheSavedRecordsDroppedAreReported() async {
    let saved = StorePersistence.inMemory(version: "1", maxAge: .seconds(3_600))
    let fresh: LoadKey = ["storeEvents", "restored"]
    let old: LoadKey = ["storeEvents", "expired"]
    let changed: LoadKey = ["storeEvents", "reshaped"]
    let first = LoaderStore(clock: ManualClock(), persistence: saved, startDate: launch)
    await first.loader(for: old) { Note(text: "old") }.load()
    await first.flushPersistence()
    let second = LoaderStore(
      clock: ManualClock(), persistence: saved, startDate: launch.addingTimeInterval(1_800))
    for key in [fresh, changed] { await second.loader(for: key) { Note(text: "saved") }.load() }
    await second.flushPersistence()

    let events = LoadEventRecorder { [fresh, old, changed].contains($0.subject.key) }
    defer { events.stop() }
    let relaunched = LoaderStore(
      clock: ManualClock(), persistence: saved, startDate: launch.addingTimeInterval(3_700))
    let restored = relaunched.loader(for: fresh) { Note(text: "x") }
    _ = relaunched.loader(for: old) { Note(text: "x") }
    _ = relaunched.loader(for: changed) { 42 }  // the saved note no longer decodes as an Int

    XCTAssertEqual(restored.state, .loaded(Note(text: "saved")))
    let restoredEvents = events.events.filter { $0.kind == .entryRestored }
    XCTAssertEqual(restoredEvents.map(\.subject.key), [fresh])
    XCTAssertEqual(restoredEvents.first?.detail, "fetched 1900.00 s before")
    let discarded = events.events.filter { $0.kind == .entryDiscarded }
    XCTAssertEqual(discarded.map(\.subject.key), [old, changed])
    XCTAssertTrue(discarded.first?.detail?.hasPrefix("older than maxAge") == true)
    XCTAssertTrue(discarded.last?.detail?.hasPrefix("does not decode") == true)
    XCTAssertEqual(
      events.events.filter { $0.subject.key == fresh }.map(\.kind),
      [.entryMade, .entryRestored], "restored before it was made")
  }

  func testRemovingAndResettingAPrefixReportEachEntry() async {
    let store = LoaderStore()
    let removed: LoadKey = ["storeEvents", "removed", 1]
    let reset: LoadKey = ["storeEvents", "reset", 1]
    let events = LoadEventRecorder { [removed, reset].contains($0.subject.key) }
    defer { events.stop() }
    await store.loader(for: removed) { 1 }.load()
    let kept = store.loader(for: reset) { 2 }
    await kept.load()

    store.remove(["storeEvents", "removed"])
    store.reset(["storeEvents", "reset"])

    let ends = events.events.filter { $0.kind == .entryRemoved || $0.kind == .entryReset }
    XCTAssertEqual(ends.map(\.kind), [.entryRemoved, .entryReset])
    XCTAssertEqual(ends.map(\.subject.key), [removed, reset])
    XCTAssertEqual(
      ends.map(\.detail),
      [#"by remove(["storeEvents", "removed"])"#, #"by reset(["storeEvents", "reset"])"#])
    XCTAssertEqual(kept.state, .absent)
  }

  // MARK: - Edits

  func testAnEditIsAppliedThenCommittedOrRolledBackWithItsError() async throws {
    let store = LoaderStore()
    let key: LoadKey = ["storeEvents", "edited"]
    let events = LoadEventRecorder(subject: .entry(key, form: .edit))
    defer { events.stop() }
    let note = store.loader(for: key) { Note(text: "server") }
    await note.load()

    try await store.edit {
      $0.update(note) { $0.text = "mine" }
    } perform: {
    }
    XCTAssertEqual(events.kinds, [.editApplied, .editCommitted])
    do {
      try await store.edit {
        $0.set(note, to: Note(text: "again"))
      } perform: {
        throw Boom()
      }
      XCTFail("the job's error was not thrown")
    } catch {}
    XCTAssertEqual(
      events.kinds, [.editApplied, .editCommitted, .editApplied, .editRolledBack])
    XCTAssertEqual(events.events.last?.error as? Boom, Boom())
    XCTAssertTrue(events.events[2].detail?.hasSuffix(", set") == true, "\(events.events)")
    XCTAssertTrue(events.events[0].detail?.hasSuffix(", update") == true, "\(events.events)")
    XCTAssertEqual(note.state, .loaded(Note(text: "mine")))
  }

  func testAnOutboxEditIsQueuedSentAndFailsForGood() async throws {
    let store = LoaderStore()
    let key: LoadKey = ["storeEvents", "outbox"]
    let events = LoadEventRecorder(key: key)
    defer { events.stop() }
    let note = store.loader(for: key) { Note(text: "server") }
    await note.load()
    store.register(RenameNote.self) { _, _ in throw OutboxFailure.permanent(Boom()) }

    let id = store.edit(RenameNote(tag: "outbox", text: "mine")).id
    try await events.wait(for: .editFailed)

    let edits = events.events.filter { $0.subject.form == .edit }
    XCTAssertEqual(
      edits.map(\.kind), [.editQueued, .editApplied, .editSent, .editFailed, .editRolledBack])
    XCTAssertEqual(edits[0].detail, "StoreEventsTests.RenameNote \(id)")
    XCTAssertEqual(edits[2].attempt, 1)
    XCTAssertEqual(edits[3].error as? Boom, Boom())
    XCTAssertEqual(edits[4].error as? Boom, Boom())
    XCTAssertEqual(note.state, .loaded(Note(text: "server")))
  }

  func testASentOutboxEditCommitsItsChangeAndInvalidatesWhatItSays() async throws {
    let store = LoaderStore()
    let key: LoadKey = ["storeEvents", "outboxSent"]
    let events = LoadEventRecorder(key: key)
    defer { events.stop() }
    let note = store.loader(for: key) { Note(text: "server") }
    await note.load()
    store.register(RenameNote.self) { _, _ in }

    store.edit(RenameNote(tag: "outboxSent", text: "mine"))
    try await events.wait(for: .editCommitted)
    await store.outbox.untilIdle()
    XCTAssertEqual(
      events.events.filter { $0.subject.form == .edit }.map(\.kind),
      [.editQueued, .editApplied, .editSent, .editCommitted])
  }

  func testAnEditRestoredAtTheNextLaunchIsQueuedAgainOnceItHasAHandler() async throws {
    let saved = StorePersistence.inMemory(version: "1")
    let key: LoadKey = ["storeEvents", "relaunched"]
    let events = LoadEventRecorder(key: key)
    defer { events.stop() }
    // The first launch queues the edit, with no handler to send it, and is killed.
    let before = LoaderStore(persistence: saved)
    let id = before.edit(RenameNote(tag: "relaunched", text: "mine")).id
    XCTAssertEqual(events.kinds.filter { $0 == .editQueued }.count, 1)

    let after = LoaderStore(persistence: saved)
    XCTAssertEqual(
      events.kinds.filter { $0 == .editQueued }.count, 1,
      "an edit not yet read back (no handler) is not queued yet")
    after.register(RenameNote.self) { _, _ in }
    try await events.wait(for: .editSent, count: 1)
    let queued = events.events.filter { $0.kind == .editQueued }
    XCTAssertEqual(queued.count, 2)
    XCTAssertEqual(
      queued.last?.detail, "StoreEventsTests.RenameNote \(id), restored from an earlier launch")
    await after.outbox.untilIdle()
    _ = before
  }

  // MARK: - A story

  func testAnEntrysStoryReadsAsLines() async throws {
    // Durations are measured on the load clock in force when a load starts: a manual one
    // that never moves makes them exact.
    let clock = ManualClock()
    let store = LoaderStore(clock: clock)
    let key: LoadKey = ["storeEvents", "story"]
    let events = LoadEventRecorder(key: key)
    defer { events.stop() }
    try await withLoadClock(clock) {
      let entry = store.loader(for: key, policy: LoadPolicy()) { Note(text: "a") }
      let token = entry.observe()
      defer { token.end() }
      await entry.load()
      store.invalidate(key)
      try await events.wait(for: .finished, count: 2)
    }

    XCTAssertEqual(
      events.events.map(\.description),
      [
        #"entryMade entry ["storeEvents", "story"] (value)"#,
        #"started entry ["storeEvents", "story"]"#,
        #"finished entry ["storeEvents", "story"] after 0.00 s"#,
        #"entryInvalidated entry ["storeEvents", "story"] (by invalidate(["storeEvents", "story"]))"#,
        #"started entry ["storeEvents", "story"] (silent)"#,
        #"finished entry ["storeEvents", "story"] after 0.00 s (silent)"#,
      ])
  }

  // MARK: - Nobody listening

  func testNothingIsReportedToAListenerThatStopped() async {
    let store = LoaderStore()
    let key: LoadKey = ["storeEvents", "stopped"]
    let events = LoadEventRecorder(key: key)
    events.stop()
    let entry = store.loader(for: key) { 1 }
    await entry.load()
    store.invalidate(key)
    XCTAssertEqual(events.kinds, [])
  }
}

/// A page of three numbers, the last page at cursor 9.
private func notePage(_ cursor: Int) -> Page<Int, Int> {
  Page(items: [cursor * 10, cursor * 10 + 1, cursor * 10 + 2], next: cursor < 9 ? cursor + 1 : nil)
}

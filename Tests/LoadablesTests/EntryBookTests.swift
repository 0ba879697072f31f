import XCTest

@testable import Loadables

/// The pure book of a shared entry, driven step by step: each event's effects, compared as
/// lists. No tasks, no clock: the time is an argument.
@MainActor
final class EntryBookTests: XCTestCase {
  typealias Book = EntryBook<LoadableState<Int>>

  private func t(_ seconds: Int) -> Duration { .seconds(seconds) }

  func testAFirstLoadStartsAFetchWithItsSpinnerAndAFetchedValueIsFresh() async {
    var book = Book(staleTime: t(10), at: t(0))
    XCTAssertEqual(
      book.load(silently: false, isFetching: false, at: t(0)), [.startFetch(silently: false)])
    XCTAssertEqual(book.engineWrote(.loading, cause: .started, at: t(0)), [.write(.started)])
    XCTAssertEqual(book.shown, .loading)
    XCTAssertEqual(book.engineWrote(.loaded(1), cause: .fetched, at: t(1)), [.write(.fetched)])
    XCTAssertEqual(book.shown, .loaded(1))
    XCTAssertFalse(book.isStale(at: t(10)))
    XCTAssertTrue(book.isStale(at: t(11)))
    XCTAssertEqual(
      book.load(silently: false, isFetching: false, at: t(5)), [], "a fresh value refreshed")
    XCTAssertEqual(
      book.load(silently: false, isFetching: true, at: t(20)), [], "a load did not join")
    XCTAssertEqual(
      book.load(silently: false, isFetching: false, at: t(20)), [.startFetch(silently: true)],
      "a stale value did not refresh silently")
  }

  func testTheFirstObserverStartsTriggersAndTheStaleTimerAndTheLastStopsThem() async {
    var book = Book(staleTime: t(10), at: t(0))
    _ = book.engineWrote(.loaded(1), cause: .fetched, at: t(0))
    XCTAssertEqual(book.unobservedSince, t(0))
    XCTAssertEqual(
      book.observe(isFetching: false, at: t(4)), [.startTriggers, .startStaleTimer(after: t(6))])
    XCTAssertNil(book.unobservedSince)
    XCTAssertEqual(book.observe(isFetching: false, at: t(4)), [])
    XCTAssertEqual(book.endObservation(at: t(5)), [])
    XCTAssertEqual(book.endObservation(at: t(6)), [.stopTriggers, .stopStaleTimer, .scheduleSweep])
    XCTAssertEqual(book.unobservedSince, t(6))
    XCTAssertEqual(book.endObservation(at: t(7)), [], "an extra end counted")
  }

  func testObservingAStaleValueRefreshesItSilently() async {
    var book = Book(staleTime: t(10), at: t(0))
    _ = book.engineWrote(.loaded(1), cause: .fetched, at: t(0))
    XCTAssertEqual(book.staleTimerFired(), [.setStale(true)])
    XCTAssertEqual(
      book.observe(isFetching: false, at: t(10)), [.startTriggers, .startFetch(silently: true)])
  }

  func testInvalidatingRefreshesOnlyWhatIsObservedOrFetching() async {
    var book = Book(staleTime: t(60), at: t(0))
    _ = book.engineWrote(.loaded(1), cause: .fetched, at: t(0))
    XCTAssertEqual(book.invalidate(isFetching: false), [.stopStaleTimer, .setStale(true)])
    XCTAssertTrue(book.isStale(at: t(1)))
    XCTAssertEqual(
      book.invalidate(isFetching: true), [.stopStaleTimer, .startFetch(silently: true)],
      "a running fetch older than the invalidation was not superseded")
    _ = book.observe(isFetching: false, at: t(1))
    XCTAssertEqual(
      book.invalidate(isFetching: false), [.stopStaleTimer, .startFetch(silently: true)])
  }

  func testAnEditSupersedesARunningFetchOnlyWhenItChangesWhatShows() async {
    var book = Book(staleTime: t(10), at: t(0))
    _ = book.load(silently: false, isFetching: false, at: t(0))
    // A first load runs: an update changes nothing now (the outbox keeps it for the value the
    // fetch lands), so the fetch goes on; a set shows at once, so it supersedes the fetch.
    XCTAssertFalse(book.facts.editSupersedesFetch(isSet: false))
    XCTAssertTrue(book.facts.editSupersedesFetch(isSet: true))
    XCTAssertEqual(
      book.applyEdit(1, .update { $0 += 1 }, overAbsent: true, at: t(1)),
      [.write(.optimisticEdit)])
    _ = book.engineWrote(.loaded(1), cause: .fetched, at: t(2))
    XCTAssertEqual(book.shown, .loaded(2), "the kept update did not run over the landed value")
    // A value shows: any edit changes it, and supersedes a refresh that started before it.
    XCTAssertTrue(book.facts.editSupersedesFetch(isSet: false))
    XCTAssertTrue(book.facts.editSupersedesFetch(isSet: true))
  }

  func testAPendingEditIsLaidOverEachNewBaseUntilItRollsBack() async {
    var book = Book(staleTime: .zero, at: t(0))
    _ = book.engineWrote(.loaded(10), cause: .fetched, at: t(0))
    XCTAssertEqual(book.applyEdit(1, .update { $0 += 1 }, at: t(1)), [.write(.optimisticEdit)])
    XCTAssertEqual(book.shown, .loaded(11))
    XCTAssertEqual(book.engineWrote(.loaded(20), cause: .fetched, at: t(2)), [.write(.fetched)])
    XCTAssertEqual(book.shown, .loaded(21), "a fetched value did not carry the pending edit")
    XCTAssertEqual(book.base, .loaded(20))
    XCTAssertEqual(book.rollBackEdit(1, at: t(3)), [.write(.rolledBack)])
    XCTAssertEqual(book.shown, .loaded(20))
    XCTAssertEqual(book.rollBackEdit(1, at: t(3)), [], "a second rollback wrote")
  }

  func testOverlappingEditsNeverUndoEachOther() async {
    var book = Book(staleTime: .zero, at: t(0))
    _ = book.engineWrote(.loaded(0), cause: .fetched, at: t(0))
    _ = book.applyEdit(1, .set(5), at: t(1))
    _ = book.applyEdit(2, .update { $0 *= 10 }, at: t(1))
    XCTAssertEqual(book.shown, .loaded(50))
    XCTAssertEqual(book.rollBackEdit(1, at: t(2)), [.write(.rolledBack)])
    XCTAssertEqual(book.shown, .loaded(0))
    _ = book.applyEdit(3, .set(7), at: t(2))
    XCTAssertEqual(book.rollBackEdit(2, at: t(3)), [], "a rollback hidden by a later set wrote")
    XCTAssertEqual(book.shown, .loaded(7))
  }

  /// The state shown while edits are pending is kept on the log's last edit alone, laid
  /// once at each write: reading it runs no edit, and whichever edit leaves the log, what
  /// shows is the base with the others laid over it.
  func testTheShownStateIsLaidOnceAtEachWriteAndKeptOnTheLastEditAlone() async {
    var book = Book(staleTime: .zero, at: t(0))
    _ = book.engineWrote(.loaded(1), cause: .fetched, at: t(0))
    var runs = 0
    _ = book.applyEdit(1, .update { $0 += 10 }, at: t(1))
    _ = book.applyEdit(
      2,
      .update { value in
        runs += 1
        value *= 2
      }, at: t(1))
    _ = book.applyEdit(3, .update { $0 += 100 }, at: t(1))
    XCTAssertEqual(runs, 2, "edit 2 did not run once at each of the two writes since it came")
    for _ in 0..<3 { XCTAssertEqual(book.shown, .loaded(122)) }
    XCTAssertEqual(runs, 2, "reading the shown state ran the edits again")
    XCTAssertEqual(book.edits.map { $0.laid != nil }, [false, false, true])

    XCTAssertEqual(book.rollBackEdit(3, at: t(2)), [.write(.rolledBack)])
    XCTAssertEqual(book.shown, .loaded(22), "the last edit left and took the others with it")
    XCTAssertEqual(book.edits.map { $0.laid != nil }, [false, true])
    XCTAssertEqual(book.commitEdit(1, at: t(2)), [.committed])
    XCTAssertEqual(book.shown, .loaded(22), "a commit changed what shows")
    XCTAssertEqual(book.rollBackEdit(1, at: t(3)), [.write(.rolledBack)])
    XCTAssertEqual(book.shown, .loaded(2))
    XCTAssertEqual(book.rollBackEdit(2, at: t(3)), [.write(.rolledBack)])
    XCTAssertEqual(book.shown, .loaded(1), "with the log empty the base shows")
    XCTAssertTrue(book.edits.isEmpty)
  }

  func testAnEditCommittedBehindAPendingOneIsLaidAheadOfIt() async {
    var book = Book(staleTime: .seconds(60), at: t(0))
    _ = book.engineWrote(.loaded(1), cause: .fetched, at: t(0))
    _ = book.applyEdit(1, .update { $0 *= 10 }, at: t(1))
    _ = book.applyEdit(2, .update { $0 += 2 }, at: t(1))
    XCTAssertEqual(book.shown, .loaded(12))
    // The server applied 2 first: the committed value is the base with 2 alone, and 1 is
    // laid over that.
    XCTAssertEqual(book.commitEdit(2, at: t(2)), [.write(.optimisticEdit), .committed])
    XCTAssertEqual(book.committed, .loaded(3), "the committed value left out the committed edit")
    XCTAssertEqual(book.shown, .loaded(30), "the pending edit was not laid over the committed one")
    XCTAssertEqual(book.edits.map(\.id), [2, 1])
    XCTAssertEqual(book.commitEdit(1, at: t(3)), [.committed], "a commit in line moved an edit")
    XCTAssertEqual(book.committed, .loaded(30))
  }

  func testACommittedEditStaysUntilAFetchStartedAfterTheCommitLands() async {
    var book = Book(staleTime: .zero, at: t(0))
    _ = book.engineWrote(.loaded(0), cause: .fetched, at: t(0))
    _ = book.applyEdit(1, .update { $0 += 1 }, at: t(1))
    XCTAssertEqual(book.refresh(), [.startFetch(silently: true)])  // starts before the commit
    XCTAssertEqual(book.commitEdit(1, at: t(1)), [.committed])
    XCTAssertEqual(book.committed, .loaded(1))
    XCTAssertEqual(book.engineWrote(.loaded(0), cause: .fetched, at: t(2)), [.write(.fetched)])
    XCTAssertEqual(
      book.shown, .loaded(1), "a fetch that started before the commit dropped the edit")
    _ = book.refresh()  // starts after the commit: its value carries the edit
    XCTAssertEqual(book.engineWrote(.loaded(1), cause: .fetched, at: t(3)), [.write(.fetched)])
    XCTAssertEqual(book.shown, .loaded(1))
    XCTAssertTrue(book.edits.isEmpty, "a carried edit stayed in the log")
  }

  func testAnUpdateOfAnEntryWithNoValueIsNotRecorded() async {
    var book = Book(staleTime: .zero, at: t(0))
    XCTAssertEqual(book.applyEdit(1, .update { $0 += 1 }, at: t(0)), [])
    XCTAssertTrue(book.edits.isEmpty)
    XCTAssertEqual(
      book.applyEdit(2, .set(3), at: t(0)), [.write(.optimisticEdit), .setStale(true)],
      "a value with a stale time of zero is stale at once")
    XCTAssertEqual(book.shown, .loaded(3))
  }

  func testAResetDiscardsEveryEdit() async {
    var book = Book(staleTime: .zero, at: t(0))
    _ = book.engineWrote(.loaded(0), cause: .fetched, at: t(0))
    _ = book.applyEdit(1, .set(5), at: t(1))
    XCTAssertEqual(book.engineWrote(.absent, cause: .reset, at: t(2)), [.write(.reset)])
    XCTAssertEqual(book.shown, .absent)
    XCTAssertTrue(book.edits.isEmpty)
    XCTAssertEqual(book.discardEdits(at: t(2)), [])
  }

  func testATriggerRefreshesOnlyWhileObservedAndIdle() async {
    var book = Book(staleTime: .zero, at: t(0))
    XCTAssertEqual(book.triggered(isFetching: false), [])
    _ = book.observe(isFetching: false, at: t(0))
    XCTAssertEqual(book.triggered(isFetching: true), [])
    XCTAssertEqual(book.triggered(isFetching: false), [.startFetch(silently: false)])
  }

  // MARK: - The runner's watchers

  func testACommitReachesOnlyTheWatchersThatAskForCommits() async throws {
    let store = LoaderStore()
    let entry = store.loader(for: ["book", "watchers"]) { 1 }
    await entry.load()
    var shown: [EntryEvent<LoadableState<Int>>] = []
    var all: [EntryEvent<LoadableState<Int>>] = []
    let screen = entry.addWatcher { shown.append($0) }
    let persistence = entry.addWatcher(includingCommits: true) { all.append($0) }
    try await store.edit {
      $0.update(entry) { $0 += 1 }
    } perform: {
    }
    XCTAssertEqual(shown, [EntryEvent(state: .loaded(2), cause: .optimisticEdit)])
    XCTAssertEqual(
      all,
      [
        EntryEvent(state: .loaded(2), cause: .optimisticEdit),
        EntryEvent(state: .loaded(2), cause: .committedEdit),
      ])
    entry.removeWatcher(screen)
    entry.removeWatcher(persistence)
  }

  func testTheBookKeepsItsStaleTimeAndUnobservedTimeToTheNanosecond() {
    var book = Book(staleTime: .milliseconds(1_500), at: .nanoseconds(123_456_789))
    XCTAssertEqual(book.staleTime, .milliseconds(1_500))
    XCTAssertEqual(book.unobservedSince, .nanoseconds(123_456_789))
    _ = book.engineWrote(.loaded(1), cause: .fetched, at: t(1))
    XCTAssertFalse(book.isStale(at: .milliseconds(2_499)))
    XCTAssertTrue(book.isStale(at: .milliseconds(2_500)), "stale not at exactly its stale time")
    _ = book.observe(isFetching: false, at: t(2))
    XCTAssertNil(book.unobservedSince)
    _ = book.endObservation(at: .nanoseconds(3_000_000_007))
    XCTAssertEqual(book.unobservedSince, .nanoseconds(3_000_000_007))
  }

  func testAStaleTimeLongerThanNanosecondsHoldIsForever() {
    var book = Book(staleTime: .seconds(Int64.max), at: t(0))
    _ = book.engineWrote(.loaded(1), cause: .fetched, at: t(1))
    XCTAssertFalse(book.isStale(at: .seconds(9_000_000_000)), "a value of 285 years went stale")
    XCTAssertEqual(book.staleTime, .nanoseconds(Int64.max))
  }

  func testDurationsInNanosecondsRoundTowardZeroAndClampAtWhat64BitsHold() {
    XCTAssertEqual(Duration.seconds(2).clampedNanoseconds, 2_000_000_000)
    XCTAssertEqual(Duration.seconds(-2).clampedNanoseconds, -2_000_000_000)
    XCTAssertEqual(
      (Duration.nanoseconds(5) + .init(attoseconds: 999_999_999)).clampedNanoseconds, 5)
    XCTAssertEqual(
      (Duration.nanoseconds(-5) - .init(attoseconds: 999_999_999)).clampedNanoseconds, -5)
    XCTAssertEqual(Duration.seconds(Int64.max).clampedNanoseconds, .max)
    XCTAssertEqual(Duration.seconds(Int64.min).clampedNanoseconds, .min)
    XCTAssertEqual(Duration.nanoseconds(Int64.max).clampedNanoseconds, .max)
    XCTAssertEqual(Duration.nanoseconds(Int64.min).clampedNanoseconds, .min)
  }
}

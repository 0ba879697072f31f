import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// An entry's state and its status (`isStale`, `fetchedAt`, `isPlaceholder`) are observed
/// apart: a view reading one is not woken by a change of another, however the entry keeps
/// them.
@MainActor
final class EntryStatusObservationTests: XCTestCase {
  func testAViewReadingTheStateIsNotWokenByAStatusChangeNorAStatusReaderByTheState() async {
    let clock = ManualClock()
    let store = LoaderStore(clock: clock, startDate: Date(timeIntervalSince1970: 1_800_000_000))
    var answer = "A"
    let entry = store.loader(for: ["notes", 1], staleTime: .seconds(60)) { answer }
    await entry.load()
    let stateWakes = ChangeCounter { _ = entry.state }
    let staleWakes = ChangeCounter { _ = entry.isStale }
    let fetchedWakes = ChangeCounter { _ = entry.fetchedAt }
    let placeholderWakes = ChangeCounter { _ = entry.isPlaceholder }

    // Staleness alone: the entry is invalidated (nobody observes it, so nothing refetches).
    XCTAssertEqual(store.invalidate(["notes", 1]), 1)
    XCTAssertTrue(entry.isStale)
    XCTAssertEqual(staleWakes.count, 1, "isStale's reader was not told")
    XCTAssertEqual(stateWakes.count, 0, "the state's reader was woken by isStale")
    XCTAssertEqual(fetchedWakes.count, 0, "fetchedAt's reader was woken by isStale")

    // The fetch time and the staleness, not the state: a refresh that brings the same value.
    clock.advance(by: .seconds(5))
    await entry.refresh()
    XCTAssertFalse(entry.isStale)
    XCTAssertEqual(staleWakes.count, 2)
    XCTAssertEqual(fetchedWakes.count, 1, "fetchedAt's reader was not told")
    XCTAssertEqual(stateWakes.count, 0, "the state's reader was woken by the status")

    // The state alone: a reset writes `.absent` and leaves the status as it was.
    entry.reset()
    XCTAssertEqual(entry.state, .absent)
    XCTAssertEqual(stateWakes.count, 1, "the state's reader was not told")
    XCTAssertEqual(staleWakes.count, 2, "isStale's reader was woken by the state")
    XCTAssertEqual(fetchedWakes.count, 1, "fetchedAt's reader was woken by the state")

    // The state and the status together: a fetch with a new value wakes each reader once.
    answer = "B"
    clock.advance(by: .seconds(5))
    await entry.load()
    XCTAssertEqual(entry.state, .loaded("B"))
    XCTAssertEqual(stateWakes.count, 3, "the fetch's spinner and value")
    XCTAssertEqual(fetchedWakes.count, 2)
    XCTAssertEqual(placeholderWakes.count, 0, "isPlaceholder's reader was woken")
  }
}

import Loadables
import LoadablesTesting
import XCTest

/// `EntryPresence`: the logic of the SwiftUI `following(_:)` modifier. A screen observes and
/// loads a shared entry from appear to disappear.
@MainActor
final class EntryPresenceTests: XCTestCase {
  func testAppearingObservesAndLoadsAndDisappearingEndsTheObservation() async {
    let store = LoaderStore()
    let gate = Gate<Int>()
    let entry = store.loader(for: ["count"]) { try await gate.pass() }
    let presence = EntryPresence()
    XCTAssertFalse(presence.isShown)

    let loading = presence.appeared(entry)
    XCTAssertTrue(presence.isShown)
    XCTAssertEqual(entry.observerCount, 1)
    await gate.arrival()
    XCTAssertEqual(entry.state, .loading)
    gate.open(3)
    await loading?.value
    XCTAssertEqual(entry.state, .loaded(3))

    presence.disappeared()
    XCTAssertFalse(presence.isShown)
    XCTAssertEqual(entry.observerCount, 0)
  }

  func testAppearingTwiceObservesAndLoadsOnce() async {
    let store = LoaderStore()
    var fetches = 0
    let entry = store.loader(for: ["count"], staleTime: .seconds(60)) { () async throws -> Int in
      fetches += 1
      return fetches
    }
    let presence = EntryPresence()
    await presence.appeared(entry)?.value
    XCTAssertNil(presence.appeared(entry), "appearing again started a second load")
    XCTAssertEqual(entry.observerCount, 1)
    XCTAssertEqual(fetches, 1)
  }

  func testAnInvalidationWhileShownRefreshesAndNotOnceGone() async {
    let store = LoaderStore()
    var value = 1
    let entry = store.loader(for: ["count"], staleTime: .seconds(60)) { value }
    let presence = EntryPresence()
    await presence.appeared(entry)?.value

    value = 2
    store.invalidate(["count"])
    await entry.load()  // joins the refresh the invalidation started
    XCTAssertEqual(entry.state, .loaded(2))

    presence.disappeared()
    value = 3
    store.invalidate(["count"])
    XCTAssertFalse(entry.isRunning, "an entry no screen shows refreshed at once")
    XCTAssertEqual(entry.state, .loaded(2))
  }

  func testDisappearingEndsTheWaitButNotTheFetch() async {
    let store = LoaderStore()
    let gate = Gate<Int>()
    let entry = store.loader(for: ["count"]) { try await gate.pass() }
    let other = entry.observe()
    let presence = EntryPresence()
    let loading = presence.appeared(entry)
    await gate.arrival()
    presence.disappeared()
    await loading?.value  // returns once its wait is cancelled
    XCTAssertTrue(entry.isRunning, "a screen going away stopped the entry's fetch")
    gate.open(5)
    await entry.load()
    XCTAssertEqual(entry.state, .loaded(5))
    other.end()
  }

  func testAppearingWithAnotherEntrySwitchesTheObservation() async {
    let store = LoaderStore()
    let first = store.loader(for: ["a"]) { 1 }
    let second = store.loader(for: ["b"]) { 2 }
    let presence = EntryPresence()
    await presence.appeared(first, loads: false)?.value
    XCTAssertEqual(first.state, .absent, "loads: false loaded")
    await presence.appeared(second, silently: true)?.value
    XCTAssertEqual(first.observerCount, 0)
    XCTAssertEqual(second.observerCount, 1)
    XCTAssertEqual(second.state, .loaded(2))
  }

  func testAChangedEntryIsFollowedOnlyWhileShown() async {
    let store = LoaderStore()
    let first = store.loader(for: ["a"]) { 1 }
    let second = store.loader(for: ["b"]) { 2 }
    let presence = EntryPresence()
    XCTAssertNil(presence.changed(to: first), "a screen not shown followed an entry")
    XCTAssertEqual(first.observerCount, 0)
    await presence.appeared(first)?.value
    await presence.changed(to: second)?.value
    XCTAssertEqual(first.observerCount, 0)
    XCTAssertEqual(second.observerCount, 1)
    XCTAssertEqual(second.state, .loaded(2))
    presence.disappeared()
    XCTAssertEqual(second.observerCount, 0)
  }

  func testDisappearingBeforeAppearingOrTwiceDoesNothing() {
    let presence = EntryPresence()
    presence.disappeared()
    presence.disappeared()
    XCTAssertFalse(presence.isShown)
  }

  func testAnEntryShownOnScreenStaysInTheStoreAfterATrim() async {
    let store = LoaderStore()
    let entry = store.loader(for: ["a"]) { 1 }
    let presence = EntryPresence()
    await presence.appeared(entry)?.value
    store.trim()
    XCTAssertEqual(store.count, 1, "an entry on screen was trimmed")
    presence.disappeared()
    store.trim()
    XCTAssertEqual(store.count, 0)
  }
}

import XCTest

@testable import Loadables

/// The eviction rules as a pure step: facts in, evictions and the next wake-up out.
final class EvictionBookTests: XCTestCase {
  typealias Facts = EvictionBook.Facts
  typealias Eviction = EvictionBook.Eviction

  func facts(
    observed: Bool = false, fetching: Bool = false, unobservedSince: Duration? = .zero,
    bound: Bool = false, lastUse: UInt64 = 0
  ) -> Facts {
    Facts(
      isObserved: observed, isFetching: fetching,
      unobservedSince: observed ? nil : unobservedSince, hasBoundObservers: bound,
      lastUse: lastUse)
  }

  func testAnEntryLeavesOnceItsGraceTimeIsUp() {
    let book = EvictionBook(graceTime: .seconds(30))
    let entries = [
      facts(unobservedSince: .seconds(0)),  // up at 30: gone at 30
      facts(unobservedSince: .seconds(10)),  // up at 40
      facts(observed: true),
    ]
    XCTAssertEqual(
      book.sweep(entries, at: .seconds(30)),
      .init(evictions: [Eviction(index: 0, cause: .graceTime)], nextCheck: .seconds(10)))
    XCTAssertEqual(
      book.sweep(entries, at: .seconds(29)),
      .init(evictions: [], nextCheck: .seconds(1)), "the sweeper wakes at the earliest deadline")
  }

  func testAFetchInFlightKeepsItsEntryAndIsLookedAtAgainAGraceTimeLater() {
    let book = EvictionBook(graceTime: .seconds(30))
    let sweep = book.sweep([facts(fetching: true, unobservedSince: .zero)], at: .seconds(100))
    XCTAssertEqual(sweep, .init(evictions: [], nextCheck: .seconds(30)))
  }

  func testAFollowerStillAliveIsCheckedAgainNoMoreOftenThanOnceASecond() {
    let short = EvictionBook(graceTime: .milliseconds(10))
    XCTAssertEqual(
      short.sweep([facts(observed: true, bound: true)], at: .seconds(5)),
      .init(evictions: [], nextCheck: .seconds(1)))
    let long = EvictionBook(graceTime: .seconds(60))
    XCTAssertEqual(
      long.sweep([facts(observed: true, bound: true)], at: .seconds(5)),
      .init(evictions: [], nextCheck: .seconds(60)))
  }

  func testNothingWaitingStopsTheSweeper() {
    let book = EvictionBook(graceTime: .seconds(30))
    XCTAssertEqual(book.sweep([facts(observed: true)], at: .seconds(1)).nextCheck, nil)
    XCTAssertEqual(book.sweep([], at: .seconds(1)).nextCheck, nil)
  }

  func testOverTheBoundTheLeastRecentlyUsedUnobservedEntriesLeave() {
    let entries = [
      facts(lastUse: 5),
      facts(lastUse: 1),
      facts(observed: true, lastUse: 0),
      facts(fetching: true, lastUse: 0),
      facts(lastUse: 3),
    ]
    XCTAssertEqual(
      EvictionBook.overflow(entries, maxEntries: 3),
      [Eviction(index: 1, cause: .maxEntries), Eviction(index: 4, cause: .maxEntries)])
    XCTAssertEqual(EvictionBook.overflow(entries, maxEntries: 5), [])
    // Observed and fetching entries never go: the bound is then exceeded.
    XCTAssertEqual(EvictionBook.overflow(entries, maxEntries: 0).map(\.index), [1, 4, 0])
  }

  func testTrimDropsEveryUnobservedEntryFetchingOrNot() {
    let entries = [facts(), facts(observed: true), facts(fetching: true)]
    XCTAssertEqual(
      EvictionBook.trim(entries),
      [Eviction(index: 0, cause: .memoryPressure), Eviction(index: 2, cause: .memoryPressure)])
  }
}

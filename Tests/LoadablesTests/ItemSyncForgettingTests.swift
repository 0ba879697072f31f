import Loadables
import LoadablesTesting
import XCTest

// `@testable` only to read how many versions the store remembers (an internal count); every
// step goes through the public API.
@testable import struct Loadables.ItemSyncBook

/// Items kept in sync are remembered only while they may be needed: the store forgets the
/// versions no entry holds once no fetch older than them is in flight, and the order of
/// fetches still holds across the forgetting.
@MainActor
final class ItemSyncForgettingTests: XCTestCase {
  struct Post: Identifiable, Equatable, Sendable {
    var id: Int
    var title: String
  }

  func post(_ id: Int, _ title: String) -> Post { Post(id: id, title: title) }

  /// Opens the detail of each id, loads it, and removes it from the store.
  func openAndRemoveDetails(_ ids: Range<Int>, in store: LoaderStore) async {
    for id in ids {
      let detail = store.loader(for: ["posts", id]) { [self] in post(id, "detail") }
      await detail.load()
      store.remove(["posts", id])
    }
  }

  func testScrollingAPagedListThroughTenThousandItemsRemembersOnlyAFewHundred() async {
    let store = LoaderStore(clock: ManualClock())
    store.keepInSync(Post.self)
    let source = PagedSource<Post, Int>(first: 0, maxPages: 2) { [self] page in
      Page(items: (0..<50).map { post(page * 50 + $0, "row") }, next: page + 1)
    }
    let feed = store.pagedLoader(for: ["feed"], source: source)
    await feed.load()
    var most = 0
    for _ in 0..<199 {
      await feed.loadNextPage()
      most = max(most, store.syncedItemCount(Post.self))
    }
    XCTAssertEqual(feed.state.items.count, 100)
    XCTAssertEqual(feed.state.items.last?.id, 9_999, "the list did not scroll")
    // At most the budget's floor, or twice what the list holds, plus the page that landed.
    let bound = max(ItemSyncBook<Post>.minimumBudget, 2 * 100) + 50
    XCTAssertLessThanOrEqual(most, bound, "the ledger kept items the list dropped")
  }

  func testDetailsNoEntryHoldsAreForgottenOnceNoOlderFetchIsInFlightAndTheOrderHolds() async {
    let store = LoaderStore(clock: ManualClock())
    store.keepInSync(Post.self)
    let feedGate = Gate<[Post]>()
    let feed = store.loader(for: ["feed"]) { try await feedGate.pass() }
    // The feed's fetch starts before every detail, and lands after them all.
    let feedLoad = Task { await feed.load() }
    await feedGate.arrival()
    await openAndRemoveDetails(0..<600, in: store)
    store.removeItem(Post.self, id: 600)
    XCTAssertEqual(
      store.syncedItemCount(Post.self), 601,
      "a version newer than the feed's fetch in flight was forgotten")
    feedGate.open([post(0, "stale"), post(1, "stale"), post(600, "removed"), post(700, "new")])
    _ = await feedLoad.value
    XCTAssertEqual(
      feed.state, .loaded([post(0, "detail"), post(1, "detail"), post(700, "new")]),
      "an older fetch overwrote a newer item, or brought a removed one back")
    // No fetch older than them is in flight now: the next time the ledger is due, what no
    // entry holds goes; the feed's items stay.
    await openAndRemoveDetails(1_000..<2_100, in: store)
    let count = store.syncedItemCount(Post.self)
    XCTAssertLessThan(count, 2 * ItemSyncBook<Post>.minimumBudget, "nothing was forgotten")
    XCTAssertGreaterThanOrEqual(count, 3, "the feed's own items were forgotten")
    // A fetch that starts now is the newer truth, forgotten versions or not.
    let detail = store.loader(for: ["posts", 0]) { [self] in post(0, "renamed") }
    await detail.load()
    XCTAssertEqual(feed.state.data?.first, post(0, "renamed"))
  }

  func testAnOlderFetchLandingAfterTheForgettingStillNeverOverwritesANewerEdit() async throws {
    let store = LoaderStore(clock: ManualClock())
    store.keepInSync(Post.self)
    let title = Title("one")
    let list = store.loader(for: ["list"]) { [self] in [post(1, title.text)] }
    await list.load()
    let otherGate = Gate<[Post]>()
    let other = store.loader(for: ["other"]) { try await otherGate.pass() }
    let otherLoad = Task { await other.load() }
    await otherGate.arrival()
    // An edit commits after the other list's fetch started; then the list goes.
    try await store.edit {
      $0.update(list) { $0[0].title = "edited" }
    } perform: {
    }
    store.remove(["list"])
    await openAndRemoveDetails(10..<700, in: store)
    otherGate.open([post(1, "one")])
    _ = await otherLoad.value
    XCTAssertEqual(other.state, .loaded([post(1, "edited")]), "the older fetch overwrote the edit")
  }

  /// A title the test changes between fetches.
  @MainActor final class Title {
    var text: String
    init(_ text: String) { self.text = text }
  }
}

import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// Sentences that two places state, or that a page states and the code once contradicted,
/// pinned here (issue 29, "Docs that cannot contradict themselves"). Each test names the page
/// and the line's rule.
@MainActor
final class DocsAgreeTests: XCTestCase {
  // MARK: - Working Offline, "Rules"

  /// "`byteBudget` evicts the saved entries used least recently; saving an entry and
  /// restoring it (made at a later launch) are uses, reading an entry already in memory is
  /// not."
  func testWorkingOfflineAReadInMemoryIsNoUseOfASavedEntry() async {
    let saved = budgetForThree()
    do {
      let store = LoaderStore(persistence: saved)
      for id in 1...3 { await save(id, in: store) }
      // Read in memory, fresh: nothing fetched, nothing saved.
      await store.loader(for: ["posts", 1], staleTime: .seconds(3600)) { "fetched" }.load()
      await save(4, in: store)
      await store.flushPersistence()
    }
    XCTAssertEqual(
      restoredPosts(from: saved), [2, 3, 4], "a read in memory kept post 1 from eviction")
  }

  /// The same sentence: a restore is a use.
  func testWorkingOfflineARestoreIsAUseOfASavedEntry() async {
    let saved = budgetForThree()
    do {
      let store = LoaderStore(persistence: saved)
      for id in 1...3 { await save(id, in: store) }
      await store.flushPersistence()
    }
    do {
      let relaunched = LoaderStore(persistence: saved)
      let restored = relaunched.loader(for: ["posts", 1]) { "fetched" }
      XCTAssertEqual(restored.state.data, Self.value(1), "post 1 was not restored")
      await save(4, in: relaunched)
      await relaunched.flushPersistence()
    }
    XCTAssertEqual(
      restoredPosts(from: saved), [1, 3, 4], "restoring post 1 did not count as a use")
  }

  // MARK: - Lists That Page, "Give the cursor a type that is not optional"

  /// With `String?` as the cursor, `next: response.next` wraps the end (`nil`) into a cursor
  /// whose value is `nil`, the first page's, and the list stops with a `RepeatedCursorError`;
  /// with `""` standing for the first page, the list ends. The doc comments of `PagedSource`,
  /// `Page`, `PagedLoader` and `PagedLoadDefinition` show the second.
  func testListsThatPageAnOptionalCursorStopsAndAPlainOneEnds() async throws {
    func stories(after cursor: String?) -> (stories: [Int], next: String?) {
      cursor == nil ? ([1], "b") : ([2], nil)
    }
    let optional = PagedSource<Int, String?>(first: nil) { cursor in
      let response = stories(after: cursor)
      return Page(items: response.stories, next: response.next)
    }
    @Paged var wrapped: PagedState<Int, String?>
    await $wrapped.load(from: optional)
    await $wrapped.loadNextPage(from: optional)
    XCTAssertTrue(
      wrapped.nextPage.error is RepeatedCursorError, "\(wrapped.nextPage): the end was followed")

    let plain = PagedSource<Int, String>(first: "") { cursor in
      let response = stories(after: cursor.isEmpty ? nil : cursor)
      return Page(items: response.stories, next: response.next)
    }
    @Paged var feed: PagedState<Int, String>
    await $feed.load(from: plain)
    await $feed.loadNextPage(from: plain)
    XCTAssertEqual(feed.items, [1, 2])
    XCTAssertFalse(feed.hasNextPage, "the list did not end")
    XCTAssertNil(feed.nextPage.error)
  }

  // MARK: - Sharing State Across Screens, "When a stale entry refreshes"

  /// "Age counts from what the server last said": a prefetch of an entry fetched long ago
  /// and edited since fetches (`SharedEntry.prefetch(ifOlderThan:)` says so too).
  func testSharingStateAnEditDoesNotMakeAValueRecentForAPrefetch() async throws {
    let clock = ManualClock()
    let store = LoaderStore(clock: clock)
    var fetches = 0
    let post = store.loader(for: ["posts", 1], staleTime: .seconds(60)) {
      fetches += 1
      return "v\(fetches)"
    }
    await post.load()
    clock.advance(by: .seconds(40))
    try await store.edit {
      $0.set(post, to: "liked")
    } perform: {
    }
    XCTAssertEqual(post.state, .loaded("liked"))
    XCTAssertTrue(post.prefetch(ifOlderThan: .seconds(30)), "the edit made the value recent")
    await post.load()
    XCTAssertEqual(fetches, 2)
  }

  /// ``SharedLoader`` conforms to `Loader`: code written against `Loader` takes it (the
  /// article's overview and `SharedEntry`'s doc comment say so, and no more).
  func testSharingStateASharedLoaderIsALoader() async {
    func loadAny<L: Loader>(_ loader: L) async -> LoadableState<L.Value> {
      await loader.load()
      return loader.state
    }
    let store = LoaderStore()
    let state = await loadAny(store.loader(for: ["posts", 1]) { "post" })
    XCTAssertEqual(state, .loaded("post"))
  }

  // MARK: - Debugging Loads, keys in events

  /// LoadEvent's and LoadEventReplay's comments print a key as the events do.
  func testDebuggingLoadsAnEntryIsNamedByItsKeyQuoted() {
    XCTAssertEqual(LoadSubject.entry(["posts", 42]).description, #"entry ["posts", 42]"#)
  }

  // MARK: - Helpers

  /// A backend whose budget holds three of the posts ``save(_:in:)`` saves, and not four.
  private func budgetForThree() -> StorePersistence {
    .inMemory(version: "1", byteBudget: 35_000)
  }

  /// About 10,000 bytes.
  private static func value(_ id: Int) -> String { String(repeating: "\(id)", count: 10_000) }

  private func save(_ id: Int, in store: LoaderStore) async {
    await store.loader(for: ["posts", id], staleTime: .seconds(3600)) { Self.value(id) }.load()
  }

  /// The posts a store made from `saved` restores.
  private func restoredPosts(from saved: StorePersistence) -> [Int] {
    let store = LoaderStore(persistence: saved)
    return (1...4).filter { id in
      store.loader(for: ["posts", id]) { "fetched" }.state.data == Self.value(id)
    }
  }
}

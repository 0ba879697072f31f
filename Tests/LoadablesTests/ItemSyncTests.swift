import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// Items kept in sync across a store's entries: details, lists, edits, removals, and the
/// order of fetches that race.
@MainActor
final class ItemSyncTests: XCTestCase {
  struct Post: Identifiable, Codable, Equatable, Sendable {
    var id: Int
    var title: String
  }

  struct Failure: Error {}

  /// A title the test changes between fetches.
  @MainActor final class Title {
    var text: String
    init(_ text: String) { self.text = text }
  }

  func post(_ id: Int, _ title: String) -> Post { Post(id: id, title: title) }

  func testADetailFetchShowsInTheListHoldingTheItem() async {
    let store = LoaderStore(clock: ManualClock())
    store.keepInSync(Post.self)
    let feed = store.loader(for: ["feed"]) { [self] in [post(1, "one"), post(2, "two")] }
    let detail = store.loader(for: ["posts", 2]) { [self] in post(2, "two, renamed") }
    await feed.load()
    await detail.load()
    XCTAssertEqual(feed.state, .loaded([post(1, "one"), post(2, "two, renamed")]))
  }

  func testAListFetchShowsInTheDetailHoldingTheItem() async {
    let store = LoaderStore(clock: ManualClock())
    store.keepInSync(Post.self)
    let title = Title("old")
    let feed = store.loader(for: ["feed"]) { [self] in [post(1, title.text)] }
    let detail = store.loader(for: ["posts", 1]) { [self] in post(1, title.text) }
    await detail.load()
    title.text = "new"
    await feed.load()
    XCTAssertEqual(detail.state, .loaded(post(1, "new")))
  }

  func testAnOlderListFetchNeverOverwritesANewerDetail() async {
    let store = LoaderStore(clock: ManualClock())
    store.keepInSync(Post.self)
    let listGate = Gate<[Post]>()
    let detailGate = Gate<Post>()
    let feed = store.loader(for: ["feed"]) { try await listGate.pass() }
    let detail = store.loader(for: ["posts", 1]) { try await detailGate.pass() }
    let listLoad = Task { await feed.load() }
    await listGate.arrival()
    let detailLoad = Task { await detail.load() }
    await detailGate.arrival()
    detailGate.open(post(1, "new"))
    _ = await detailLoad.value
    listGate.open([post(1, "old"), post(2, "two")])
    _ = await listLoad.value
    XCTAssertEqual(detail.state, .loaded(post(1, "new")))
    XCTAssertEqual(feed.state, .loaded([post(1, "new"), post(2, "two")]))

  }

  func testAnOlderDetailFetchNeverOverwritesANewerList() async {
    let store = LoaderStore(clock: ManualClock())
    store.keepInSync(Post.self)
    let listGate = Gate<[Post]>()
    let detailGate = Gate<Post>()
    let feed = store.loader(for: ["feed"]) { try await listGate.pass() }
    let detail = store.loader(for: ["posts", 1]) { try await detailGate.pass() }
    let detailLoad = Task { await detail.load() }
    await detailGate.arrival()
    let listLoad = Task { await feed.load() }
    await listGate.arrival()
    listGate.open([post(1, "new")])
    _ = await listLoad.value
    detailGate.open(post(1, "old"))
    _ = await detailLoad.value
    XCTAssertEqual(detail.state, .loaded(post(1, "new")))
    XCTAssertEqual(feed.state, .loaded([post(1, "new")]))
  }

  func testALaterFetchReplacesASyncedItem() async {
    let store = LoaderStore(clock: ManualClock())
    store.keepInSync(Post.self)
    let listTitle = Title("list")
    let feed = store.loader(for: ["feed"]) { [self] in [post(1, listTitle.text)] }
    let detail = store.loader(for: ["posts", 1]) { [self] in post(1, "detail") }
    await feed.load()
    await detail.load()
    XCTAssertEqual(feed.state, .loaded([post(1, "detail")]))
    listTitle.text = "list again"
    await feed.refresh()
    XCTAssertEqual(feed.state, .loaded([post(1, "list again")]))
    XCTAssertEqual(detail.state, .loaded(post(1, "list again")))
  }

  func testAnEditOfADetailShowsInTheListAndRollsBackExactly() async throws {
    let store = LoaderStore(clock: ManualClock())
    store.keepInSync(Post.self)
    let feed = store.loader(for: ["feed"]) { [self] in [post(1, "one"), post(2, "two")] }
    let detail = store.loader(for: ["posts", 1]) { [self] in post(1, "one") }
    await feed.load()
    await detail.load()
    let job = Gate<Void>()
    let edit = Task {
      try await store.edit { edit in
        edit.update(detail) { $0.title = "renamed" }
      } perform: {
        try await job.pass()
      }
    }
    await job.arrival()
    XCTAssertEqual(detail.state, .loaded(post(1, "renamed")))
    XCTAssertEqual(feed.state, .loaded([post(1, "renamed"), post(2, "two")]))
    job.fail(Failure())
    _ = try? await edit.value
    XCTAssertEqual(detail.state, .loaded(post(1, "one")))
    XCTAssertEqual(feed.state, .loaded([post(1, "one"), post(2, "two")]))
  }

  func testANewerItemKeepsAPendingEditOfAnotherItemOnScreen() async throws {
    let store = LoaderStore(clock: ManualClock())
    store.keepInSync(Post.self)
    let feed = store.loader(for: ["feed"]) { [self] in [post(1, "one"), post(2, "two")] }
    let detail = store.loader(for: ["posts", 1]) { [self] in post(1, "one, fetched") }
    await feed.load()
    let job = Gate<Void>()
    let edit = Task {
      try await store.edit { edit in
        edit.update(feed) { $0[1].title = "two, edited" }
      } perform: {
        try await job.pass()
      }
    }
    await job.arrival()
    await detail.load()
    XCTAssertEqual(feed.state, .loaded([post(1, "one, fetched"), post(2, "two, edited")]))
    job.fail(Failure())
    _ = try? await edit.value
    XCTAssertEqual(feed.state, .loaded([post(1, "one, fetched"), post(2, "two")]))
  }

  func testAnEditThatChangesBothEntriesItselfAppliesItsChangeOnce() async throws {
    let store = LoaderStore(clock: ManualClock())
    store.keepInSync(Post.self)
    let feed = store.loader(for: ["feed"]) { [self] in [post(1, "a")] }
    let detail = store.loader(for: ["posts", 1]) { [self] in post(1, "a") }
    await feed.load()
    await detail.load()
    for order in [true, false] {
      try await store.edit { edit in
        if order {
          edit.update(detail) { $0.title += "+" }
          edit.update(feed) { $0[0].title += "+" }
        } else {
          edit.update(feed) { $0[0].title += "+" }
          edit.update(detail) { $0.title += "+" }
        }
      } perform: {
      }
    }
    XCTAssertEqual(detail.state, .loaded(post(1, "a++")))
    XCTAssertEqual(feed.state, .loaded([post(1, "a++")]))
  }

  func testACommittedEditOfAListStaysInTheDetailOverAnOlderFetch() async throws {
    let store = LoaderStore(clock: ManualClock())
    store.keepInSync(Post.self)
    let feed = store.loader(for: ["feed"]) { [self] in [post(1, "one")] }
    let detailGate = Gate<Post>()
    let detail = store.loader(for: ["posts", 1]) { try await detailGate.pass() }
    await feed.load()
    let detailLoad = Task { await detail.load() }
    await detailGate.arrival()
    try await store.edit { edit in
      edit.update(feed) { $0[0].title = "renamed" }
    } perform: {
    }
    detailGate.open(post(1, "one"))
    _ = await detailLoad.value
    XCTAssertEqual(detail.state, .loaded(post(1, "renamed")), "an older fetch overwrote the edit")
    XCTAssertEqual(feed.state, .loaded([post(1, "renamed")]))
  }

  func testARemovedItemLeavesListsAndResetsItsDetail() async {
    let store = LoaderStore(clock: ManualClock())
    store.keepInSync(Post.self)
    let listGate = Gate<[Post]>()
    let feed = store.loader(for: ["feed"]) { [self] in [post(1, "one"), post(2, "two")] }
    let other = store.loader(for: ["other"]) { try await listGate.pass() }
    let detail = store.loader(for: ["posts", 1]) { [self] in post(1, "one") }
    await feed.load()
    await detail.load()
    let otherLoad = Task { await other.load() }
    await listGate.arrival()
    store.removeItem(Post.self, id: 1)
    XCTAssertEqual(feed.state, .loaded([post(2, "two")]))
    XCTAssertEqual(detail.state, .absent)
    listGate.open([post(1, "one"), post(3, "three")])
    _ = await otherLoad.value
    XCTAssertEqual(
      other.state, .loaded([post(3, "three")]), "a fetch started before the removal brought it back"
    )
  }

  func testTypesNotKeptInSyncAreLeftAlone() async {
    struct Note: Identifiable, Equatable, Sendable {
      var id: Int
      var text: String
    }
    let store = LoaderStore(clock: ManualClock())
    store.keepInSync(Post.self)
    let notes = store.loader(for: ["notes"]) { [Note(id: 1, text: "list")] }
    let note = store.loader(for: ["notes", 1]) { Note(id: 1, text: "detail") }
    await notes.load()
    await note.load()
    XCTAssertEqual(notes.state, .loaded([Note(id: 1, text: "list")]))
  }

  func testEntriesMadeBeforeKeepInSyncTakePart() async {
    let store = LoaderStore(clock: ManualClock())
    let feed = store.loader(for: ["feed"]) { [self] in [post(1, "one")] }
    let detail = store.loader(for: ["posts", 1]) { [self] in post(1, "renamed") }
    store.keepInSync(Post.self)
    await feed.load()
    await detail.load()
    XCTAssertEqual(feed.state, .loaded([post(1, "renamed")]))
  }
}

/// Items kept in sync in a paged list of the store.
@MainActor
final class ItemSyncPagedTests: XCTestCase {
  typealias Post = ItemSyncTests.Post

  /// A source of two pages of posts, whose titles the test sets before each fetch.
  @MainActor final class Posts {
    var titles: [Int: String] = [1: "one", 2: "two", 3: "three", 4: "four"]
    func page(_ cursor: Int) -> Page<Post, Int> {
      let ids = cursor == 1 ? [1, 2] : [3, 4]
      return Page(
        items: ids.map { Post(id: $0, title: titles[$0] ?? "") }, next: cursor == 1 ? 2 : nil)
    }
  }

  func testADetailFetchAndAnEditReachTheItemInAPagedList() async throws {
    let store = LoaderStore(clock: ManualClock())
    store.keepInSync(Post.self)
    let posts = Posts()
    let feed = store.pagedLoader(
      for: ["feed"], source: PagedSource(first: 1) { cursor in posts.page(cursor) })
    let detail = store.loader(for: ["posts", 3]) { Post(id: 3, title: posts.titles[3] ?? "") }
    await feed.load()
    await feed.loadNextPage()
    posts.titles[3] = "three, renamed"
    await detail.load()
    XCTAssertEqual(feed.state.items.map(\.title), ["one", "two", "three, renamed", "four"])

    struct Refused: Error {}
    do {
      try await store.edit { edit in
        edit.update(detail) { $0.title = "edited" }
        XCTAssertEqual(feed.state.items.map(\.title), ["one", "two", "edited", "four"])
      } perform: {
        throw Refused()
      }
    } catch {}
    XCTAssertEqual(feed.state.items.map(\.title), ["one", "two", "three, renamed", "four"])
  }

  func testANextPageNeverRestampsTheItemsBeforeIt() async {
    let store = LoaderStore(clock: ManualClock())
    store.keepInSync(Post.self)
    let posts = Posts()
    let feed = store.pagedLoader(
      for: ["feed"], source: PagedSource(first: 1) { cursor in posts.page(cursor) })
    let detail = store.loader(for: ["posts", 1]) { Post(id: 1, title: posts.titles[1] ?? "") }
    await feed.load()
    posts.titles[1] = "one, renamed"
    await detail.load()
    await feed.loadNextPage()
    XCTAssertEqual(detail.state, .loaded(Post(id: 1, title: "one, renamed")))
    XCTAssertEqual(feed.state.items.first?.title, "one, renamed")
  }
}

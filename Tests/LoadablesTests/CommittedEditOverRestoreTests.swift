import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// A committed outbox edit is laid over a saved value older than its commit until a fetch
/// that started after the commit lands: in memory, for entries not in memory when it
/// committed, and across relaunches (Working Offline, "What survives a crash").
@MainActor
final class CommittedEditOverRestoreTests: XCTestCase {
  struct Story: Codable, Equatable, Sendable {
    var id: Int
    var title: String
  }

  struct RenameStory: OutboxEdit {
    static let name = "RenameStory"
    var id: Int
    var title: String

    var scope: LoadKey { ["stories", id] }

    func applyOptimistically(to edit: inout SharedEdit, in store: LoaderStore) {
      for prefix: LoadKey in [["feed"], ["list"]] {
        edit.update(
          matching: prefix, in: store, as: Story.self, where: { $0.id == id },
          { $0.title = title })
      }
    }
  }

  /// The server: its stories, and the renames it applied.
  @MainActor
  final class Server {
    var titles = [1: "Story 1", 2: "Story 2", 3: "Story 3"]
    private(set) var renames: [String] = []

    var feed: [Story] {
      titles.sorted { $0.key < $1.key }.map { Story(id: $0.key, title: $0.value) }
    }

    func rename(_ edit: RenameStory) {
      renames.append(edit.title)
      titles[edit.id] = edit.title
    }

    func page(_ number: Int) -> Page<Story, Int> {
      let all = feed
      return Page(items: [all[number - 1]], next: number < all.count ? number + 1 : nil)
    }
  }

  let day = Date(timeIntervalSince1970: 1_800_000_000)

  private func launch(
    _ saved: StorePersistence, at seconds: TimeInterval, _ server: Server,
    clock: ManualClock = ManualClock()
  ) -> LoaderStore {
    let store = LoaderStore(clock: clock, persistence: saved, startDate: day + seconds)
    store.register(RenameStory.self) { edit, _ in server.rename(edit) }
    return store
  }

  private func feed(_ store: LoaderStore, _ server: Server) -> SharedLoader<[Story]> {
    store.loader(for: ["feed"]) { server.feed }
  }

  /// Launch 1 saves the feed; launch 2 renames story 3 without ever making the feed.
  private func renameWhileTheFeedIsNotInMemory(
    _ saved: StorePersistence, _ server: Server
  ) async -> LoaderStore {
    let first = launch(saved, at: 0, server)
    await feed(first, server).load()
    await first.flushPersistence()

    let second = launch(saved, at: 100, server)
    second.edit(RenameStory(id: 3, title: "Renamed"))
    await second.outbox.untilIdle()
    XCTAssertEqual(server.renames, ["Renamed"])
    return second
  }

  func testAnEntryMadeAfterTheCommitFromAnOlderSavedValueShowsTheEdit() async {
    let saved = StorePersistence.inMemory(version: "1")
    let server = Server()
    let store = await renameWhileTheFeedIsNotInMemory(saved, server)

    let feed = feed(store, server)
    XCTAssertEqual(
      feed.state.data?.last?.title, "Renamed",
      "the feed made from its saved record shows a state older than the committed edit")
    XCTAssertFalse(feed.isRunning, "showing the restored feed fetched")
  }

  func testTheCommittedEditIsLaidOverTheSavedValueAfterARelaunch() async {
    let saved = StorePersistence.inMemory(version: "1")
    let server = Server()
    let second = await renameWhileTheFeedIsNotInMemory(saved, server)
    await second.flushPersistence()

    let third = launch(saved, at: 200, server)
    let feed = feed(third, server)
    XCTAssertEqual(
      feed.state.data?.last?.title, "Renamed", "the relaunch shows the feed from before the edit")
    XCTAssertEqual(third.outbox.items, [], "a committed edit was queued again")
    await third.outbox.untilIdle()
    XCTAssertEqual(server.renames, ["Renamed"], "a committed edit was sent again")
  }

  func testTheEditIsLaidWhenItsTypeIsRegisteredAfterTheEntryIsMade() async {
    let saved = StorePersistence.inMemory(version: "1")
    let server = Server()
    _ = await renameWhileTheFeedIsNotInMemory(saved, server)

    let third = LoaderStore(clock: ManualClock(), persistence: saved, startDate: day + 200)
    let feed = feed(third, server)
    XCTAssertEqual(feed.state.data?.last?.title, "Story 3", "an edit shown before its type reads")
    third.register(RenameStory.self) { edit, _ in server.rename(edit) }
    XCTAssertEqual(feed.state.data?.last?.title, "Renamed", "registering did not lay the edit")
  }

  func testAFetchThatStartedAfterTheCommitReplacesTheEdit() async {
    let saved = StorePersistence.inMemory(version: "1")
    let server = Server()
    let store = await renameWhileTheFeedIsNotInMemory(saved, server)
    let feed = feed(store, server)
    // Another client renames the story after our commit: the server's truth wins.
    server.titles[3] = "Theirs"
    await feed.refresh()
    XCTAssertEqual(feed.state.data?.last?.title, "Theirs", "the committed edit hid a newer fetch")
  }

  func testAValueFetchedAfterTheCommitIsRestoredAsSaved() async {
    let saved = StorePersistence.inMemory(version: "1")
    let server = Server()
    let clock = ManualClock()
    let first = launch(saved, at: 0, server)
    await feed(first, server).load()
    await first.flushPersistence()
    let second = launch(saved, at: 100, server, clock: clock)
    second.edit(RenameStory(id: 3, title: "Renamed"))
    await second.outbox.untilIdle()
    clock.advance(by: .seconds(10))
    server.titles[3] = "Theirs"
    await feed(second, server).refresh()
    await second.flushPersistence()

    let third = launch(saved, at: 200, server)
    XCTAssertEqual(
      feed(third, server).state.data?.last?.title, "Theirs",
      "the committed edit was laid over a value fetched after it")
  }

  func testAPagedListNotInMemoryGetsTheCommittedEdit() async {
    let saved = StorePersistence.inMemory(version: "1")
    let server = Server()
    let source = PagedSource<Story, Int>(first: 1) { server.page($0) }
    let first = launch(saved, at: 0, server)
    let list = first.pagedLoader(for: ["list"], source: source)
    await list.load()
    await list.loadNextPage()
    await list.loadNextPage()
    await first.flushPersistence()

    let second = launch(saved, at: 100, server)
    second.edit(RenameStory(id: 3, title: "Renamed"))
    await second.outbox.untilIdle()
    await second.flushPersistence()

    let third = launch(saved, at: 200, server)
    let restored = third.pagedLoader(for: ["list"], source: source)
    XCTAssertEqual(restored.state.items.map(\.title), ["Story 1", "Story 2", "Renamed"])
    XCTAssertEqual(restored.state.pages.last?.items.first?.title, "Renamed")
  }

  func testRemovingTheSavedEntriesForgetsTheCommittedEdits() async {
    let saved = StorePersistence.inMemory(version: "1")
    let server = Server()
    let second = await renameWhileTheFeedIsNotInMemory(saved, server)
    await second.removePersistedEntries()
    // A value saved from now on is newer than the commit anyway; the log is gone with the
    // values it was kept for.
    server.titles[3] = "Theirs"
    await feed(second, server).load()
    await second.flushPersistence()
    let third = launch(saved, at: 200, server)
    XCTAssertEqual(feed(third, server).state.data?.last?.title, "Theirs")
  }

  func testAValueOlderThanTheCommittedEditsTheOutboxForgotIsDroppedAsExpired() async {
    let saved = StorePersistence.inMemory(version: "1")
    let server = Server()
    let first = launch(saved, at: 0, server)
    await feed(first, server).load()
    await first.flushPersistence()

    // One edit more than the outbox keeps, all committed while the feed is not in memory.
    let second = launch(saved, at: 100, server)
    for number in 0...500 { second.edit(RenameStory(id: 3, title: "Title \(number)")) }
    await second.outbox.untilIdle()
    XCTAssertEqual(server.renames.count, 501)

    let third = launch(saved, at: 200, server)
    let feed = feed(third, server)
    XCTAssertEqual(
      feed.state, .absent, "a value older than a forgotten committed edit was shown without it")
    guard case .droppedExpired? = third.recentPersistenceEvents.last else {
      return XCTFail("the dropped value was not reported: \(third.recentPersistenceEvents)")
    }
  }
}

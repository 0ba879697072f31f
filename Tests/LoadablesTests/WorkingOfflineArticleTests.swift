import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// The code of the Working Offline article, run as written (with a fake API).
@MainActor
final class WorkingOfflineArticleTests: XCTestCase {
  struct Post: Codable, Equatable, Sendable {
    var id: Int
    var title: String
  }

  struct RenamePost: OutboxEdit {
    static let name = "RenamePost"  // stable: it names the saved records
    let id: Int
    let title: String

    var scope: LoadKey { ["posts", id] }

    func applyOptimistically(to edit: inout SharedEdit, in store: LoaderStore) {
      edit.update(matching: ["posts", id], in: store, as: Post.self) { $0.title = title }
    }
  }

  @MainActor
  final class API {
    var posts: [Int: Post] = [42: Post(id: 42, title: "Online")]
    var applied: Set<String> = []
    var renames = 0

    func post(_ id: Int) throws -> Post {
      guard let post = posts[id] else { throw URLError(.fileDoesNotExist) }
      return post
    }

    func rename(_ id: Int, to title: String, idempotencyKey: String) {
      guard applied.insert(idempotencyKey).inserted else { return }
      renames += 1
      posts[id]?.title = title
    }
  }

  func testTheRelaunchRecipe() async {
    let saved = StorePersistence.inMemory(version: "1")
    let before = LoaderStore(persistence: saved)
    await before.loader(for: ["feed"]) { ["a", "b"] }.load()
    await before.flushPersistence()

    let after = LoaderStore(persistence: saved)  // "relaunched"
    let feed = after.loader(for: ["feed"]) { ["c"] }
    XCTAssertEqual(feed.state, .loaded(["a", "b"]))
  }

  func testARelaunchOfflineKeepsTheSavedFeedOnScreenAndSaysItWaits() async throws {
    let saved = StorePersistence.inMemory(version: "1")
    let before = LoaderStore(persistence: saved)
    await before.loader(for: ["feed"]) { ["a", "b"] }.load()
    await before.flushPersistence()
    let connectivity = Connectivity(isOnline: false)
    var calls = 0

    let after = LoaderStore(persistence: saved, connectivity: connectivity)  // relaunched offline
    let feed = after.loader(for: ["feed"]) {  // the saved feed, stale
      calls += 1
      return ["c"]
    }
    let refresh = Task { await feed.load() }  // refreshes silently: the feed stays
    try await connectivity.waiters(count: 1)
    let presentation = LoadingPresentation(
      state: feed.state, isRunning: feed.isRunning,
      isWaitingForNetwork: feed.isWaitingForNetwork, canRetry: true)
    guard case .content(["a", "b"]) = presentation.phase else {
      return XCTFail("the saved feed left the screen: \(presentation.phase)")
    }
    XCTAssertEqual(presentation.waitingText, "Waiting for the network")
    XCTAssertTrue(presentation.isRefreshing)
    XCTAssertEqual(calls, 0, "fetched while offline")

    connectivity.goOnline()
    _ = await refresh.value
    let online = LoadingPresentation(
      state: feed.state, isRunning: feed.isRunning,
      isWaitingForNetwork: feed.isWaitingForNetwork, canRetry: true)
    guard case .content(["c"]) = online.phase else { return XCTFail("\(online.phase)") }
    XCTAssertNil(online.waitingText)
  }

  func testAFeedSavedAnHourAgoIsStaleAndOneSavedAMinuteAgoIsFresh() async {
    let saved = StorePersistence.inMemory(version: "1")
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let before = LoaderStore(clock: ManualClock(), persistence: saved, startDate: start)
    await before.loader(for: ["feed"]) { ["saved"] }.load()
    await before.flushPersistence()

    for (elapsed, stale) in [(3_600.0, true), (60.0, false)] {
      let after = LoaderStore(
        clock: ManualClock(), persistence: saved, startDate: start.addingTimeInterval(elapsed))
      let feed = after.loader(for: ["feed"], staleTime: .seconds(300)) { ["new"] }
      XCTAssertEqual(feed.isStale, stale, "saved \(elapsed) s ago")
      XCTAssertEqual(feed.fetchedAt, start)
    }
  }

  func testAnEditEnqueuedOfflineShowsAtOnceSurvivesARelaunchAndIsSentOnce() async throws {
    let saved = StorePersistence.inMemory(version: "1")
    let api = API()
    let offline = Loadables.Connectivity(isOnline: true)

    let store = LoaderStore(persistence: saved, connectivity: offline)
    store.register(RenamePost.self) { edit, context in
      api.rename(edit.id, to: edit.title, idempotencyKey: context.idempotencyKey)
    }
    let post = store.loader(for: ["posts", 42]) { try api.post(42) }
    await post.load()
    await store.flushPersistence()  // yesterday's fetch, long on disk
    offline.goOffline()  // on the train
    store.edit(RenamePost(id: 42, title: "Offline"))
    XCTAssertEqual(post.state.data?.title, "Offline", "the change did not show at once")
    XCTAssertEqual(store.outbox.pendingCount, 1)

    // The app is killed on the train; the next launch is still offline.
    let relaunched = LoaderStore(persistence: saved, connectivity: offline)
    relaunched.register(RenamePost.self) { edit, context in
      api.rename(edit.id, to: edit.title, idempotencyKey: context.idempotencyKey)
    }
    let again = relaunched.loader(for: ["posts", 42]) { try api.post(42) }
    XCTAssertEqual(again.state.data?.title, "Offline", "the pending change was not laid again")
    XCTAssertEqual(relaunched.outbox.pendingCount, 1)

    offline.goOnline()
    await store.outbox.untilIdle()
    await relaunched.outbox.untilIdle()
    XCTAssertEqual(api.renames, 1, "the edit was applied \(api.renames) times")
    XCTAssertEqual(api.posts[42]?.title, "Offline")
    XCTAssertEqual(relaunched.outbox.pendingCount, 0)
  }

  // The article's row text, as written.
  func syncMessage(for item: OutboxItem) -> String {
    switch item.status {
    case .ready, .sending:
      "Syncing…"
    case .waitingForNetwork:
      "Waiting for the network"
    case .backingOff(let attempt, let nextTry):
      "Attempt \(attempt) failed, trying again at "
        + nextTry.formatted(date: .omitted, time: .shortened)
    case .waitingBehind:
      "Waiting for an earlier change"
    case .waitingToSave:
      "Not saved yet: the disk is full"
    case .waitingForHandler:
      "This version of the app cannot send it"
    case .failed(let reason):
      "Failed: \(reason)"
    }
  }

  struct LikePost: OutboxEdit {
    static let name = "LikePost"
    let id: Int
    var scope: LoadKey { ["likes", id] }
  }

  func testEachRowSaysWhyItsEditHasNotSynced() async throws {
    let api = API()
    let clock = ManualClock()
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let connectivity = Loadables.Connectivity(isOnline: false)
    let store = LoaderStore(clock: clock, connectivity: connectivity, startDate: start)
    let firstSend = Gate<Void>()
    var sends = 0
    store.register(RenamePost.self, backoff: .constant(.seconds(30))) { edit, context in
      sends += 1
      if sends == 1 {
        try await firstSend.pass()
        throw URLError(.timedOut)
      }
      if edit.title == "Refused" { throw OutboxFailure.permanent(URLError(.badServerResponse)) }
      api.rename(edit.id, to: edit.title, idempotencyKey: context.idempotencyKey)
    }
    func messages() -> [String] { store.outbox.items.map { syncMessage(for: $0) } }

    store.edit(RenamePost(id: 42, title: "Offline"))
    store.edit(RenamePost(id: 42, title: "Refused"))
    store.edit(LikePost(id: 42))  // no handler registered for it
    XCTAssertEqual(
      messages(),
      [
        "Waiting for the network", "Waiting for an earlier change",
        "This version of the app cannot send it",
      ])

    connectivity.goOnline()
    await firstSend.arrival()
    XCTAssertEqual(messages().first, "Syncing…")
    firstSend.open()
    try await clock.sleepers(count: 1)
    let nextTry = start.addingTimeInterval(30)
    XCTAssertEqual(
      messages().first,
      "Attempt 1 failed, trying again at \(nextTry.formatted(date: .omitted, time: .shortened))")

    clock.advance(by: .seconds(30))
    try await waitUntil("the refused edit fails", seen: "\(store.outbox.items)") {
      store.outbox.failedCount == 1
    }
    XCTAssertEqual(api.posts[42]?.title, "Offline")
    XCTAssertEqual(
      messages(),
      [
        "Failed: \(URLError(.badServerResponse))",
        "This version of the app cannot send it",
      ])
  }
}

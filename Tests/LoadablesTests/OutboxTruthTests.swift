import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// The outbox tells the truth: an edit that can never be sent is reported and does not hold
/// up `untilIdle()`; `isIdle`, `untilIdle()` and `pendingCount` agree; items are typed. Pins
/// what Working Offline ("The next launch") and Sharing State ("Logging out") promise.
@MainActor
final class OutboxTruthTests: XCTestCase {
  func testWorkingOfflineAnEditOfAnUnregisteredTypeAloneIsReportedInIssues() async throws {
    let store = LoaderStore()
    let id = store.edit(ArchivePost(id: 1)).id
    try await waitUntil("the edit with no handler is reported", seen: "\(store.outbox.issues)") {
      store.outbox.issues.contains { $0.kind == .noHandler && $0.itemID == id }
    }
    XCTAssertEqual(store.outbox.items.map(\.status), [.waitingForHandler])
    XCTAssertEqual(store.outbox.issues.count, 1, "reported more than once")
  }

  func testWorkingOfflineARestoredEditWhoseTypeIsNeverRegisteredIsReported() async throws {
    let url = temporaryDirectory()
    do {
      let before = LoaderStore(
        persistence: .directory(url, version: "1"),
        connectivity: Loadables.Connectivity(isOnline: false))
      before.register(RenamePost.self) { _, _ in }
      before.edit(RenamePost(id: 1, title: "mine"))
    }
    let after = LoaderStore(persistence: .directory(url, version: "1"))
    after.register(LikePost.self) { _, _ in }  // a version that renamed RenamePost
    let item = try XCTUnwrap(after.outbox.items.first)
    XCTAssertNil(item.scopeKey, "the scope of an edit not read back is not known")
    XCTAssertEqual(item.edit(as: RenamePost.self), RenamePost(id: 1, title: "mine"))
    try await waitUntil("the restored edit is reported", seen: "\(after.outbox.issues)") {
      after.outbox.issues.contains { $0.kind == .noHandler && $0.itemID == item.id }
    }
    XCTAssertEqual(after.outbox.items.count, 1, "an edit with no handler was dropped")
  }

  func testARegisteredTypeIsNotReported() async throws {
    let store = LoaderStore()
    store.edit(ArchivePost(id: 1))
    store.register(ArchivePost.self) { _, _ in }  // in the same turn: not reported
    try await withDeadline { await store.outbox.untilIdle() }
    let before = store.outbox.issues
    for _ in 0..<10 { await Task.yield() }
    XCTAssertEqual(before, [])
    XCTAssertEqual(store.outbox.issues, [])
  }

  func testIdleAndPendingCountAgreeAndUntilIdleNeverWaitsForAStuckEdit() async throws {
    let server = PostServer()
    let store = LoaderStore()
    store.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    let stuck = store.edit(ArchivePost(id: 1)).id
    let behind = store.edit(RenamePost(id: 1, title: "behind"))
    store.edit(RenamePost(id: 2, title: "other"))

    XCTAssertEqual(
      store.outbox.items.map(\.status), [.waitingForHandler, .waitingBehind(stuck), .ready],
      "the edit holding another up is not named")
    XCTAssertEqual(store.outbox.pendingCount, 1)
    XCTAssertEqual(store.outbox.stuckCount, 2)
    XCTAssertFalse(store.outbox.isIdle)

    try await withDeadline { await store.outbox.untilIdle() }
    XCTAssertEqual(server.calls.map(\.title), ["other"], "untilIdle returned before a send")
    XCTAssertTrue(store.outbox.isIdle)
    XCTAssertEqual(store.outbox.pendingCount, 0, "isIdle and pendingCount disagree")
    XCTAssertEqual(store.outbox.stuckCount, 2)
    XCTAssertTrue(store.outbox.issues.contains { $0.kind == .noHandler && $0.itemID == stuck })

    // Registered at last, the stuck edits are sent: pending again until they are.
    store.register(ArchivePost.self) { _, _ in }
    XCTAssertEqual(store.outbox.stuckCount, 0)
    let outcome = try await withDeadline { await behind.outcome() }
    XCTAssertTrue(outcome.isCommitted, "saw \(outcome)")
  }

  func testSharingStateLogoutWaitsForWhatCanBeSentAndKeepsStuckEdits() async throws {
    let server = PostServer()
    let store = LoaderStore()
    store.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    store.edit(RenamePost(id: 1, title: "sent first"))
    let stuck = store.edit(ArchivePost(id: 2)).id

    // The recipe: send what can be sent, then remove; what cannot be sent is kept and listed.
    try await withDeadline { await store.outbox.untilIdle() }
    let removal = store.remove(["posts"])
    XCTAssertEqual(server.calls.map(\.title), ["sent first"])
    XCTAssertEqual(removal.keptEdits, [stuck])
    let discarded = store.remove(["posts"], pendingEdits: .discard)
    XCTAssertEqual(discarded.discardedEdits.map(\.id), [stuck])
    XCTAssertTrue(store.outbox.items.isEmpty)
  }

  func testAnItemIsTypedByItsScopeKeyAndItsEdit() {
    let store = LoaderStore(connectivity: Loadables.Connectivity(isOnline: false))
    store.register(RenamePost.self) { _, _ in }
    store.edit(RenamePost(id: 7, title: "mine"))
    let item = store.outbox.items.first { $0.scopeKey == ["posts", 7] }
    XCTAssertEqual(item?.edit(as: RenamePost.self), RenamePost(id: 7, title: "mine"))
    XCTAssertNil(item?.edit(as: LikePost.self))
  }
}

/// An edit type the tests never register (an app that renamed it).
struct ArchivePost: OutboxEdit {
  static let name = "ArchivePost"
  var id: Int
  var scope: LoadKey { ["posts", id] }
}

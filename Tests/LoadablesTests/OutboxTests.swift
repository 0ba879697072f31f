import Foundation
import Loadables
import LoadablesTesting
import Observation
import XCTest

/// The outbox of a `LoaderStore`: edits as values, saved before they are sent, sent in order
/// within their scope, their optimistic changes laid over newer values until they commit,
/// restored after a relaunch.
@MainActor
final class OutboxTests: XCTestCase {
  // MARK: - Enqueueing and sending

  func testAnEnqueuedChangeShowsAtOnceAndCommitsWhenSent() async throws {
    let server = PostServer()
    let store = LoaderStore()
    let post = server.entry(1, in: store)
    await post.load()
    let sent = Gate<Void>()
    store.register(RenamePost.self) { edit, context in
      try await server.rename(edit, context, waitingAt: sent)
    }

    let id = store.edit(RenamePost(id: 1, title: "mine")).id
    XCTAssertEqual(post.state.data?.title, "mine", "the change did not show at once")
    XCTAssertEqual(store.outbox.pendingCount, 1)
    await sent.arrival()
    XCTAssertEqual(store.outbox.items.map(\.status), [.sending])
    XCTAssertEqual(store.outbox.items.first?.id, id)
    XCTAssertEqual(server.calls.first?.attempt, 1)

    server.title = "mine"  // the server applies it
    sent.open()
    try await waitUntil("the outbox empties", seen: "\(store.outbox.items)") {
      store.outbox.items.isEmpty
    }
    await store.outbox.untilIdle()
    XCTAssertEqual(post.state.data?.title, "mine", "the committed change left the screen")
    XCTAssertTrue(post.isStale, "the edit's invalidates were not invalidated after it committed")
    XCTAssertEqual(store.outbox.pendingCount, 0)
  }

  func testAPendingEditStaysOverABackgroundRefresh() async throws {
    let server = PostServer()
    let store = LoaderStore(connectivity: Loadables.Connectivity(isOnline: false))
    let post = server.entry(1, in: store)
    await post.load()
    store.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    store.edit(RenamePost(id: 1, title: "mine"))

    server.body = "a newer body"
    await post.refresh()
    XCTAssertEqual(post.state.data, OutboxPost(id: 1, title: "mine", body: "a newer body"))
    store.invalidate(["posts"])
    await post.load()
    XCTAssertEqual(post.state.data?.title, "mine", "an invalidation made the pending change go")
    XCTAssertEqual(store.outbox.pendingCount, 1)
  }

  func testEditsOfOneScopeSendInOrderAndScopesInParallel() async throws {
    let server = PostServer()
    let store = LoaderStore()
    let gates = [Gate<Void>(), Gate<Void>(), Gate<Void>()]
    store.register(RenamePost.self) { edit, context in
      let index = ["a1", "a2", "b1"].firstIndex(of: edit.title) ?? 0
      try await server.rename(edit, context, waitingAt: gates[index])
    }
    let a1 = store.edit(RenamePost(id: 1, title: "a1")).id
    store.edit(RenamePost(id: 1, title: "a2"))
    store.edit(RenamePost(id: 2, title: "b1"))

    await gates[0].arrival()
    await gates[2].arrival()  // the other scope did not wait for the first
    XCTAssertEqual(
      gates[1].arrived, 0, "the second edit of a scope was sent before the first ended")
    XCTAssertEqual(
      store.outbox.items.map(\.status), [.sending, .waitingBehind(a1), .sending],
      "two scopes did not send in parallel")
    gates[0].open()
    await gates[1].arrival()
    gates[1].open()
    gates[2].open()
    try await waitUntil("every edit is sent", seen: "\(store.outbox.items)") {
      store.outbox.isIdle
    }
    XCTAssertEqual(server.calls.map(\.title), ["a1", "b1", "a2"])
  }

  func testSendingWaitsForTheNetworkAndSpendsNoAttempt() async throws {
    let server = PostServer()
    let connectivity = Loadables.Connectivity(isOnline: false)
    let store = LoaderStore(connectivity: connectivity)
    store.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    store.edit(RenamePost(id: 1, title: "mine"))

    try await waitUntil("the outbox waits for the network") { connectivity.waitingCount == 1 }
    XCTAssertTrue(server.calls.isEmpty, "an edit was sent while offline")
    XCTAssertEqual(store.outbox.items.first?.attempt, 0)
    connectivity.update(isOnline: true)
    try await waitUntil("the edit is sent", seen: "\(store.outbox.items)") { store.outbox.isIdle }
    XCTAssertEqual(server.calls.map(\.attempt), [1])
  }

  func testATransientFailureIsSentAgainAfterTheBackoffOnTheStoreClock() async throws {
    let clock = ManualClock()
    let server = PostServer()
    let start = Date(timeIntervalSince1970: 1_000_000)
    let store = LoaderStore(clock: clock, startDate: start)
    server.failures = [TestError(code: 503)]
    store.register(RenamePost.self, backoff: .constant(.seconds(7))) { edit, context in
      try await server.rename(edit, context)
    }
    store.edit(RenamePost(id: 1, title: "mine"))

    try await waitUntil(
      "the backoff after the first failure",
      seen: "\(store.outbox.items), sleepers \(clock.sleeperDeadlines)"
    ) {
      store.outbox.items.first?.lastError != nil && clock.sleeperDeadlines.contains(.seconds(7))
    }
    XCTAssertEqual(server.calls.count, 1)
    XCTAssertEqual(
      store.outbox.items.first?.status,
      .backingOff(attempt: 1, nextTry: start.addingTimeInterval(7)))
    clock.advance(by: .seconds(7))
    try await waitUntil("the second attempt", seen: "\(store.outbox.items)") {
      store.outbox.isIdle
    }
    XCTAssertEqual(server.calls.map(\.attempt), [1, 2])
    XCTAssertEqual(
      server.calls[0].idempotencyKey, server.calls[1].idempotencyKey,
      "a resend carried another idempotency key")
  }

  func testAChangeIsLaidOverAnEntryMadeWhileTheEditWaits() async throws {
    let server = PostServer()
    let store = LoaderStore(connectivity: Loadables.Connectivity(isOnline: false))
    store.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    store.edit(RenamePost(id: 1, title: "mine"))

    let post = server.entry(1, in: store)  // no entry held the post when the edit was made
    await post.load()
    XCTAssertEqual(post.state.data?.title, "mine", "the waiting edit skipped a new entry")
    let other = server.entry(2, in: store)
    await other.load()
    XCTAssertEqual(other.state.data?.title, "old", "an edit was laid over an entry of another key")
    server.body = "newer"
    await post.refresh()
    XCTAssertEqual(post.state.data, OutboxPost(id: 1, title: "mine", body: "newer"))
  }

  func testAFailedPlainEditNeverUndoesAQueuedOne() async throws {
    let server = PostServer()
    let store = LoaderStore(connectivity: Loadables.Connectivity(isOnline: false))
    let post = server.entry(1, in: store)
    await post.load()
    store.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    store.edit(RenamePost(id: 1, title: "queued"))
    _ = try? await store.edit {
      $0.update(post) { $0.body = "edited" }
    } perform: {
      throw TestError(code: 1)
    }
    XCTAssertEqual(post.state.data, OutboxPost(id: 1, title: "queued", body: "body"))
  }

  func testTheOutboxTellsObserversWhenItsItemsChange() async throws {
    let store = LoaderStore(connectivity: Loadables.Connectivity(isOnline: false))
    let changes = ChangeFlag()
    withObservationTracking {
      _ = store.outbox.pendingCount
    } onChange: {
      changes.set()
    }
    store.edit(RenamePost(id: 1, title: "mine"))
    XCTAssertTrue(changes.isSet, "enqueueing did not tell an observer of pendingCount")
    XCTAssertEqual(store.outbox.stuckCount, 1, "an edit with no handler is stuck, not pending")
  }

  // MARK: - Permanent failure

  func testAPermanentFailureRollsBackAndStaysUntilRetried() async throws {
    let server = PostServer()
    let store = LoaderStore()
    let post = server.entry(1, in: store)
    await post.load()
    server.failures = [OutboxFailure.permanent(TestError(code: 422))]
    store.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    let id = store.edit(RenamePost(id: 1, title: "mine")).id
    try await waitUntil("the edit fails", seen: "\(store.outbox.items)") {
      store.outbox.failedCount == 1
    }
    XCTAssertEqual(post.state.data?.title, "old", "a permanent failure did not roll back")
    XCTAssertEqual(store.outbox.pendingCount, 0)
    guard case .failed(let reason) = store.outbox.items.first?.status else {
      return XCTFail("the failed edit left the outbox: \(store.outbox.items)")
    }
    XCTAssertTrue(reason.contains("422"), reason)

    XCTAssertTrue(store.outbox.retry(id))
    XCTAssertEqual(post.state.data?.title, "mine", "a retry did not show the change again")
    try await waitUntil("the retried edit is sent", seen: "\(store.outbox.items)") {
      store.outbox.items.isEmpty
    }
    XCTAssertEqual(server.calls.count, 2)
    XCTAssertNotEqual(
      server.calls[0].idempotencyKey, server.calls[1].idempotencyKey,
      "a retry after a permanent failure reused the refused key")
    XCTAssertFalse(store.outbox.retry(id), "a sent edit could be retried")
  }

  func testDiscardingAnEditRollsItBackAndForgetsItAcrossARelaunch() async throws {
    let saved = StorePersistence.inMemory(version: "1")
    let server = PostServer()
    let store = LoaderStore(
      persistence: saved, connectivity: Loadables.Connectivity(isOnline: false))
    let post = server.entry(1, in: store)
    await post.load()
    store.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    let id = store.edit(RenamePost(id: 1, title: "mine")).id
    store.edit(RenamePost(id: 1, title: "later"))  // an overlapping later edit stays
    XCTAssertEqual(post.state.data?.title, "later")

    XCTAssertTrue(store.outbox.discard(id))
    XCTAssertEqual(post.state.data?.title, "later", "discarding an edit undid a later one")
    XCTAssertEqual(store.outbox.items.map(\.scopeKey), [["posts", 1]])
    XCTAssertFalse(store.outbox.discard(id), "an edit was discarded twice")

    let relaunched = LoaderStore(
      persistence: saved, connectivity: Loadables.Connectivity(isOnline: false))
    XCTAssertEqual(relaunched.outbox.items.count, 1, "a discarded edit came back after a relaunch")
  }

  // MARK: - Relaunch

  func testARelaunchRestoresPendingEditsOverEntriesMadeLaterAndSendsThem() async throws {
    let saved = StorePersistence.inMemory(version: "1")
    let server = PostServer()
    do {
      let before = LoaderStore(
        persistence: saved, connectivity: Loadables.Connectivity(isOnline: false))
      before.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
      before.edit(RenamePost(id: 1, title: "first"))
      before.edit(RenamePost(id: 1, title: "second"))
      before.edit(RenamePost(id: 2, title: "other"))
    }

    let offline = Loadables.Connectivity(isOnline: false)
    let after = LoaderStore(persistence: saved, connectivity: offline)
    XCTAssertEqual(after.outbox.items.map(\.status), Array(repeating: .waitingForHandler, count: 3))
    XCTAssertEqual(after.outbox.stuckCount, 3)
    after.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    let first = after.outbox.items[0].id
    XCTAssertEqual(
      after.outbox.items.map(\.status),
      [.waitingForNetwork, .waitingBehind(first), .waitingForNetwork])

    let post = server.entry(1, in: after)  // made after the restore
    await post.load()
    XCTAssertEqual(
      post.state.data?.title, "second", "restored edits were not laid over a new entry")
    server.body = "newer"
    await post.refresh()
    XCTAssertEqual(post.state.data, OutboxPost(id: 1, title: "second", body: "newer"))

    offline.update(isOnline: true)
    try await waitUntil("the restored edits are sent", seen: "\(after.outbox.items)") {
      after.outbox.items.isEmpty
    }
    let scopeOne = server.calls.filter { $0.id == 1 }.map(\.title)
    XCTAssertEqual(scopeOne, ["first", "second"], "a scope's restored edits went out of order")
    XCTAssertEqual(server.calls.count, 3)
  }

  func testTheIdempotencyKeyIsStableAcrossARelaunch() async throws {
    let saved = StorePersistence.inMemory(version: "1")
    let server = PostServer()
    server.failures = [TestError(code: 503)]
    let clock = ManualClock()
    let before = LoaderStore(clock: clock, persistence: saved)
    before.register(RenamePost.self, backoff: .constant(.seconds(60))) { edit, context in
      try await server.rename(edit, context)
    }
    before.edit(RenamePost(id: 1, title: "mine"))
    try await waitUntil("the first attempt fails", seen: "\(before.outbox.items)") {
      before.outbox.items.first?.lastError != nil
    }

    // The app is killed in the backoff; the next launch sends the same edit again.
    let after = LoaderStore(clock: ManualClock(), persistence: saved)
    after.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    try await waitUntil("the restored edit is sent", seen: "\(after.outbox.items)") {
      after.outbox.items.isEmpty
    }
    XCTAssertEqual(server.calls.count, 2)
    XCTAssertEqual(
      server.calls[0].idempotencyKey, server.calls[1].idempotencyKey,
      "the idempotency key changed across a relaunch")
    XCTAssertEqual(Set(server.applied.keys).count, 1, "the server applied the edit twice")
  }

  func testARestoredEditWithNoHandlerStaysAndIsReported() async throws {
    let saved = StorePersistence.inMemory(version: "1")
    let server = PostServer()
    do {
      let before = LoaderStore(
        persistence: saved, connectivity: Loadables.Connectivity(isOnline: false))
      before.edit(RenamePost(id: 1, title: "mine"))
    }
    let after = LoaderStore(persistence: saved)
    after.register(LikePost.self) { edit, _ in server.likes.append(edit.id) }
    after.edit(LikePost(id: 1))  // same scope: waits behind the unhandled edit

    try await waitUntil("the missing handler is reported", seen: "\(after.outbox.issues)") {
      after.outbox.issues.contains { $0.kind == .noHandler }
    }
    XCTAssertEqual(after.outbox.items.map(\.name), ["RenamePost", "LikePost"])
    XCTAssertEqual(
      after.outbox.items.map(\.status),
      [.waitingForHandler, .waitingBehind(after.outbox.items[0].id)])
    XCTAssertTrue(server.likes.isEmpty, "a later edit overtook one waiting for its handler")

    after.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    try await waitUntil("both are sent", seen: "\(after.outbox.items)") {
      after.outbox.items.isEmpty
    }
    XCTAssertEqual(server.calls.map(\.title), ["mine"])
    XCTAssertEqual(server.likes, [1])
  }

  func testRegisteringLaysRestoredChangesOverEntriesThatExistAlready() async throws {
    let saved = StorePersistence.inMemory(version: "1")
    let server = PostServer()
    do {
      let before = LoaderStore(
        persistence: saved, connectivity: Loadables.Connectivity(isOnline: false))
      before.edit(RenamePost(id: 1, title: "mine"))
    }
    let after = LoaderStore(
      persistence: saved, connectivity: Loadables.Connectivity(isOnline: false))
    let post = server.entry(1, in: after)
    await post.load()
    XCTAssertEqual(post.state.data?.title, "old", "a change showed before its type was known")
    after.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    XCTAssertEqual(post.state.data?.title, "mine", "registering did not lay the restored change")
  }

  func testAFailedEditStaysFailedAcrossARelaunch() async throws {
    let saved = StorePersistence.inMemory(version: "1")
    let server = PostServer()
    server.failures = [OutboxFailure.permanent(TestError(code: 422))]
    let before = LoaderStore(persistence: saved)
    before.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    let id = before.edit(RenamePost(id: 1, title: "mine")).id
    try await waitUntil("the edit fails", seen: "\(before.outbox.items)") {
      before.outbox.failedCount == 1
    }

    let after = LoaderStore(persistence: saved)
    after.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    let post = server.entry(1, in: after)
    await post.load()
    XCTAssertEqual(post.state.data?.title, "old", "a failed edit's change was laid over again")
    XCTAssertEqual(after.outbox.failedCount, 1)
    XCTAssertEqual(after.outbox.items.first?.id, id)
    XCTAssertTrue(after.outbox.retry(id))
    try await waitUntil("the retried edit is sent", seen: "\(after.outbox.items)") {
      after.outbox.items.isEmpty
    }
    XCTAssertEqual(server.applied.count, 1)
  }

  func testTheDirectoryBackendKeepsQueuedEditsAcrossAnAppUpdate() async throws {
    let url = temporaryDirectory("outbox")
    let server = PostServer()
    do {
      let before = LoaderStore(
        persistence: .directory(url, version: "1", maxAge: .seconds(1), byteBudget: 1),
        connectivity: Loadables.Connectivity(isOnline: false))
      before.edit(RenamePost(id: 1, title: "first"))
      before.edit(RenamePost(id: 1, title: "second"))
    }
    // A new version, an age and a budget that every saved entry is beyond: no queued edit
    // is dropped for them.
    let after = LoaderStore(
      persistence: .directory(url, version: "2", maxAge: .seconds(1), byteBudget: 1))
    XCTAssertEqual(after.outbox.items.count, 2, "an app update or a budget dropped queued edits")
    after.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    try await waitUntil("the edits are sent", seen: "\(after.outbox.items)") {
      after.outbox.items.isEmpty
    }
    XCTAssertEqual(server.calls.map(\.title), ["first", "second"])
    let third = LoaderStore(persistence: .directory(url, version: "2"))
    XCTAssertTrue(third.outbox.items.isEmpty, "a sent edit's record stayed")
  }

  func testUntilIdleReturnsOnceEveryEditIsSent() async throws {
    let server = PostServer()
    let store = LoaderStore()
    let gate = Gate<Void>()
    store.register(RenamePost.self) { edit, context in
      try await server.rename(edit, context, waitingAt: gate)
    }
    store.edit(RenamePost(id: 1, title: "mine"))
    XCTAssertFalse(store.outbox.isIdle)
    let idle = Task { await store.outbox.untilIdle() }
    await gate.arrival()
    gate.open()
    await idle.value
    XCTAssertTrue(store.outbox.isIdle)
    XCTAssertEqual(server.calls.count, 1)
  }
}

// MARK: - Support

/// A flag an observation's `onChange` sets from any thread.
final class ChangeFlag: @unchecked Sendable {
  // Safe: `value` is read and written only while holding `lock`.
  private let lock = NSLock()
  private var value = false
  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}

struct OutboxPost: Codable, Equatable, Sendable {
  var id: Int
  var title: String
  var body: String
}

/// Renames a post: the edit the tests enqueue.
struct RenamePost: OutboxEdit, Equatable {
  static let name = "RenamePost"
  var id: Int
  var title: String

  var scope: LoadKey { ["posts", id] }
  var invalidates: [LoadKey] { [["posts", id]] }

  func applyOptimistically(to edit: inout SharedEdit, in store: LoaderStore) {
    edit.update(matching: ["posts", id], in: store, as: OutboxPost.self) { $0.title = title }
  }
}

/// Likes a post: an edit with no optimistic change, sharing `RenamePost`'s scope.
struct LikePost: OutboxEdit {
  static let name = "LikePost"
  var id: Int
  var scope: LoadKey { ["posts", id] }
}

/// A server that applies renames by idempotency key and records every call.
@MainActor
final class PostServer {
  var title = "old"
  var body = "body"
  /// Errors the next calls throw, first first.
  var failures: [any Error] = []
  var calls: [(id: Int, title: String, idempotencyKey: String, attempt: Int)] = []
  /// The renames applied, by idempotency key.
  var applied: [String: RenamePost] = [:]
  var likes: [Int] = []

  /// The post's entry. Its fetch does not wait for the network: these tests take the
  /// store offline to hold the outbox's sends, and read the server's posts meanwhile.
  func entry(_ id: Int, in store: LoaderStore) -> SharedLoader<OutboxPost> {
    store.loader(for: ["posts", id], waitsForNetwork: false) {
      OutboxPost(id: id, title: self.title, body: self.body)
    }
  }

  func rename(_ edit: RenamePost, _ context: OutboxContext, waitingAt gate: Gate<Void>? = nil)
    async throws
  {
    calls.append((edit.id, edit.title, context.idempotencyKey, context.attempt))
    try await gate?.pass()
    if !failures.isEmpty { throw failures.removeFirst() }
    applied[context.idempotencyKey] = edit
  }
}

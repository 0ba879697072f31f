import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// One edit, one API (`store.edit(_:delivery:)`): every edit hands back a `EditTicket` whose
/// outcome a caller awaits, directly or inside a `@Process` run. Working Offline and Sharing
/// State describe it.
@MainActor
final class OneEditTests: XCTestCase {
  // MARK: - Outcomes

  func testAnEditThatIsSentCommits() async throws {
    let server = PostServer()
    let store = LoaderStore()
    let post = server.entry(1, in: store)
    await post.load()
    store.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }

    let pending = store.edit(RenamePost(id: 1, title: "mine"))
    XCTAssertEqual(store.outbox.items.map(\.id), [pending.id])
    let outcome = try await outcomeOf(pending)
    XCTAssertTrue(outcome.isCommitted, "saw \(outcome)")
    XCTAssertEqual(post.state.data?.title, "mine")
    XCTAssertEqual(server.calls.count, 1)
  }

  func testAnEditThatFailsForGoodReportsFailedAndStays() async throws {
    let server = PostServer()
    server.failures = [OutboxFailure.permanent(Refused())]
    let store = LoaderStore()
    let post = server.entry(1, in: store)
    await post.load()
    store.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }

    let pending = store.edit(RenamePost(id: 1, title: "mine"))
    let outcome = try await outcomeOf(pending)
    guard case .failed(let error) = outcome else { return XCTFail("saw \(outcome)") }
    XCTAssertTrue(error is Refused, "saw \(error)")
    XCTAssertEqual(post.state.data?.title, "old", "the failed change was not rolled back")
    XCTAssertEqual(store.outbox.items.map(\.status.isFailed), [true], "the failed edit left")
  }

  func testAnEditSentNowThatFailsRollsBackAndLeaves() async throws {
    let server = PostServer()
    server.failures = [Transient()]
    let store = LoaderStore()
    let post = server.entry(1, in: store)
    await post.load()
    store.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }

    let pending = store.edit(RenamePost(id: 1, title: "mine"), delivery: .now)
    let outcome = try await outcomeOf(pending)
    guard case .rolledBack(let error) = outcome else { return XCTFail("saw \(outcome)") }
    XCTAssertTrue(error is Transient, "saw \(error)")
    XCTAssertEqual(post.state.data?.title, "old", "the change was not rolled back")
    XCTAssertEqual(server.calls.count, 1, "an edit sent now was sent again")
    XCTAssertTrue(store.outbox.items.isEmpty, "an edit sent now stayed: \(store.outbox.items)")
  }

  func testAnEditSentNowWhileOfflineRollsBackWithoutBeingSaved() async throws {
    let server = PostServer()
    let url = temporaryDirectory()
    let store = LoaderStore(
      persistence: .directory(url, version: "1"),
      connectivity: Loadables.Connectivity(isOnline: false))
    store.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }

    let pending = store.edit(RenamePost(id: 1, title: "mine"), delivery: .now)
    let outcome = try await outcomeOf(pending, until: .queued)
    guard case .rolledBack(let error) = outcome else { return XCTFail("saw \(outcome)") }
    XCTAssertTrue(error is EditOffline, "saw \(error)")
    XCTAssertTrue(server.calls.isEmpty)
    let relaunched = LoaderStore(persistence: .directory(url, version: "1"))
    XCTAssertTrue(relaunched.outbox.items.isEmpty, "an edit sent now was saved")
  }

  func testADiscardedEditReportsDiscarded() async throws {
    let store = LoaderStore(connectivity: Loadables.Connectivity(isOnline: false))
    store.register(RenamePost.self) { _, _ in }
    let pending = store.edit(RenamePost(id: 1, title: "mine"))
    XCTAssertTrue(store.outbox.discard(pending.id))
    let outcome = try await outcomeOf(pending)
    guard case .discarded = outcome else { return XCTFail("saw \(outcome)") }
  }

  // MARK: - Driving a process

  func testAProcessRunShowsRunningThenFinishedWhenTheEditCommits() async throws {
    let server = PostServer()
    let gate = Gate<Void>()
    let model = RenameModel()
    model.store.register(RenamePost.self) { edit, context in
      try await server.rename(edit, context, waitingAt: gate)
    }
    let run = Task { await model.rename("mine") }
    await gate.arrival()
    XCTAssertTrue(model.saving.isRunning, "saw \(model.saving)")
    gate.open()
    try await waitUntil("the run ends", seen: "\(model.saving)") { !model.saving.isRunning }
    await run.value
    XCTAssertTrue(model.saving.hasFinished, "saw \(model.saving)")
  }

  func testAProcessRunFailsWithTheErrorOfAnEditThatFailedForGood() async throws {
    let server = PostServer()
    server.failures = [OutboxFailure.permanent(Refused())]
    let model = RenameModel()
    model.store.register(RenamePost.self) { edit, context in try await server.rename(edit, context)
    }
    try await finish(Task { await model.rename("mine") }, model)
    XCTAssertTrue(model.saving.error is Refused, "saw \(model.saving)")
  }

  func testAProcessRunFailsWithTheErrorOfAnEditSentNowThatRolledBack() async throws {
    let server = PostServer()
    server.failures = [Transient()]
    let model = RenameModel()
    model.store.register(RenamePost.self) { edit, context in try await server.rename(edit, context)
    }
    try await finish(Task { await model.rename("mine", delivery: .now) }, model)
    XCTAssertTrue(model.saving.error is Transient, "saw \(model.saving)")
  }

  func testAProcessRunFailsWhenItsEditIsDiscarded() async throws {
    let model = RenameModel(connectivity: Loadables.Connectivity(isOnline: false))
    model.store.register(RenamePost.self) { _, _ in }
    let run = Task { await model.rename("mine") }
    try await waitUntil("the edit is queued", seen: "\(model.store.outbox.items)") {
      model.saving.isRunning && model.store.outbox.items.count == 1
    }
    XCTAssertTrue(model.store.outbox.discard(model.store.outbox.items[0].id))
    try await finish(run, model)
    let error = model.saving.error as? EditNotCommitted
    guard case .discarded? = error?.outcome else { return XCTFail("saw \(model.saving)") }
  }

  // MARK: - Offline, then online

  func testWaitingUntilQueuedFinishesOfflineAndTheEditCommitsOnceOnline() async throws {
    let server = PostServer()
    let connectivity = Loadables.Connectivity(isOnline: false)
    let model = RenameModel(
      connectivity: connectivity, persistence: .inMemory(version: "1"))
    model.store.register(RenamePost.self) { edit, context in try await server.rename(edit, context)
    }

    try await finish(Task { await model.rename("mine", until: .queued) }, model)
    XCTAssertTrue(model.saving.hasFinished, "saw \(model.saving)")
    XCTAssertEqual(
      model.store.outbox.items.map(\.status), [.waitingForNetwork],
      "the app shows 'waiting to sync' from the outbox's items")
    XCTAssertTrue(server.calls.isEmpty)

    let pending = model.store.edit(RenamePost(id: 1, title: "later"))
    let queued = try await outcomeOf(pending, until: .queued)
    guard case .queued = queued else { return XCTFail("saw \(queued)") }
    connectivity.goOnline()
    let outcome = try await outcomeOf(pending)
    XCTAssertTrue(outcome.isCommitted, "saw \(outcome)")
    XCTAssertEqual(server.calls.map(\.title), ["mine", "later"])
  }

  // MARK: - No hang, nothing kept

  func testACancelledCallerStopsWaitingAndTheEditGoesOn() async throws {
    let store = LoaderStore(connectivity: Loadables.Connectivity(isOnline: false))
    store.register(RenamePost.self) { _, _ in }
    let pending = store.edit(RenamePost(id: 1, title: "mine"))
    let waiting = Task { try await pending.wait() }
    waiting.cancel()
    do {
      try await withDeadline { try await waiting.value }
      XCTFail("a cancelled wait returned as if committed")
    } catch is CancellationError {}
    XCTAssertEqual(store.outbox.pendingCount, 1, "cancelling the caller dropped the edit")
  }

  func testAWaitEndsWhenTheStoreGoesAwayAndTheEditIsSentAfterARelaunch() async throws {
    let url = temporaryDirectory()
    let server = PostServer()
    var store: LoaderStore? = LoaderStore(
      persistence: .directory(url, version: "1"),
      connectivity: Loadables.Connectivity(isOnline: false))
    store?.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    let pending = try XCTUnwrap(store?.edit(RenamePost(id: 1, title: "mine")))
    let waiting = Task { await pending.outcome() }
    await Task.yield()
    store = nil
    let outcome = try await withDeadline { await waiting.value }
    guard case .unfinished = outcome else { return XCTFail("saw \(outcome)") }

    // Restored at launch, the edit has no caller: it is sent, and nothing waits for it.
    let relaunched = LoaderStore(persistence: .directory(url, version: "1"))
    relaunched.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    try await waitUntil("the restored edit is sent", seen: "\(relaunched.outbox.items)") {
      relaunched.outbox.items.isEmpty
    }
    XCTAssertEqual(server.calls.map(\.title), ["mine"])
  }

  func testTheDeprecatedEnqueueStillQueuesAndReturnsTheId() async throws {
    let store = LoaderStore(connectivity: Loadables.Connectivity(isOnline: false))
    let id = deprecatedEnqueue(store, RenamePost(id: 1, title: "mine"))
    XCTAssertEqual(store.outbox.items.map(\.id), [id])
  }

  // MARK: - Support

  @available(*, deprecated)
  fileprivate func deprecatedEnqueueBody(_ store: LoaderStore, _ edit: RenamePost) -> String {
    store.enqueue(edit)
  }

  private func deprecatedEnqueue(_ store: LoaderStore, _ edit: RenamePost) -> String {
    (self as any DeprecatedCalls).deprecatedEnqueueBody(store, edit)
  }

  /// Waits for `pending`'s outcome, failing the test after five seconds.
  private func outcomeOf(
    _ pending: EditTicket, until stage: EditTicket.Stage = .ended
  ) async throws -> EditOutcome {
    try await withDeadline { await pending.outcome(until: stage) }
  }

  /// Waits for a model's run to end, failing after five seconds.
  private func finish(_ run: Task<Void, Never>, _ model: RenameModel) async throws {
    try await waitUntil("the run ends", seen: "\(model.saving)") {
      model.saving.hasFinished || model.saving.hasFailed
    }
    await run.value
  }
}

/// Calls a deprecated API without a warning at the call site (the test pins that it still
/// works).
@MainActor
private protocol DeprecatedCalls {
  func deprecatedEnqueueBody(_ store: LoaderStore, _ edit: RenamePost) -> String
}

extension OneEditTests: DeprecatedCalls {}

/// A model saving a rename through a `@Process`, as an app would.
@MainActor
final class RenameModel {
  @LoadableProcess var saving: SingleProcessState
  let store: LoaderStore

  init(
    connectivity: Loadables.Connectivity = Loadables.Connectivity(),
    persistence: StorePersistence? = nil
  ) {
    store = LoaderStore(persistence: persistence, connectivity: connectivity)
  }

  func rename(
    _ title: String, until stage: EditTicket.Stage = .ended, delivery: EditDelivery = .durable
  ) async {
    await $saving.run {
      try await self.store.edit(RenamePost(id: 1, title: title), delivery: delivery)
        .wait(until: stage)
    }
  }
}

struct Refused: Error {}
struct Transient: Error {}

/// Runs `body`, failing with a `WaitTimeout` when it takes longer than `timeout` (the body's
/// task is then cancelled).
@MainActor
func withDeadline<T: Sendable>(
  _ timeout: Duration = .seconds(5), _ body: @escaping @MainActor () async throws -> T
) async throws -> T {
  let task = Task { @MainActor in try await body() }
  let done = DoneFlag()
  let watcher = Task { @MainActor in
    _ = try? await task.value
    done.isDone = true
  }
  do {
    try await waitUntil("the awaited call returns", timeout: timeout) { done.isDone }
  } catch {
    task.cancel()
    watcher.cancel()
    throw error
  }
  return try await task.value
}

@MainActor
private final class DoneFlag {
  var isDone = false
}

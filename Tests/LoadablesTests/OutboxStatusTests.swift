import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// Why an outbox edit is not done yet: each status of `OutboxItem.Status` reached and left,
/// through the public API, with a manual connectivity, a manual clock and gates.
@MainActor
final class OutboxStatusTests: XCTestCase {
  private let start = Date(timeIntervalSince1970: 1_700_000_000)

  func testAnEditWaitsForTheNetworkSendsBacksOffAndSendsAgainAndObserversSeeEachStep()
    async throws
  {
    let clock = ManualClock()
    let connectivity = Loadables.Connectivity(isOnline: false)
    let store = LoaderStore(clock: clock, connectivity: connectivity, startDate: start)
    let sends = [Gate<Void>(), Gate<Void>()]
    var calls = 0
    store.register(RenamePost.self, backoff: .constant(.seconds(7))) { _, _ in
      calls += 1
      try await sends[calls - 1].pass()
      if calls == 1 { throw TestError(code: 503) }
    }
    let statuses = ObservationRecorder { store.outbox.items.first?.status }

    store.edit(RenamePost(id: 1, title: "mine"))
    XCTAssertEqual(store.outbox.items.first?.status, .waitingForNetwork)
    try await connectivity.waiters(count: 1)
    XCTAssertEqual(store.outbox.items.first?.attempt, 0, "waiting for the network spent one")

    connectivity.goOnline()
    await sends[0].arrival()
    XCTAssertEqual(store.outbox.items.first?.status, .sending)

    sends[0].open()
    let backingOff = OutboxItem.Status.backingOff(
      attempt: 1, nextTry: start.addingTimeInterval(7))
    try await statuses.wait(until: { $0 == backingOff })
    XCTAssertEqual(store.outbox.items.first?.lastError, "\(TestError(code: 503))")
    try await clock.sleepers(count: 1)

    clock.advance(by: .seconds(7))
    await sends[1].arrival()
    XCTAssertEqual(store.outbox.items.first?.status, .sending)
    XCTAssertEqual(store.outbox.items.first?.attempt, 2)
    sends[1].open()
    try await statuses.wait(until: { $0 == nil })

    statuses.stop()
    XCTAssertEqual(
      withoutRepeats(statuses.values),
      [nil, .waitingForNetwork, .sending, backingOff, .sending, nil],
      "an observer of the outbox missed a step")
  }

  func testAnEditOnlineIsReadyThenSending() async throws {
    let store = LoaderStore()
    let sent = Gate<Void>()
    store.register(RenamePost.self) { _, _ in try await sent.pass() }

    store.edit(RenamePost(id: 1, title: "mine"))
    XCTAssertEqual(store.outbox.items.map(\.status), [.ready])
    await sent.arrival()
    XCTAssertEqual(store.outbox.items.map(\.status), [.sending])
    sent.open()
    await store.outbox.untilIdle()
    XCTAssertTrue(store.outbox.items.isEmpty)
  }

  func testTheSecondEditOfAScopeWaitsBehindTheFirstUntilItIsSent() async throws {
    let connectivity = Loadables.Connectivity(isOnline: false)
    let store = LoaderStore(connectivity: connectivity)
    let gates = ["first": Gate<Void>(), "second": Gate<Void>(), "other": Gate<Void>()]
    store.register(RenamePost.self) { edit, _ in try await gates[edit.title]?.pass() }

    let first = store.edit(RenamePost(id: 1, title: "first")).id
    let second = store.edit(RenamePost(id: 1, title: "second")).id
    let other = store.edit(RenamePost(id: 2, title: "other")).id
    XCTAssertEqual(
      store.outbox.items.map(\.status),
      [.waitingForNetwork, .waitingBehind(first), .waitingForNetwork],
      "an edit of another scope waited behind the first")

    connectivity.goOnline()
    await gates["first"]?.arrival()
    await gates["other"]?.arrival()
    XCTAssertEqual(
      store.outbox.items.map(\.status), [.sending, .waitingBehind(first), .sending])

    gates["first"]?.open()
    await gates["second"]?.arrival()
    XCTAssertEqual(store.outbox.items.map(\.id), [second, other])
    XCTAssertEqual(store.outbox.items.map(\.status), [.sending, .sending])
    gates["second"]?.open()
    gates["other"]?.open()
    await store.outbox.untilIdle()
    XCTAssertTrue(store.outbox.items.isEmpty)
  }

  func testAnUnregisteredTypeWaitsForItsHandlerAndRegisteringItSendsIt() async throws {
    let store = LoaderStore()
    let liked = Gate<Void>()
    var likes: [Int] = []

    let id = store.edit(LikePost(id: 1)).id
    XCTAssertEqual(store.outbox.items.map(\.status), [.waitingForHandler])
    try await waitUntil("the missing handler is reported", seen: "\(store.outbox.issues)") {
      store.outbox.issues.contains { $0.kind == .noHandler && $0.itemID == id }
    }
    XCTAssertEqual(store.outbox.items.map(\.status), [.waitingForHandler])
    XCTAssertEqual(store.outbox.stuckCount, 1, "an edit waiting for its handler was dropped")

    store.register(LikePost.self) { edit, _ in
      try await liked.pass()
      likes.append(edit.id)
    }
    XCTAssertEqual(store.outbox.items.map(\.status), [.ready])
    await liked.arrival()
    XCTAssertEqual(store.outbox.items.map(\.status), [.sending])
    liked.open()
    await store.outbox.untilIdle()
    XCTAssertEqual(likes, [1])
    XCTAssertTrue(store.outbox.items.isEmpty)
  }

  func testAPermanentFailureShowsItsReasonUntilRetried() async throws {
    let store = LoaderStore()
    var refuses = true
    let resent = Gate<Void>()
    store.register(RenamePost.self) { _, _ in
      if refuses {
        refuses = false
        throw OutboxFailure.permanent(TestError(code: 422))
      }
      try await resent.pass()
    }

    let id = store.edit(RenamePost(id: 1, title: "mine")).id
    try await waitUntil("the edit fails", seen: "\(store.outbox.items)") {
      store.outbox.failedCount == 1
    }
    XCTAssertEqual(store.outbox.items.map(\.status), [.failed("\(TestError(code: 422))")])
    XCTAssertEqual(store.outbox.items.first?.status.isFailed, true)
    XCTAssertTrue(store.outbox.isIdle)

    XCTAssertTrue(store.outbox.retry(id))
    XCTAssertEqual(store.outbox.items.map(\.status), [.ready])
    XCTAssertEqual(store.outbox.items.first?.status.isFailed, false)
    await resent.arrival()
    XCTAssertEqual(store.outbox.items.map(\.status), [.sending])
    resent.open()
    await store.outbox.untilIdle()
    XCTAssertTrue(store.outbox.items.isEmpty)
  }

  func testAnEditBehindAFailedOneIsNoLongerBehindIt() async throws {
    let connectivity = Loadables.Connectivity(isOnline: false)
    let store = LoaderStore(connectivity: connectivity)
    store.register(RenamePost.self) { edit, _ in
      if edit.title == "refused" { throw OutboxFailure.permanent(TestError(code: 422)) }
    }
    let refused = store.edit(RenamePost(id: 1, title: "refused")).id
    let later = store.edit(RenamePost(id: 1, title: "later")).id
    XCTAssertEqual(store.outbox.items.map(\.status).last, .waitingBehind(refused))

    connectivity.goOnline()
    try await waitUntil("the later edit is sent", seen: "\(store.outbox.items)") {
      store.outbox.isIdle
    }
    XCTAssertEqual(store.outbox.items.map(\.id), [refused])
    XCTAssertTrue(store.outbox.discard(refused))
    XCTAssertFalse(store.outbox.discard(later), "a sent edit stayed")
  }

  func testDiscardingAnEditThatBacksOffSendsTheNextOneAtOnce() async throws {
    let clock = ManualClock()
    let store = LoaderStore(clock: clock, startDate: start)
    let sent = Gate<Void>()
    store.register(RenamePost.self, backoff: .constant(.seconds(60))) { edit, _ in
      if edit.title == "flaky" { throw TestError(code: 503) }
      try await sent.pass()
    }
    let flaky = store.edit(RenamePost(id: 1, title: "flaky")).id
    store.edit(RenamePost(id: 1, title: "next"))
    try await waitUntil("the first edit backs off", seen: "\(store.outbox.items)") {
      store.outbox.items.first?.status
        == .backingOff(attempt: 1, nextTry: start.addingTimeInterval(60))
    }
    XCTAssertEqual(store.outbox.items.last?.status, .waitingBehind(flaky))

    XCTAssertTrue(store.outbox.discard(flaky))
    await sent.arrival()  // no clock advance: the next edit did not wait out the backoff
    XCTAssertEqual(store.outbox.items.map(\.status), [.sending])
    sent.open()
    await store.outbox.untilIdle()
    XCTAssertTrue(store.outbox.items.isEmpty)
  }

  func testARetriedEditWaitsBehindTheEditItsLaneBacksOffFor() async throws {
    let clock = ManualClock()
    let store = LoaderStore(clock: clock, startDate: start)
    var failures: [any Error] = [
      OutboxFailure.permanent(TestError(code: 422)), TestError(code: 503),
    ]
    var titles: [String] = []
    store.register(RenamePost.self, backoff: .constant(.seconds(5))) { edit, _ in
      titles.append(edit.title)
      if !failures.isEmpty { throw failures.removeFirst() }
    }
    let first = store.edit(RenamePost(id: 1, title: "first")).id
    let second = store.edit(RenamePost(id: 1, title: "second")).id
    try await waitUntil("the second edit backs off", seen: "\(store.outbox.items)") {
      store.outbox.items.last?.status
        == .backingOff(attempt: 1, nextTry: start.addingTimeInterval(5))
    }

    XCTAssertTrue(store.outbox.retry(first))
    XCTAssertEqual(
      store.outbox.items.map(\.status),
      [.waitingBehind(second), .backingOff(attempt: 1, nextTry: start.addingTimeInterval(5))])
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(5))
    try await waitUntil("both are sent", seen: "\(store.outbox.items)") {
      store.outbox.items.isEmpty
    }
    XCTAssertEqual(titles, ["first", "second", "first", "second"])
  }

  private func withoutRepeats<Value: Equatable>(_ values: [Value]) -> [Value] {
    values.reduce(into: []) { kept, value in
      if kept.last != value { kept.append(value) }
    }
  }
}

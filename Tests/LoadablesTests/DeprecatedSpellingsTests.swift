import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// The 0.3 spellings that 0.4 deprecated still compile and behave as their replacements do.
///
/// The build treats warnings as errors, so the deprecated calls live in deprecated methods
/// of `V03Spellings`: inside a deprecated declaration using deprecated API is not
/// diagnosed, and the test reaches them through the protocol they satisfy, which is not.
@MainActor
final class DeprecatedSpellingsTests: XCTestCase {
  func testTheKeyPathStatusFunctionsReadWhatTheHandleReads() async throws {
    let spellings = V03Spellings.checks()
    try await spellings.checkLoadableKeyPath()
    try await spellings.checkProcessKeyPath()
    try await spellings.checkPagedKeyPath()
  }

  func testTheExactKeyStoreActionsActOnOneEntryAndSayWhetherItWasThere() async throws {
    try await V03Spellings.checks().checkExactKeyStoreActions()
  }

  func testTheStoresFetchingWordsReadItsRunningOnes() async throws {
    try await V03Spellings.checks().checkFetchingIsRunning()
  }
}

@MainActor
protocol V03SpellingChecks {
  func checkLoadableKeyPath() async throws
  func checkProcessKeyPath() async throws
  func checkPagedKeyPath() async throws
  func checkExactKeyStoreActions() async throws
  func checkFetchingIsRunning() async throws
}

@MainActor
private final class V03Model: LoadableSupport, ProcessSupport {
  var numbers: LoadableState<[Int]> = .absent
  var saving: ProcessState<Int> = .idle
  var feed = PagedState<Int, Int>()
}

private struct V03Spellings: V03SpellingChecks {
  /// The checks, seen only through the protocol.
  static func checks() -> any V03SpellingChecks { V03Spellings() }

  @available(*, deprecated, message: "calls the 0.3 spellings on purpose")
  func checkExactKeyStoreActions() async throws {
    let store = LoaderStore()
    var fetches = 0
    let parent = store.loader(for: ["posts"], staleTime: .seconds(60)) { () -> Int in
      fetches += 1
      return fetches
    }
    let child = store.loader(for: ["posts", 1], staleTime: .seconds(60)) { 100 }
    await parent.load()
    await child.load()
    XCTAssertTrue(store.invalidateEntry(["posts"]))
    XCTAssertTrue(parent.isStale)
    XCTAssertFalse(child.isStale)
    XCTAssertTrue(store.refetchEntry(["posts"]))
    await parent.load()
    XCTAssertEqual(parent.state, .loaded(2))
    XCTAssertTrue(store.resetEntry(["posts"]))
    XCTAssertEqual(parent.state, .absent)
    XCTAssertEqual(child.state, .loaded(100))
    XCTAssertTrue(store.removeEntry(["posts"]))
    XCTAssertEqual(store.keys, [["posts", 1]])
    XCTAssertFalse(store.removeEntry(["posts"]))
    XCTAssertFalse(store.invalidateEntry(["posts"]))
    XCTAssertFalse(store.refetchEntry(["posts"]))
    XCTAssertFalse(store.resetEntry(["posts"]))
  }

  @available(*, deprecated, message: "calls the 0.3 spellings on purpose")
  func checkFetchingIsRunning() async throws {
    let store = LoaderStore()
    let gate = Gate<Int>()
    let entry = store.loader(for: ["n"]) { try await gate.pass() }
    let task = entry.start()
    await gate.arrival()
    XCTAssertTrue(store.isFetching)
    XCTAssertEqual(store.fetchingCount, 1)
    let snapshot = store.snapshot()
    XCTAssertEqual(snapshot.fetchingCount, snapshot.runningCount)
    XCTAssertEqual(snapshot.entry(["n"])?.isFetching, true)
    let made = EntrySnapshot(key: ["n"], phase: .loading, staleness: .noValue, isFetching: true)
    XCTAssertTrue(made.isRunning)
    let madeStore = StoreSnapshot(
      entries: [made], outbox: [], fetchingCount: 1, isOnline: nil, isSimulatingOffline: false,
      date: Date())
    XCTAssertEqual(madeStore.runningCount, 1)
    gate.open(1)
    await task.value
    XCTAssertFalse(store.isFetching)
  }

  @available(*, deprecated, message: "calls the 0.3 spellings on purpose")
  func checkLoadableKeyPath() async throws {
    let model = V03Model()
    let handle = model.handle(\.numbers)
    let gate = Gate<[Int]>()
    let stream = model.states(\.numbers)
    let task = model.start(\.numbers, policy: .retry(maxAttempts: 2)) {
      LoadingProgress.report(fraction: 0.5)
      return try await gate.pass()
    }
    await gate.arrival()
    XCTAssertTrue(model.isRunning(\.numbers))
    XCTAssertEqual(model.isRunning(\.numbers), handle.isRunning)
    XCTAssertEqual(model.attempt(\.numbers)?.number, handle.attempt?.number)
    XCTAssertNotNil(model.attempt(\.numbers))
    XCTAssertEqual(model.progress(\.numbers), handle.progress)
    XCTAssertEqual(model.isWaitingForNetwork(\.numbers), handle.isWaitingForNetwork)
    XCTAssertFalse(model.isWaitingForNetwork(\.numbers))
    XCTAssertNil(model.refreshError(\.numbers))
    gate.open([1])
    await task.value
    XCTAssertFalse(model.isRunning(\.numbers))
    var seen: [LoadableState<[Int]>] = []
    for await state in stream {
      seen.append(state)
      if seen.count == 3 { break }
    }
    XCTAssertEqual(seen, [.absent, .loading, .loaded([1])])
  }

  @available(*, deprecated, message: "calls the 0.3 spellings on purpose")
  func checkProcessKeyPath() async throws {
    let model = V03Model()
    let gate = Gate<Void>()
    let task = model.start(\.saving, as: 1) { try await gate.pass() }
    await gate.arrival()
    XCTAssertTrue(model.isRunning(\.saving))
    XCTAssertEqual(model.isRunning(\.saving), model.handle(\.saving).isRunning)
    XCTAssertNil(model.attempt(\.saving))
    XCTAssertNil(model.progress(\.saving))
    XCTAssertFalse(model.isWaitingForNetwork(\.saving))
    gate.open()
    await task.value
    XCTAssertFalse(model.isRunning(\.saving))
    var iterator = model.states(\.saving).makeAsyncIterator()
    let current = await iterator.next()
    XCTAssertEqual(current, .finished(1))
  }

  @available(*, deprecated, message: "calls the 0.3 spellings on purpose")
  func checkPagedKeyPath() async throws {
    let model = V03Model()
    let gate = Gate<[Int]>()
    let task: Task<Void, Never> = model.load(
      \.feed, from: .numbered(pageSize: 2) { _, _ in try await gate.pass() })
    await gate.arrival()
    XCTAssertTrue(model.isRunning(\.feed))
    XCTAssertEqual(model.isRunning(\.feed), model.handle(\.feed).isRunning)
    XCTAssertNil(model.attempt(\.feed))
    XCTAssertNil(model.progress(\.feed))
    XCTAssertFalse(model.isWaitingForNetwork(\.feed))
    XCTAssertNil(model.refreshError(\.feed))
    gate.open([1, 2])
    await task.value
    XCTAssertFalse(model.isRunning(\.feed))
    var iterator = model.states(\.feed).makeAsyncIterator()
    let current = await iterator.next()
    XCTAssertEqual(current?.items, [1, 2])
  }
}

import Loadables
import LoadablesTesting
import XCTest

@MainActor
final class DedupePolicyTests: XCTestCase {
  func testConcurrentLoadsOfOneKeyShareOneFetch() async {
    let requests = Deduplicator<Int, String>()
    @Loadable var first: LoadableState<String>
    @Loadable var second: LoadableState<String>
    let gate = Gate<String>()
    var fetches = 0
    let a: Task<Void, Never> = $first.load(policy: .dedupe(requests, key: 7)) {
      fetches += 1
      return try await gate.pass()
    }
    await gate.arrival()
    let b: Task<Void, Never> = $second.load(policy: .dedupe(requests, key: 7)) {
      fetches += 1
      return "second fetch"
    }
    while requests.callerCount(for: 7) < 2 { await Task.yield() }
    gate.open("shared")
    await a.value
    await b.value
    XCTAssertEqual(fetches, 1)
    XCTAssertEqual(first, .loaded("shared"))
    XCTAssertEqual(second, .loaded("shared"))
    XCTAssertEqual(requests.inFlightCount, 0)
  }

  func testCancellingOneCallerLeavesTheFetchForTheOthers() async {
    let requests = Deduplicator<Int, String>()
    @Loadable var first: LoadableState<String>
    @Loadable var second: LoadableState<String>
    let gate = Gate<String>()
    let a: Task<Void, Never> = $first.load(policy: .dedupe(requests, key: 7)) {
      try await gate.pass()
    }
    await gate.arrival()
    let b: Task<Void, Never> = $second.load(policy: .dedupe(requests, key: 7)) { "unused" }
    while requests.callerCount(for: 7) < 2 { await Task.yield() }
    $first.cancel()
    await a.value
    XCTAssertEqual(requests.callerCount(for: 7), 1)
    gate.open("shared")
    await b.value
    XCTAssertEqual(second, .loaded("shared"))
    XCTAssertEqual(first, .loading, "the cancelled caller wrote")
  }

  func testCancellingEveryCallerCancelsTheFetch() async {
    let requests = Deduplicator<Int, String>()
    @Loadable var first: LoadableState<String>
    let gate = Gate<String>()
    let fetchEnded = Gate<Void>()
    let a: Task<Void, Never> = $first.load(policy: .dedupe(requests, key: 7)) {
      do {
        return try await gate.pass()
      } catch {
        fetchEnded.open()
        throw error
      }
    }
    await gate.arrival()
    $first.cancel()
    await a.value
    _ = try? await fetchEnded.pass()  // returns once the shared fetch saw its cancellation
    XCTAssertEqual(requests.inFlightCount, 0)
  }
}

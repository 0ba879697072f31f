import LoadablesTesting
import XCTest

@testable import Loadables

/// Value entries made one after another with the same plain policy share one engine, which
/// holds nothing of an entry's own: each entry still fetches with its own closure and
/// behaves as its own policy says.
@MainActor
final class EntryEngineSharingTests: XCTestCase {
  func testEntriesSharingAnEngineEachFetchWithTheirOwnClosure() async throws {
    let store = LoaderStore()
    let first = store.loader(for: ["posts", 1]) { "one" }
    let second = store.loader(for: ["posts", 2]) { "two" }
    let third = store.loader(for: ["posts", 3]) { "three" }
    XCTAssertTrue(first.engine === second.engine, "plain entries in a row made an engine each")
    XCTAssertTrue(second.engine === third.engine)

    await first.load()
    await second.load()
    await third.load()
    XCTAssertEqual(first.state, .loaded("one"))
    XCTAssertEqual(second.state, .loaded("two"))
    XCTAssertEqual(third.state, .loaded("three"))
    let fetched = try await second.fetch()
    XCTAssertEqual(fetched, "two", "fetch() ran another entry's closure")
  }

  func testAnEntryWhosePolicyDiffersGetsAnEngineOfItsOwn() async {
    let store = LoaderStore()
    let plain = store.loader(for: ["a"]) { 1 }
    let keeping = store.loader(for: ["b"], policy: .keepValueOnFailure()) { 2 }
    let retrying = store.loader(for: ["c"], policy: .retry(maxAttempts: 2)) { 3 }
    let otherType = store.loader(for: ["d"]) { "4" }
    let plainAgain = store.loader(for: ["e"]) { 5 }
    XCTAssertFalse(plain.engine === keeping.engine, "policies that keep values differently shared")
    XCTAssertFalse(keeping.engine === retrying.engine, "a policy with steps shared an engine")
    XCTAssertFalse(plainAgain.engine === retrying.engine)
    XCTAssertEqual(plain.settings.policy, "none")
    XCTAssertEqual(keeping.settings.policy, "keepValueOnFailure")
    XCTAssertTrue(retrying.settings.policy.hasPrefix("retry(maxAttempts: 2"))
    XCTAssertEqual(plainAgain.settings.policy, "none")
    withExtendedLifetime(otherType) {}
  }

  func testEachEntryFailsAsItsOwnPolicySaysWhicheverWasMadeFirst() async {
    let store = LoaderStore()
    let server = Server()
    let plain = store.loader(for: ["plain"]) {
      if server.fails { throw TestError(code: 500) }
      return 1
    }
    let keeping = store.loader(for: ["keeping"], policy: .keepValueOnFailure()) {
      if server.fails { throw TestError(code: 503) }
      return 2
    }
    let plainAgain = store.loader(for: ["plain", 2]) {
      if server.fails { throw TestError(code: 502) }
      return 3
    }
    for entry in [plain, keeping, plainAgain] { await entry.load() }
    server.fails = true
    for entry in [plain, keeping, plainAgain] { await entry.refresh() }

    XCTAssertEqual(plain.state, .error(TestError(code: 500)))
    XCTAssertEqual(keeping.state, .loaded(2), "the entry that keeps its value lost it")
    XCTAssertEqual(keeping.refreshError as? TestError, TestError(code: 503))
    XCTAssertEqual(plainAgain.state, .error(TestError(code: 502)))
    XCTAssertNil(plainAgain.refreshError)
  }
}

/// Whether the fetches of a test fail, switched by the test.
@MainActor
private final class Server {
  var fails = false
}

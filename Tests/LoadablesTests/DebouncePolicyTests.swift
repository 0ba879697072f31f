import Loadables
import LoadablesTesting
import XCTest

@MainActor
final class DebouncePolicyTests: XCTestCase {
  func testOnlyTheLastLoadOfABurstRuns() async {
    @Loadable var results: LoadableState<String>
    let clock = ManualClock()
    var searched: [String] = []
    var tasks: [Task<Void, Never>] = []
    for query in ["s", "sw", "swi"] {
      tasks.append(
        $results.load(policy: .debounce(for: .milliseconds(300), clock: clock)) {
          searched.append(query)
          return query
        })
      await clock.sleepers(count: 1)
      clock.advance(by: .milliseconds(100))
    }
    XCTAssertEqual(searched, [], "a debounced load ran before the interval")
    clock.advance(by: .milliseconds(200))
    for task in tasks { await task.value }
    XCTAssertEqual(searched, ["swi"])
    XCTAssertEqual(results, .loaded("swi"))
  }

  func testALeadingDebouncerRunsTheFirstCallAtOnce() async {
    @Loadable var results: LoadableState<String>
    let clock = ManualClock()
    let debouncer = Debouncer(for: .seconds(1), leading: true, clock: clock)
    await $results.load(policy: .debounce(debouncer)) { "first" }
    XCTAssertEqual(results, .loaded("first"))
    let second: Task<Void, Never> = $results.load(policy: .debounce(debouncer)) { "second" }
    await clock.sleepers(count: 1)
    XCTAssertEqual(results, .loading, "a call within the interval must wait")
    clock.advance(by: .seconds(1))
    await second.value
    XCTAssertEqual(results, .loaded("second"))
    clock.advance(by: .seconds(5))
    await $results.load(policy: .debounce(debouncer)) { "after quiet" }
    XCTAssertEqual(results, .loaded("after quiet"))
  }
}

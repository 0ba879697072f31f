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
      guard await sleepers(1, on: clock) else { return }
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
    guard await runsAtOnce($results, .debounce(debouncer), "first") else { return }
    let second: Task<Void, Never> = $results.load(policy: .debounce(debouncer)) { "second" }
    guard await sleepers(1, on: clock) else { return }
    XCTAssertEqual(results, .loading, "a call within the interval must wait")
    clock.advance(by: .seconds(1))
    await second.value
    XCTAssertEqual(results, .loaded("second"))
    clock.advance(by: .seconds(5))
    guard await runsAtOnce($results, .debounce(debouncer), "after quiet") else { return }
  }

  func testANewerCallRestartsTheWait() async {
    @Loadable var results: LoadableState<String>
    let clock = ManualClock()
    var searched: [String] = []
    func search(_ text: String) -> Task<Void, Never> {
      $results.load(policy: .debounce(for: .milliseconds(300), clock: clock)) {
        searched.append(text)
        return text
      }
    }
    let first = search("s")
    guard await sleepers(1, on: clock) else { return }
    clock.advance(by: .milliseconds(200))
    let second = search("sw")
    await first.value
    guard await sleepers(1, on: clock) else { return }
    clock.advance(by: .milliseconds(299))
    XCTAssertEqual(searched, [], "the wait was not restarted by the newer call")
    XCTAssertEqual(results, .loading)
    clock.advance(by: .milliseconds(1))
    await second.value
    XCTAssertEqual(searched, ["sw"])
    XCTAssertEqual(results, .loaded("sw"))
  }

  func testDebounceWorksThroughTheKeyPathForm() async {
    @MainActor final class Search: LoadableSupport {
      var results: LoadableState<String> = .absent
      var searched: [String] = []
      let clock: ManualClock
      init(clock: ManualClock) { self.clock = clock }
      func search(_ text: String) -> Task<Void, Never> {
        load(\.results, policy: .debounce(for: .milliseconds(300), clock: clock)) {
          self.searched.append(text)
          return text
        }
      }
    }
    let clock = ManualClock()
    let model = Search(clock: clock)
    var tasks: [Task<Void, Never>] = []
    for text in ["a", "ab", "abc"] {
      tasks.append(model.search(text))
      guard await sleepers(1, on: clock) else { return }
      clock.advance(by: .milliseconds(250))
    }
    XCTAssertEqual(model.searched, [])
    clock.advance(by: .milliseconds(50))
    for task in tasks { await task.value }
    XCTAssertEqual(model.searched, ["abc"])
    XCTAssertEqual(model.results, .loaded("abc"))
  }

  func testALeadingDebouncerRestartsTheWaitOfTheCallsThatFollow() async {
    @Loadable var results: LoadableState<String>
    let clock = ManualClock()
    let debouncer = Debouncer(for: .milliseconds(300), leading: true, clock: clock)
    var ran: [String] = []
    func call(_ text: String) -> Task<Void, Never> {
      $results.load(policy: .debounce(debouncer)) {
        ran.append(text)
        return text
      }
    }
    let lead = call("lead")
    await yieldUntil { !ran.isEmpty }
    XCTAssertEqual(ran, ["lead"], "the leading call waited")
    guard ran == ["lead"] else { return $results.cancel() }
    await lead.value
    clock.advance(by: .milliseconds(100))
    let second = call("second")
    guard await sleepers(1, on: clock) else { return }
    clock.advance(by: .milliseconds(100))
    let third = call("third")
    await second.value
    guard await sleepers(1, on: clock) else { return }
    clock.advance(by: .milliseconds(299))
    XCTAssertEqual(ran, ["lead"])
    clock.advance(by: .milliseconds(1))
    await third.value
    XCTAssertEqual(ran, ["lead", "third"])
  }

  func testATrailingDebouncerFiresAfterTheIntervalWithoutALeadingCall() async {
    @Loadable var results: LoadableState<String>
    let clock = ManualClock()
    let debouncer = Debouncer(for: .seconds(1), clock: clock)
    XCTAssertFalse(debouncer.leading)
    let task: Task<Void, Never> = $results.load(policy: .debounce(debouncer)) { "only" }
    guard await sleepers(1, on: clock) else { return }
    XCTAssertEqual(results, .loading, "a trailing debouncer let the first call through at once")
    clock.advance(by: .seconds(1))
    await task.value
    XCTAssertEqual(results, .loaded("only"))
  }

  /// A debouncer shared by the loads of two states lets a call through only once calls to
  /// it have stopped for the interval, whichever state made them.
  func testADebouncerSharedByTwoStatesWaitsUntilCallsStop() async {
    @Loadable var left: LoadableState<String>
    @Loadable var right: LoadableState<String>
    let clock = ManualClock()
    let debouncer = Debouncer(for: .milliseconds(300), clock: clock)
    var ran: [String] = []
    let first: Task<Void, Never> = $left.load(policy: .debounce(debouncer)) {
      ran.append("left")
      return "left"
    }
    guard await sleepers(1, on: clock) else { return }
    clock.advance(by: .milliseconds(200))
    let second: Task<Void, Never> = $right.load(policy: .debounce(debouncer)) {
      ran.append("right")
      return "right"
    }
    guard await sleepers(2, on: clock) else { return }
    clock.advance(by: .milliseconds(100))  // 300 ms after the first call, 100 after the last
    for _ in 0..<1_000 where clock.sleeperCount < 2 && ran.isEmpty { await Task.yield() }
    XCTAssertEqual(ran, [], "a call went through while calls had not stopped")
    clock.advance(by: .milliseconds(200))  // 300 ms after the last call
    await first.value
    await second.value
    XCTAssertEqual(Set(ran), ["left", "right"])
    XCTAssertEqual(left, .loaded("left"))
    XCTAssertEqual(right, .loaded("right"))
  }

  /// Loads `value` under `policy` and checks that it ran at once, without waiting.
  private func runsAtOnce(
    _ binding: Loadable<String>.Binding, _ policy: LoadPolicy<String>, _ value: String,
    file: StaticString = #filePath, line: UInt = #line
  ) async -> Bool {
    let task: Task<Void, Never> = binding.load(policy: policy) { value }
    await yieldUntil { !binding.isRunning }
    binding.cancel()
    await task.value
    XCTAssertEqual(binding.wrappedValue, .loaded(value), "the call waited", file: file, line: line)
    return binding.wrappedValue == .loaded(value)
  }

  /// `clock.sleepers(count:)` that gives up: a debounce that never waits fails the test
  /// instead of hanging it.
  private func sleepers(
    _ count: Int, on clock: ManualClock, file: StaticString = #filePath, line: UInt = #line
  ) async -> Bool {
    await yieldUntil { clock.sleeperCount >= count }
    XCTAssertGreaterThanOrEqual(
      clock.sleeperCount, count, "the debounce did not wait", file: file, line: line)
    return clock.sleeperCount >= count
  }
}

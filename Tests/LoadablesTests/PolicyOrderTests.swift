import Loadables
import LoadablesTesting
import XCTest

@MainActor
final class PolicyOrderTests: XCTestCase {
  func testPoliciesApplyInTheOrderWrittenOutermostFirst() async {
    var trace: [String] = []
    func step(_ name: String) -> LoadPolicy<Int> {
      .around(name) { operation in
        trace.append("enter \(name)")
        defer { trace.append("leave \(name)") }
        return try await operation()
      }
    }
    let policy = step("a").then(step("b")).then(step("c"))
    XCTAssertEqual(policy.description, "a → b → c")
    @Loadable var value: LoadableState<Int>
    await $value.load(policy: policy) {
      trace.append("block")
      return 1
    }
    XCTAssertEqual(
      trace, ["enter a", "enter b", "enter c", "block", "leave c", "leave b", "leave a"])
  }

  func testTimeoutOutsideRetryLimitsAllAttemptsTogether() async {
    @Loadable var value: LoadableState<Int>
    let clock = ManualClock()
    var calls = 0
    let task: Task<Void, Never> = $value.load(
      policy: .timeout(.seconds(10), clock: clock)
        .retry(maxAttempts: 5, backoff: .constant(.seconds(4)), clock: clock)
    ) {
      calls += 1
      throw TestError(code: calls)
    }
    // Attempt 1 fails at 0 s, 2 at 4 s, 3 at 8 s; the retry's wait until 12 s is cut at 10 s.
    for _ in 0..<2 {
      await clock.sleepers(count: 2)
      clock.advance(by: .seconds(4))
    }
    await clock.sleepers(count: 2)
    clock.advance(by: .seconds(2))
    await task.value
    XCTAssertEqual(calls, 3)
    XCTAssertEqual(value, .error(TimeoutError()))
  }
}

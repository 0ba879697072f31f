import Loadables
import Observation
import XCTest

@MainActor
final class LoadableWrapperTests: XCTestCase {
  func testLoadWritesLoadingThenLoaded() async {
    @Loadable var numbers: LoadableState<[Int]>
    let gate = Gate<[Int]>()
    XCTAssertEqual(numbers, .absent)

    let task: Task<Void, Never> = $numbers.load { try await gate.pass() }
    XCTAssertEqual(numbers, .loading)
    XCTAssertTrue($numbers.isRunning)

    gate.open([1, 2, 3])
    await task.value
    XCTAssertEqual(numbers, .loaded([1, 2, 3]))
    XCTAssertFalse($numbers.isRunning)
  }

  func testThrownErrorWritesError() async {
    @Loadable var numbers: LoadableState<[Int]>
    await $numbers.load { throw TestError(code: 7) }
    XCTAssertEqual(numbers, .error(TestError(code: 7)))
  }

  func testSupersededLoadThatIgnoresCancellationNeverWrites() async {
    @Loadable var numbers: LoadableState<[Int]>
    let first = Gate<[Int]>()
    let firstTask: Task<Void, Never> = $numbers.load { try await first.passIgnoringCancellation() }
    await first.arrival()

    let secondTask: Task<Void, Never> = $numbers.load { [9] }
    await secondTask.value
    XCTAssertEqual(numbers, .loaded([9]))

    first.open([1])
    await firstTask.value
    XCTAssertEqual(numbers, .loaded([9]), "a superseded load wrote its late result")
  }
}

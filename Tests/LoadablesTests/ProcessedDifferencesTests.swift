import Loadables
import XCTest

/// Pins the differences from Processed 2.2.0 that "Coming from Processed" lists under
/// "Remaining differences", as the article shows them.
@MainActor
final class ProcessedDifferencesTests: XCTestCase {
  func testASingleProcessWrapperKeepsItsInitialValue() {
    @Loadables.Process var saving: SingleProcessState = .finished(SingleProcess())
    guard case .finished = saving else {
      return XCTFail("the initial value was dropped: \(saving)")
    }
  }

  func testStatesAndTimeoutErrorPrintAsTheArticleShows() {
    XCTAssertEqual(String(describing: LoadableState<String>.loaded("a")), #"loaded("a")"#)
    XCTAssertEqual(
      String(describing: LoadableState<Int>.error(Boom())),
      "error(LoadablesTests.ProcessedDifferencesTests.Boom())")
    XCTAssertEqual(
      String(describing: LoadableState<Int>.error(TimeoutError())),
      "error(timed out: the work took longer than allowed)")
    XCTAssertEqual(
      String(describing: ProcessState<Action>.running(.save)),
      "running(LoadablesTests.ProcessedDifferencesTests.Action.save)")
    XCTAssertEqual(
      String(describing: ProcessState<Action>.failed(process: .save, error: TimeoutError())),
      "failed(LoadablesTests.ProcessedDifferencesTests.Action.save, "
        + "timed out: the work took longer than allowed)")
    XCTAssertEqual(
      String(describing: TimeoutError()), "timed out: the work took longer than allowed")
  }

  func testTheArticlesRecordingModelRecordsInsteadOfLoading() async {
    let model = RecordingModel()
    await startLoad(model, \.numbers).value
    XCTAssertEqual(model.requested, [\RecordingModel.numbers])
    XCTAssertEqual(model.numbers, .absent)
  }

  struct Boom: Error {}
  enum Action: Equatable, Sendable { case save }
}

@MainActor
private func startLoad<Model: LoadableSupport>(
  _ model: Model, _ state: ReferenceWritableKeyPath<Model, LoadableState<[Int]>>
) -> Task<Void, Never> {
  model.load(state, silently: false, priority: nil) { [1] }
}

/// The article's example.
@MainActor
private final class RecordingModel: LoadableSupport {
  var numbers: LoadableState<[Int]> = .absent
  var requested: [AnyKeyPath] = []

  @discardableResult
  func load<Value>(
    _ state: ReferenceWritableKeyPath<RecordingModel, LoadableState<Value>>,
    silently: Bool,
    priority: TaskPriority?,
    block: @MainActor @escaping () async throws -> Value
  ) -> Task<Void, Never> {
    requested.append(state)
    return Task {}
  }
}

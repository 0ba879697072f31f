import Loadables
import XCTest

/// `LoadableSupport` and `ProcessSupport` keep Processed's customisation points: a class's own
/// `cancel`, `reset`, `load` and `run` are what generic code calls, and the single-job `run`
/// forms reach a class's own `run(_:as:...)`.
@MainActor
final class SupportCustomisationTests: XCTestCase {
  func testGenericCodeCallsTheClassesOwnCancelAndReset() {
    let model = CountingModel()
    cancelAll(model, \.numbers)
    resetAll(model, \.numbers)
    cancelAll(model, \.saving)
    resetAll(model, \.saving)
    XCTAssertEqual(
      model.calls, ["cancel load", "reset load", "cancel run", "reset run"],
      "generic code called the default implementations instead of the class's own")
  }

  func testGenericCodeCallsTheClassesOwnLoadWhenItPassesEveryArgument() async {
    let model = CountingModel()
    let task = startLoad(model, \.numbers)
    await task.value
    XCTAssertEqual(model.calls, ["load"], "generic code called the default `load`")
    XCTAssertEqual(model.numbers, .absent, "the default `load` ran and wrote the state")
  }

  func testSingleJobRunReachesTheClassesOwnRunAs() async {
    let model = CountingModel()
    await model.run(\.saving) {}.value
    XCTAssertEqual(
      model.calls, ["run as"], "the single-job form bypassed the class's own `run(_:as:...)`")
    XCTAssertEqual(model.saving, .idle, "the default `run(_:as:...)` ran and wrote the state")
  }

  func testAClassWithoutOverridesKeepsTheDefaults() async {
    let model = PlainModel()
    await startLoad(model, \.numbers).value
    XCTAssertEqual(model.numbers, .loaded(1))
  }
}

// MARK: - Helpers

@MainActor
private func cancelAll<Model: LoadableSupport>(
  _ model: Model, _ state: ReferenceWritableKeyPath<Model, LoadableState<Int>>
) {
  model.cancel(state)
}

@MainActor
private func resetAll<Model: LoadableSupport>(
  _ model: Model, _ state: ReferenceWritableKeyPath<Model, LoadableState<Int>>
) {
  model.reset(state)
}

@MainActor
private func cancelAll<Model: ProcessSupport>(
  _ model: Model, _ state: ReferenceWritableKeyPath<Model, SingleProcessState>
) {
  model.cancel(state)
}

@MainActor
private func resetAll<Model: ProcessSupport>(
  _ model: Model, _ state: ReferenceWritableKeyPath<Model, SingleProcessState>
) {
  model.reset(state)
}

@MainActor
private func startLoad<Model: LoadableSupport>(
  _ model: Model, _ state: ReferenceWritableKeyPath<Model, LoadableState<Int>>
) -> Task<Void, Never> {
  model.load(state, silently: false, priority: nil) { 1 }
}

/// Records which of its own methods ran; none of them touches the state.
@MainActor
private final class CountingModel: LoadableSupport, ProcessSupport {
  var numbers: LoadableState<Int> = .absent
  var saving: SingleProcessState = .idle
  var calls: [String] = []

  func cancel<Value>(_ state: ReferenceWritableKeyPath<CountingModel, LoadableState<Value>>) {
    calls.append("cancel load")
  }

  func reset<Value>(_ state: ReferenceWritableKeyPath<CountingModel, LoadableState<Value>>) {
    calls.append("reset load")
  }

  func cancel<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<CountingModel, ProcessState<ProcessKind>>
  ) {
    calls.append("cancel run")
  }

  func reset<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<CountingModel, ProcessState<ProcessKind>>
  ) {
    calls.append("reset run")
  }

  @discardableResult
  func load<Value>(
    _ state: ReferenceWritableKeyPath<CountingModel, LoadableState<Value>>,
    silently: Bool,
    priority: TaskPriority?,
    block: @MainActor @escaping () async throws -> Value
  ) -> Task<Void, Never> {
    calls.append("load")
    return Task {}
  }

  @discardableResult
  func run<ProcessKind: Equatable>(
    _ state: ReferenceWritableKeyPath<CountingModel, ProcessState<ProcessKind>>,
    as process: ProcessKind,
    silently: Bool,
    priority: TaskPriority?,
    block: @MainActor @escaping () async throws -> Void
  ) -> Task<Void, Never> {
    calls.append("run as")
    return Task {}
  }
}

@MainActor
private final class PlainModel: LoadableSupport {
  var numbers: LoadableState<Int> = .absent
}

import Foundation
import Loadables
import LoadablesTesting
import XCTest

// The "Sendable" column of the "Isolation and Lifetimes" article
// (Docs/Loadables.docc/Articles/Isolation.md), row by row: each `sendable(_:)` call compiles
// only while the type is `Sendable` (for the generic ones, with `Sendable` arguments, as the
// article's "when `Value` is `Sendable`" says). Keep this file and the article's table in step.

/// Compiles only when `T` is `Sendable`.
private func sendable<T: Sendable>(_: T.Type) -> String { "\(T.self)" }

/// Compiles only when `T` is `Sendable` and `Hashable`.
private func sendableAndHashable<T: Sendable & Hashable>(_: T.Type) -> String { "\(T.self)" }

private struct Item: Equatable, Sendable {
  var id = 0
}

final class IsolationArticleTests: XCTestCase {
  /// "The states themselves are plain values that you can create, compare and pass anywhere":
  /// made off the main actor, sent to another task and back, compared there.
  func testIsolationStatesAreMadeComparedAndPassedAnywhere() async {
    let made = await Task.detached { () -> [LoadableState<Item>] in
      [.absent, .loading, .loaded(Item(id: 1)), .error(CancelLoadable())]
    }.value
    let process = await Task.detached { ProcessState<Item>.finished(Item(id: 2)) }.value
    let compared = await Task.detached { made[2] == .loaded(Item(id: 1)) }.value
    XCTAssertTrue(compared, "a state compared off the main actor differed: \(made)")
    XCTAssertEqual(made.map(\.isLoading), [false, true, false, false])
    XCTAssertEqual(process, .finished(Item(id: 2)))
  }

  func testIsolationTheValueTypesAreSendableAsTheTableSays() {
    let names = [
      sendable(LoadableState<Item>.self),
      sendable(ProcessState<Item>.self),
      sendableAndHashable(SingleProcess.self),
      sendable(SingleProcessState.self),
      sendableAndHashable(CancelLoadable.self),
      sendableAndHashable(ResetLoadable.self),
      sendableAndHashable(CancelProcess.self),
      sendableAndHashable(ResetProcess.self),
      sendableAndHashable(TimeoutError.self),
      sendable(LoadingProgress.self),
      sendable(LoadingPresentation<Item>.self),
      sendable(FailurePresentation.self),
      sendable(LoadableFailure.self),
      sendable(ProcessFailure<Item>.self),
      sendable(ProcessButtonPresentation.self),
      sendable(StateStream<LoadableState<Item>>.self),
      sendable(RetryAttempt.self),
      sendable(LoadPolicy<Item>.self),
      sendableAndHashable(Backoff.self),
      sendableAndHashable(Jitter.self),
    ]
    XCTAssertEqual(names.count, 20, "rows checked: \(names)")
  }

  func testIsolationTheBindingsLimiterClassesAndClockAreSendable() {
    let names = [
      sendable(Loadable<Item>.Binding.self),
      sendable(LoadableBinding<Item>.self),
      sendable(Loadables.Process<Item>.Binding.self),
      sendable(ProcessBinding<Item>.self),
      sendable(ConcurrencyLimiter.self),
      sendable(Debouncer.self),
      sendable(LoadCache<String, Item>.self),
      sendable(Deduplicator<String, Item>.self),
      sendable(BaseLoader<Item>.self),
      sendable(BlockLoader<Item>.self),
      sendable(PolicyLoader<BlockLoader<Item>>.self),
      sendable(ManualClock.self),
    ]
    XCTAssertEqual(names.count, 12, "rows checked: \(names)")
  }
}

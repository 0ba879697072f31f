import Loadables
import Observation

/// The rows of the list the poll scenarios reload: what a feed's first screen holds.
let polledRows = Array(0..<100)

/// A feed polled silently whose answer does not change (issue 31): each poll an awaited
/// silent reload, the library's against the hand-written one (the same guarantee as
/// `cycle.await.wrapper`'s) that compares the new value with the one on screen before it
/// writes. Both are observed as SwiftUI observes them; neither should wake its observer once.
@MainActor
let pollScenarios: [Scenario] = [
  Scenario(
    name: "poll.unchanged", unit: "silent reload bringing back the same 100 rows",
    library: { iterations in
      let model = PolledWrapperModel()
      await model.$rows.load { polledRows }
      await observing({ _ = model.rows }) {
        for _ in 0..<iterations {
          await model.$rows.load(silently: true) { polledRows }
        }
      }
    },
    baseline: { iterations in
      let model = HandPolledModel()
      await model.loadAwaited { polledRows }
      await observing({ _ = model.rows }) {
        for _ in 0..<iterations {
          await model.loadAwaited(silently: true) { polledRows }
        }
      }
    }
  )
]

/// The library's side: a list in a `@Loadable` property of an `@Observable` class.
@MainActor @Observable
final class PolledWrapperModel {
  @ObservationIgnored @Loadable var rows: LoadableState<[Int]>

  nonisolated init() {}
}

/// What an engineer writes without the library: `HandObservableModel`'s awaited load (a
/// registered child task, a generation checked before every write) over a list, with the
/// one line that compares the answer with the list on screen before writing it.
@MainActor @Observable
final class HandPolledModel {
  var rows: HandState<[Int]> = .absent
  @ObservationIgnored private var child: UnsafeCurrentTask?
  @ObservationIgnored private var generation: UInt64 = 0

  nonisolated init() {}

  func loadAwaited(silently: Bool = false, _ block: @MainActor () async throws -> [Int]) async {
    generation &+= 1
    child?.cancel()
    child = nil
    let generation = generation
    if !silently, !rows.isLoading { rows = .loading }
    async let run: Void = runChild(generation, block)
    await run
  }

  private func runChild(_ generation: UInt64, _ block: @MainActor () async throws -> [Int]) async {
    guard generation == self.generation else { return }
    withUnsafeCurrentTask { child = $0 }
    defer { if generation == self.generation { child = nil } }
    do {
      let result = try await block()
      guard generation == self.generation, !Task.isCancelled else { return }
      // The hand-written equality check: an unchanged answer writes nothing.
      if case .loaded(let shown) = rows, shown == result { return }
      rows = .loaded(result)
    } catch {
      guard generation == self.generation, !Task.isCancelled else { return }
      rows = .error(error)
    }
  }
}

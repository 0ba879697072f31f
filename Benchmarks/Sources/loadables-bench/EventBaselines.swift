import Foundation
import Observation

// What an engineer writes without the library to log each load: the awaited load of
// `HandObservableModel` (same guarantee: a registered child task, a generation checked
// before every write), and two log records per load appended to an array, each with what a
// listener to the library's events gets: what happened, to what, whether it was silent,
// when, and how long the load took.

/// One line of a hand-written load log.
struct HandLogRecord: Sendable {
  enum Kind: Sendable {
    case started
    case finished
    case failed
  }

  let kind: Kind
  let name: String
  let isSilent: Bool
  let duration: Duration?
  let error: (any Error)?
  let date: Date
}

/// `HandObservableModel`'s awaited load, logging its start and its end.
@MainActor @Observable
final class HandLoggedModel {
  var value: HandState<Int> = .absent
  @ObservationIgnored var log: [HandLogRecord] = []
  @ObservationIgnored private var child: UnsafeCurrentTask?
  @ObservationIgnored private var generation: UInt64 = 0

  nonisolated init() {}

  func loadAwaited(silently: Bool = false, _ block: @MainActor () async throws -> Int) async {
    generation &+= 1
    child?.cancel()
    child = nil
    let generation = generation
    if !silently, !value.isLoading { value = .loading }
    let start = ContinuousClock.now
    log.append(
      HandLogRecord(
        kind: .started, name: "value", isSilent: silently, duration: nil, error: nil,
        date: Date()))
    async let child: Void = runChild(generation, silently: silently, start: start, block)
    await child
  }

  private func runChild(
    _ generation: UInt64, silently: Bool, start: ContinuousClock.Instant,
    _ block: @MainActor () async throws -> Int
  ) async {
    guard generation == self.generation else { return }
    withUnsafeCurrentTask { child = $0 }
    defer { if generation == self.generation { child = nil } }
    do {
      let result = try await block()
      guard generation == self.generation, !Task.isCancelled else { return }
      value = .loaded(result)
      log.append(
        HandLogRecord(
          kind: .finished, name: "value", isSilent: silently, duration: start.duration(to: .now),
          error: nil, date: Date()))
    } catch {
      guard generation == self.generation, !Task.isCancelled else { return }
      value = .error(error)
      log.append(
        HandLogRecord(
          kind: .failed, name: "value", isSilent: silently, duration: start.duration(to: .now),
          error: error, date: Date()))
    }
  }
}

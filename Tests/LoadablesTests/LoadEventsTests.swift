import Loadables
import LoadablesTesting
import Observation
import XCTest

/// The event stream's load events, through the public API: each form reports a load's start
/// and exactly one end, named by its subject, with silence, attempts, durations and errors.
/// The stream is process-wide, so each test keeps only its own subject's events.
@MainActor
final class LoadEventsTests: XCTestCase {
  /// Records the events whose subject `matches` says are this test's.
  @MainActor
  final class Recorder {
    private(set) var events: [LoadEvent] = []
    private var subscription: LoadEventSubscription?

    init(_ matches: @escaping @MainActor (LoadSubject) -> Bool) {
      subscription = LoadEvents.listen { [weak self] event in
        if matches(event.subject) { self?.events.append(event) }
      }
    }

    var kinds: [LoadEventKind] { events.map(\.kind) }

    func stop() { subscription?.cancel() }
  }

  struct Boom: Error, Equatable {}

  @MainActor @Observable
  final class Model: LoadableSupport {
    var numbers: LoadableState<[Int]> = .absent
  }

  func testAWrapperLoadReportsItsStartAndItsEnd() async {
    @Loadable var numbers: LoadableState<[Int]> = .absent
    let recorder = Recorder { $0.form == .property && $0.name == "LoadableState<Array<Int>>" }
    defer { recorder.stop() }
    await $numbers.load { [1, 2] }
    XCTAssertEqual(recorder.kinds, [.started, .finished])
    XCTAssertEqual(recorder.events.first?.isSilent, false)
    XCTAssertNotNil(recorder.events.last?.duration, "an end carries its duration")
    XCTAssertNil(recorder.events.first?.duration, "a start has none")
  }

  func testAFailedLoadCarriesItsError() async {
    let model = Model()
    let recorder = Recorder { $0.form == .keyPath }
    defer { recorder.stop() }
    await model.load(\.numbers) { throw Boom() }
    XCTAssertEqual(recorder.kinds, [.started, .failed])
    XCTAssertEqual(recorder.events.last?.error as? Boom, Boom())
    XCTAssertEqual(recorder.events.last?.subject.name, "\\Model.numbers")
  }

  func testANewerLoadSupersedesTheRunningOneAndSilenceIsReported() async throws {
    let model = Model()
    let recorder = Recorder { $0.form == .keyPath }
    defer { recorder.stop() }
    let gate = Gate<[Int]>()
    let first: Task<Void, Never> = model.load(\.numbers) { try await gate.pass() }
    await gate.arrival()
    await model.load(\.numbers, silently: true) { [3] }
    await first.value
    XCTAssertEqual(recorder.kinds, [.started, .superseded, .started, .finished])
    XCTAssertEqual(recorder.events.map(\.isSilent), [false, false, true, true])
    XCTAssertEqual(model.numbers, .loaded([3]))
  }

  func testCancelAndResetEndALoadAsSuch() async throws {
    @Loadable var numbers: LoadableState<[Int]> = .absent
    let binding = $numbers
    let recorder = Recorder { $0.form == .property && $0.name == "LoadableState<Array<Int>>" }
    defer { recorder.stop() }
    let gate = Gate<[Int]>()
    binding.load(priority: nil, block: { try await gate.pass() })
    await gate.arrival()
    binding.cancel()
    binding.load(priority: nil, block: { try await gate.pass() })
    await gate.arrival(count: 2)
    binding.reset()
    XCTAssertEqual(recorder.kinds, [.started, .cancelled, .started, .reset])
  }

  func testAControlErrorEndsTheLoadAsItAsks() async {
    let model = Model()
    let recorder = Recorder { $0.form == .keyPath }
    defer { recorder.stop() }
    await model.load(\.numbers) { throw CancelLoadable() }
    await model.load(\.numbers) { throw ResetLoadable() }
    XCTAssertEqual(recorder.kinds, [.started, .cancelled, .started, .reset])
    XCTAssertTrue(recorder.events.allSatisfy { $0.error == nil })
  }

  func testADurationIsMeasuredOnTheLoadClock() async throws {
    let clock = ManualClock()
    let model = Model()
    let recorder = Recorder { $0.form == .keyPath }
    defer { recorder.stop() }
    let gate = Gate<[Int]>()
    let task = withLoadClock(clock) { () -> Task<Void, Never> in
      model.load(\.numbers) { try await gate.pass() }
    }
    await gate.arrival()
    clock.advance(by: .seconds(3))
    gate.open([1])
    await task.value
    XCTAssertEqual(recorder.events.last?.duration, .seconds(3))
  }

  func testARetriedLoadReportsTheAttemptItEndedOn() async {
    let model = Model()
    let recorder = Recorder { $0.form == .keyPath }
    defer { recorder.stop() }
    var calls = 0
    await model.load(\.numbers, policy: .retry(maxAttempts: 3, backoff: .immediate)) {
      calls += 1
      if calls < 3 { throw Boom() }
      return [calls]
    }
    XCTAssertEqual(recorder.kinds.first, .started)
    XCTAssertEqual(recorder.kinds.last, .finished)
    XCTAssertEqual(recorder.events.last?.attempt, 3)
  }

  func testALoaderAndASharedEntryAreNamedAsSuch() async {
    let loader = BlockLoader<Int> { 7 }
    let store = LoaderStore()
    let entry = store.loader(for: ["events", "answer"]) { 42 }
    let recorder = Recorder { $0.form == .loader || $0.key == ["events", "answer"] }
    defer { recorder.stop() }
    await loader.load()
    await entry.load()
    XCTAssertEqual(
      recorder.events.map { "\($0.kind) \($0.subject.form)" },
      ["started loader", "finished loader", "started entry", "finished entry"])
    XCTAssertEqual(recorder.events.last?.subject, .entry(["events", "answer"]))
  }

  func testNothingIsReportedOnceTheSubscriptionIsCancelled() async {
    let model = Model()
    let recorder = Recorder { $0.form == .keyPath }
    recorder.stop()
    await model.load(\.numbers) { [1] }
    XCTAssertEqual(recorder.kinds, [])
  }

  func testAReleasedSubscriptionStopsListening() async throws {
    let model = Model()
    var seen: [LoadEventKind] = []
    var subscription: LoadEventSubscription? = LoadEvents.listen { event in
      if event.subject.objectID == ObjectIdentifier(model) { seen.append(event.kind) }
    }
    await model.load(\.numbers) { [1] }
    XCTAssertEqual(seen, [.started, .finished])
    XCTAssertNotNil(subscription)
    subscription = nil  // released on the main actor: the listener ends at once
    await model.load(\.numbers) { [2] }
    XCTAssertEqual(seen, [.started, .finished], "a released subscription still listened")
  }

  func testTheStreamDeliversEventsInOrder() async throws {
    let model = Model()
    let stream = LoadEvents.stream()
    await model.load(\.numbers) { [1] }
    var seen: [LoadEventKind] = []
    for await event in stream where event.subject.form == .keyPath {
      seen.append(event.kind)
      if event.kind.endsLoad { break }
    }
    XCTAssertEqual(seen, [.started, .finished])
  }
}

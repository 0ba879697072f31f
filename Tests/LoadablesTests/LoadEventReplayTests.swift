import Loadables
import LoadablesTesting
import Observation
import XCTest

/// From what you saw to a test: the events recorded for one subject read back as the fetch's
/// answers and the states a screen showed, and replaying those answers through a
/// `ScriptedFake` shows the same states again.
@MainActor
final class LoadEventReplayTests: XCTestCase {
  struct Offline: Error, CustomStringConvertible {
    var description: String { "offline" }
  }

  @MainActor @Observable
  final class Model: LoadableSupport {
    var posts: LoadableState<[Int]> = .absent
  }

  /// The phase of a state, as a replay names it.
  private func step(_ state: LoadableState<[Int]>) -> LoadEventReplay.Step {
    if state.isLoading { return .loading }
    if state.isLoaded { return .value }
    if state.isError { return .failure }
    return .reset
  }

  /// A session as a developer might have seen it: a retried load that succeeds on its
  /// second attempt, a silent refresh that fails, a load cancelled while its spinner shows.
  private func session(
    _ model: Model, fetch: ScriptedFake<Void, [Int]>, clock: ManualClock
  ) async throws {
    await withLoadClock(clock) {
      await model.load(\.posts, policy: .retry(maxAttempts: 2, backoff: .immediate)) {
        try await fetch.call()
      }
    }
    await model.load(\.posts, silently: true) { try await fetch.call() }
    let held: Task<Void, Never> = model.load(\.posts) { try await fetch.call() }
    try await waitUntil("the third fetch is held", seen: "\(fetch.held) held") { fetch.held == 1 }
    model.cancel(\.posts)
    await held.value
  }

  func testTheEventsOfOneSubjectReadBackAsItsLoadsAndSteps() async throws {
    let model = Model()
    let recorder = LoadEventRecorder {
      $0.subject.form == .keyPath && $0.subject.name.hasSuffix(".posts")
    }
    defer { recorder.stop() }
    let fetch = ScriptedFake<Void, [Int]>([
      .error(Offline()), .value([1]), .error(Offline()), .hold,
    ])
    try await session(model, fetch: fetch, clock: ManualClock())

    let replay = LoadEventReplay(recorder.events)
    XCTAssertEqual(
      replay.loads.map(\.answers),
      [[.error(nil), .value], [.error("offline")], [.none]])
    XCTAssertEqual(replay.loads.map(\.end), [.finished, .failed, .cancelled])
    XCTAssertEqual(replay.loads.map(\.isSilent), [false, true, false])
    XCTAssertEqual(replay.steps, [.loading, .value, .failure, .loading, .failure])
    XCTAssertEqual(
      replay.testSketch,
      """
      // A test of keyPath \\Model.posts, from 8 recorded events:
      let fetch = ScriptedFake<Void, <#Value#>>([
        .error(<#an error the retry retries#>),  // load 1, attempt 1
        .value(<#value#>),  // load 1, attempt 2: finished after 0.00 s
        .error(<#offline#>),  // load 2: failed after 0.00 s, silent
        .hold,  // load 3: cancelled after 0.00 s
      ])
      // Expected states: loading, value, failure, loading, failure
      """)
  }

  func testReplayingTheAnswersShowsTheStatesTheEventsPromise() async throws {
    let seen = Model()
    let recorder = LoadEventRecorder {
      $0.subject.form == .keyPath && $0.subject.name.hasSuffix(".posts")
    }
    let original = ScriptedFake<Void, [Int]>([
      .error(Offline()), .value([1]), .error(Offline()), .hold,
    ])
    try await session(seen, fetch: original, clock: ManualClock())
    recorder.stop()
    let replay = LoadEventReplay(recorder.events)

    // The test the sketch describes: the same answers, a fresh model, its states recorded.
    let replies = replay.loads.flatMap(\.answers).map { answer -> ScriptedFake<Void, [Int]>.Reply in
      switch answer {
      case .value: .value([1])
      case .error: .error(Offline())
      case .none: .hold
      }
    }
    let model = Model()
    let states = StateRecorder(model, \.posts)
    try await session(model, fetch: ScriptedFake(replies), clock: ManualClock())
    XCTAssertEqual(states.states.dropFirst().map(step), replay.steps)
  }

  func testASupersededLoadLeavesItsSpinnerToTheNextOne() {
    let subject = LoadSubject(form: .property, name: "LoadableState<Int>")
    let events: [LoadEvent] = [
      LoadEvent(kind: .started, subject: subject),
      LoadEvent(kind: .superseded, subject: subject),
      LoadEvent(kind: .started, subject: subject),
      LoadEvent(kind: .reset, subject: subject),
      LoadEvent(kind: .started, subject: subject),
    ]
    let replay = LoadEventReplay(events)
    XCTAssertEqual(replay.loads.map(\.end), [.superseded, .reset], "the last load has no end yet")
    XCTAssertEqual(replay.steps, [.loading, .reset])

    let cancelledFirst = LoadEventReplay([
      LoadEvent(kind: .started, subject: subject), LoadEvent(kind: .cancelled, subject: subject),
    ])
    XCTAssertEqual(cancelledFirst.steps, [.loading, .previous], "what was before is not known")
    XCTAssertEqual(replay.subject, subject)
  }

  func testARecorderThatWaitsInVainNamesWhatItRecorded() async {
    let recorder = LoadEventRecorder(key: ["replay", "never"])
    defer { recorder.stop() }
    do {
      try await recorder.wait(for: .finished, timeout: .milliseconds(20))
      XCTFail("nothing finished")
    } catch {
      XCTAssertTrue("\(error)".contains("1 finished event"), "\(error)")
      XCTAssertTrue("\(error)".hasSuffix("recorded none"), "\(error)")
    }
  }

  func testARecorderWaitsForAnEntrysFetch() async throws {
    let store = LoaderStore()
    let recorder = LoadEventRecorder(key: ["replay", "entry"])
    defer { recorder.stop() }
    let gate = Gate<Int>()
    let entry = store.loader(for: ["replay", "entry"]) { try await gate.pass() }
    let load = Task { _ = await entry.load() }
    await gate.arrival()
    gate.open(1)
    try await recorder.wait(for: .finished)
    await load.value
    XCTAssertEqual(recorder.kinds.filter { $0 == .started || $0.endsLoad }, [.started, .finished])
  }
}

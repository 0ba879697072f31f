import Observation
import XCTest

@testable import Loadables

/// The pure half of the `os.Logger` and `OSSignposter` wiring: the level and the private
/// parts of each log line (LoadEventLogLine), and the signpost intervals that load events open
/// and close (SignpostBook). The Apple half only performs them; `.ci/swiftui-check`
/// type-checks it.
@MainActor
final class EventWiringTests: XCTestCase {
  struct Boom: Error, CustomStringConvertible {
    var description: String { "no connection for alice@example.com" }
  }

  @MainActor @Observable
  final class Model: LoadableSupport {
    var numbers: LoadableState<[Int]> = .absent
  }

  private func event(
    _ kind: LoadEventKind, _ subject: LoadSubject, duration: Duration? = nil,
    wait: LoadWait? = nil, error: (any Error)? = nil, attempt: Int? = nil,
    isSilent: Bool = false, detail: String? = nil
  ) -> LoadEvent {
    LoadEvent(
      kind: kind, subject: subject, isSilent: isSilent, attempt: attempt, duration: duration,
      wait: wait, error: error, detail: detail)
  }

  private let user = LoadSubject.entry(["user", "alice@example.com"])
  private let feed = LoadSubject(form: .keyPath, name: "\\FeedModel.posts")

  // MARK: - Levels

  func testEveryKindHasALevelAndFailuresAreErrors() {
    XCTAssertEqual(LoadEventKind.failed.level, .error)
    XCTAssertEqual(LoadEventKind.editFailed.level, .error)
    XCTAssertEqual(LoadEventKind.editRolledBack.level, .notice)
    XCTAssertEqual(LoadEventKind.entryDiscarded.level, .notice)
    XCTAssertEqual(LoadEventKind.finished.level, .info)
    XCTAssertEqual(LoadEventKind.entryInvalidated.level, .info)
    XCTAssertEqual(LoadEventKind.started.level, .debug)
    XCTAssertEqual(LoadEventKind.superseded.level, .debug)
    XCTAssertEqual(LoadEventKind.waitBegan.level, .debug)
    XCTAssertTrue(LoadEventLevel.debug < .info && .info < .notice && .notice < .error)
    XCTAssertEqual(
      LoadEventLevel.allCases.map(\.description), ["debug", "info", "notice", "error"])
    XCTAssertEqual(event(.failed, feed, error: Boom()).level, .error)
  }

  // MARK: - Log lines

  func testAKeyAnErrorAndADetailArePrivateByDefault() {
    let line = LoadEventLogLine(
      event(.failed, user, duration: .milliseconds(210), error: Boom(), attempt: 2),
      privacy: .private)
    XCTAssertEqual(line.level, .error)
    XCTAssertEqual(line.text, "failed entry after 0.21 s (attempt 2)")
    XCTAssertEqual(
      line.userData, "[\"user\", \"alice@example.com\"], error: no connection for alice@example.com"
    )
    XCTAssertFalse(line.text.contains("alice"), "nothing of the user's in the public part")
    XCTAssertEqual(
      line.rendered,
      "failed entry after 0.21 s (attempt 2): [\"user\", \"alice@example.com\"], error: no connection for alice@example.com"
    )
  }

  func testANameFromCodeIsPublicAndALineWithoutUserDataHasNoPrivatePart() {
    let line = LoadEventLogLine(
      event(.waitEnded, feed, duration: .seconds(1), wait: .backoff, isSilent: true),
      privacy: .private)
    XCTAssertEqual(
      line.text, "waitEnded keyPath \\FeedModel.posts for backoff after 1.00 s (silent)")
    XCTAssertEqual(line.userData, "")
    XCTAssertEqual(line.rendered, line.text)
  }

  func testAnEditsKeyAndDetailArePrivate() {
    let line = LoadEventLogLine(
      event(.editQueued, .entry(["user", "alice"], form: .edit), detail: "Rename to Bob"),
      privacy: .private)
    XCTAssertEqual(line.text, "editQueued edit")
    XCTAssertEqual(line.userData, #"["user", "alice"], Rename to Bob"#)
  }

  func testPublicPrivacyWritesTheWholeDescriptionPublicly() {
    let failed = event(.failed, user, duration: .milliseconds(210), error: Boom(), attempt: 2)
    let line = LoadEventLogLine(failed, privacy: .public)
    XCTAssertEqual(line.text, failed.description)
    XCTAssertEqual(line.userData, "")
  }

  // MARK: - Signpost intervals

  func testALoadIsOneIntervalFromItsStartToItsEnd() {
    var pairing = SignpostBook(privacy: .private)
    let started = pairing.receive(event(.started, feed))
    XCTAssertEqual(started.count, 1)
    guard case .begin(let interval, let line)? = started.first else {
      return XCTFail("a start opens an interval: \(started)")
    }
    XCTAssertEqual(interval.name, .load)
    XCTAssertEqual(line.text, "started keyPath \\FeedModel.posts")
    XCTAssertEqual(pairing.openCount, 1)

    let finished = event(.finished, feed, duration: .seconds(1))
    XCTAssertEqual(
      pairing.receive(finished),
      [.end(interval, LoadEventLogLine(finished, privacy: .private))])
    XCTAssertEqual(pairing.openCount, 0)
  }

  func testAnEntrysFetchIsAFetchInterval() {
    var pairing = SignpostBook(privacy: .private)
    guard case .begin(let interval, _)? = pairing.receive(event(.started, user)).first else {
      return XCTFail("a start opens an interval")
    }
    XCTAssertEqual(interval.name, .fetch)
  }

  func testSupersededEndsTheOldIntervalBeforeTheNewOneBegins() {
    var pairing = SignpostBook(privacy: .private)
    let first = pairing.receive(event(.started, feed))
    let superseded = pairing.receive(event(.superseded, feed))
    let second = pairing.receive(event(.started, feed))
    guard case .begin(let old, _)? = first.first, case .begin(let new, _)? = second.first else {
      return XCTFail("each start opens an interval")
    }
    XCTAssertNotEqual(old, new)
    XCTAssertEqual(superseded.map(Self.endedID), [old.id])
    XCTAssertEqual(second.count, 1, "nothing left to close")
    XCTAssertEqual(pairing.openCount, 1)
  }

  func testSubjectsAreTrackedApartByObjectAndKey() {
    var pairing = SignpostBook(privacy: .private)
    let one = Model()
    let other = Model()
    let a = LoadSubject(form: .keyPath, name: "\\M.x", objectID: ObjectIdentifier(one))
    let b = LoadSubject(form: .keyPath, name: "\\M.x", objectID: ObjectIdentifier(other))
    _ = pairing.receive(event(.started, a))
    _ = pairing.receive(event(.started, b))
    _ = pairing.receive(event(.started, user))
    XCTAssertEqual(pairing.openCount, 3)
    XCTAssertEqual(pairing.receive(event(.finished, b)).count, 1)
    XCTAssertEqual(pairing.receive(event(.finished, b)), [], "an end closes once")
    XCTAssertEqual(pairing.openCount, 2)
  }

  func testAWaitIsAnIntervalInsideItsLoadAndTheLoadsEndClosesIt() {
    var pairing = SignpostBook(privacy: .private)
    _ = pairing.receive(event(.started, feed))
    let began = pairing.receive(event(.waitBegan, feed, wait: .backoff))
    guard case .begin(let wait, _)? = began.first else { return XCTFail("a wait opens one") }
    XCTAssertEqual(wait.name, .wait)
    XCTAssertEqual(
      pairing.receive(event(.waitEnded, feed, wait: .backoff)).map(Self.endedID), [wait.id])
    _ = pairing.receive(event(.waitBegan, feed, wait: .network))
    let cancelled = pairing.receive(event(.cancelled, feed))
    XCTAssertEqual(cancelled.count, 2, "the wait, then the load: \(cancelled)")
    XCTAssertEqual(pairing.openCount, 0)
  }

  func testAnIgnoredStartIsAPointAndLeavesTheRunningLoadsIntervalOpen() {
    var pairing = SignpostBook(privacy: .private)
    guard case .begin(let running, _)? = pairing.receive(event(.started, feed)).first else {
      return XCTFail("a start opens an interval")
    }
    let ignored = event(.ignored, feed, detail: "a load was running")
    XCTAssertEqual(
      pairing.receive(ignored), [.event(.load, LoadEventLogLine(ignored, privacy: .private))])
    XCTAssertEqual(pairing.openCount, 1, "the ignored start closed the running load's interval")
    XCTAssertEqual(pairing.receive(event(.finished, feed)).map(Self.endedID), [running.id])
  }

  func testAnEndWithoutAStartClosesNothingAndStoreEventsArePoints() {
    var pairing = SignpostBook(privacy: .private)
    XCTAssertEqual(pairing.receive(event(.finished, feed)), [])
    XCTAssertEqual(pairing.receive(event(.waitEnded, feed, wait: .debounce)), [])
    let invalidated = event(.entryInvalidated, user)
    XCTAssertEqual(
      pairing.receive(invalidated),
      [.event(.store, LoadEventLogLine(invalidated, privacy: .private))])
    let committed = event(.editCommitted, .entry(["user"], form: .edit))
    XCTAssertEqual(
      pairing.receive(committed),
      [.event(.edit, LoadEventLogLine(committed, privacy: .private))])
    XCTAssertEqual(pairing.openCount, 0)
  }

  /// The engine's own events, a superseded load and the one that replaced it, pair into
  /// intervals that all close.
  func testTheEnginesEventsPairIntoClosedIntervals() async throws {
    let model = Model()
    var pairing = SignpostBook(privacy: .private)
    var steps: [SignpostBook.Step] = []
    let subscription = LoadEvents.listen { event in
      guard event.subject.objectID == ObjectIdentifier(model) else { return }
      steps += pairing.receive(event)
    }
    defer { subscription.cancel() }
    let gate = Gate<[Int]>()
    let first: Task<Void, Never> = model.load(\.numbers) { try await gate.pass() }
    await gate.arrival()
    await model.load(\.numbers) { [3] }
    await first.value

    let begun = steps.compactMap { step -> UInt64? in
      if case .begin(let interval, _) = step { return interval.id } else { return nil }
    }
    XCTAssertEqual(begun.count, 2)
    XCTAssertEqual(steps.compactMap(Self.endedID), begun, "each closes, in order")
    XCTAssertEqual(pairing.openCount, 0)
  }

  private static func endedID(_ step: SignpostBook.Step) -> UInt64? {
    if case .end(let interval, _) = step { return interval.id }
    return nil
  }
}

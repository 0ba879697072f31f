import Loadables
import LoadablesTesting
import XCTest

/// A scope a test owns (`LoadEvents.withScope`): its listeners get the events of the work
/// started inside it and no one else's, while the process-wide stream still gets them all.
@MainActor
final class LoadEventScopeTests: XCTestCase {
  final class Holder {
    @Loadable var value: LoadableState<Int> = .absent
  }

  final class TextHolder {
    @Loadable var value: LoadableState<String> = .absent
  }

  func testTwoScopesRunningAtOnceEachRecordOnlyTheirOwnLoads() async throws {
    let everything = LoadEventRecorder { _ in true }
    defer { everything.stop() }
    let gateA = Gate<Int>()
    let gateB = Gate<String>()
    let first = Holder()
    let second = TextHolder()

    async let a: [LoadEvent] = LoadEvents.withScope { scope in
      let events = LoadEventRecorder(in: scope) { _ in true }
      defer { events.stop() }
      await first.$value.load { try await gateA.pass() }
      return events.events
    }
    async let b: [LoadEvent] = LoadEvents.withScope { scope in
      let events = LoadEventRecorder(in: scope) { _ in true }
      defer { events.stop() }
      // A Task-returning load: its end is reported from the load's own task.
      await second.$value.load { try await gateB.pass() }.value
      return events.events
    }
    // Both loads are running when each answers: their events interleave in time.
    await gateA.arrival()
    await gateB.arrival()
    gateB.open("b")
    gateA.open(1)
    let (eventsA, eventsB) = await (a, b)

    XCTAssertEqual(eventsA.map(\.kind), [.started, .finished])
    XCTAssertEqual(eventsB.map(\.kind), [.started, .finished])
    XCTAssertEqual(Set(eventsA.map(\.subject.name)), ["LoadableState<Int>"])
    XCTAssertEqual(Set(eventsB.map(\.subject.name)), ["LoadableState<String>"])
    let names = Set(everything.events.map(\.subject.name))
    XCTAssertTrue(
      names.isSuperset(of: ["LoadableState<Int>", "LoadableState<String>"]),
      "the process-wide stream missed a scope's events: \(everything.kinds)")
  }

  func testAStoreMadeInAScopeReportsItsEntriesThere() async throws {
    let outside = LoaderStore()
    let outsideEntry = outside.loader(for: ["posts", 1]) { "outside" }
    try await LoadEvents.withScope { scope in
      let events = LoadEventRecorder(in: scope, key: ["posts", 1])
      defer { events.stop() }
      let store = LoaderStore()
      let entry = store.loader(for: ["posts", 1]) { "inside" }
      await entry.load()
      // Work on an object made outside, but started from inside, is this scope's too.
      await outsideEntry.load()
      try await events.wait(for: .finished, count: 2)
      XCTAssertTrue(events.events.contains { $0.isFrom(store) })
      XCTAssertTrue(events.events.contains { $0.isFrom(outside) })
    }
    // Outside every scope, the scope's recorder is gone and nothing listens.
    XCTAssertFalse(LoadEvents.isListening, "a scope's listener outlived its recorder")
  }

  func testWorkOutsideTheScopeNeverReachesIt() async {
    let holder = TextHolder()
    let gate = Gate<String>()
    // A load started before the scope, outside it, ends while the scope listens.
    let outsideLoad: Task<Void, Never> = holder.$value.load { try await gate.pass() }
    await gate.arrival()
    await LoadEvents.withScope { scope in
      let events = LoadEventRecorder(in: scope) { _ in true }
      defer { events.stop() }
      gate.open("outside")
      await outsideLoad.value
      let inside = Holder()
      await inside.$value.load { 2 }
      XCTAssertEqual(events.kinds, [.started, .finished], "another task's load reached the scope")
      XCTAssertEqual(Set(events.events.map(\.subject.name)), ["LoadableState<Int>"])
    }
  }
}

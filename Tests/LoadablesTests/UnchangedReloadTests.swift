import Foundation
import Loadables
import LoadablesTesting
import Observation
import XCTest

/// A reload that brings back what is on screen re-renders nothing, in every form: the state
/// is not written and its observers are not woken, while `isRunning` still changes and a
/// shared entry still records the fetch. Each test counts the wake-ups of an observer of the
/// state alone, as SwiftUI would see them.
@MainActor
final class UnchangedReloadTests: XCTestCase {
  // MARK: - The property wrappers

  final class Holder {
    @Loadable var numbers: LoadableState<[Int]> = .absent
    @Loadables.Process var saving: ProcessState<String> = .idle
    @Paged var feed: PagedState<Int, Int>
  }

  func testASilentReloadOfTheSameValueWakesNoObserverOfAWrapper() async {
    let holder = Holder()
    await holder.$numbers.load { [1, 2, 3] }
    let stateWakes = ChangeCounter { _ = holder.numbers }
    let runningWakes = ChangeCounter { _ = holder.$numbers.isRunning }
    let recorder = StateRecorder(holder.$numbers)
    defer { recorder.stop() }

    await holder.$numbers.load(silently: true) { [1, 2, 3] }

    XCTAssertEqual(stateWakes.count, 0, "an unchanged reload woke the state's observer")
    XCTAssertEqual(runningWakes.count, 2, "isRunning no longer turns on and off")
    XCTAssertEqual(recorder.states, [.loaded([1, 2, 3])], "an unchanged state was recorded")

    await holder.$numbers.load(silently: true) { [1, 2, 3, 4] }
    XCTAssertEqual(stateWakes.count, 1, "a changed reload did not wake the observer")
    XCTAssertEqual(holder.numbers, .loaded([1, 2, 3, 4]))
  }

  func testALoadThatShowedItsSpinnerAlwaysWritesItsResult() async {
    let holder = Holder()
    await holder.$numbers.load { [1] }
    let stateWakes = ChangeCounter { _ = holder.numbers }
    await holder.$numbers.load { [1] }
    XCTAssertEqual(stateWakes.count, 2, "the spinner and the result should both wake it")
    XCTAssertEqual(holder.numbers, .loaded([1]))
  }

  func testAValueThatIsNotEquatableIsWrittenAsBefore() async {
    final class Opaque: Sendable {}
    final class OpaqueHolder {
      @Loadable var value: LoadableState<Opaque> = .absent
    }
    let holder = OpaqueHolder()
    let same = Opaque()
    await holder.$value.load { same }
    let stateWakes = ChangeCounter { _ = holder.value }
    await holder.$value.load(silently: true) { same }
    XCTAssertEqual(stateWakes.count, 1, "a value that cannot be compared must be written")
  }

  func testASilentRunThatEndsAsItWasWakesNoObserverOfAProcess() async {
    let holder = Holder()
    await holder.$saving.run("save") {}
    let stateWakes = ChangeCounter { _ = holder.saving }
    await holder.$saving.run("save", silently: true) {}
    XCTAssertEqual(stateWakes.count, 0, "an unchanged run woke the state's observer")
    await holder.$saving.run("publish", silently: true) {}
    XCTAssertEqual(stateWakes.count, 1)
    XCTAssertEqual(holder.saving, .finished("publish"))
  }

  func testARefreshOfTheSameFirstPageWakesNoObserverOfAPagedList() async {
    let holder = Holder()
    let source = PagedSource<Int, Int>.numbered(pageSize: 3) { page, _ in
      page == 1 ? [1, 2] : []
    }
    await holder.$feed.load(from: source)
    let stateWakes = ChangeCounter { _ = holder.feed }
    await holder.$feed.refresh(from: source)
    XCTAssertEqual(stateWakes.count, 0, "an unchanged refresh woke the list's observer")
    XCTAssertEqual(holder.feed.items, [1, 2])
  }

  // MARK: - The key-path forms

  @Observable
  final class FeedModel: LoadableSupport {
    var feed: LoadableState<[String]> = .absent
  }

  func testASilentReloadOfTheSameValueWakesNoObserverOfAKeyPath() async {
    let model = FeedModel()
    await model.load(\.feed) { ["a"] }
    let stateWakes = ChangeCounter { _ = model.feed }
    await model.load(\.feed, silently: true) { ["a"] }
    XCTAssertEqual(stateWakes.count, 0, "an unchanged reload woke the state's observer")
    await model.load(\.feed, silently: true) { ["a", "b"] }
    XCTAssertEqual(stateWakes.count, 1)
  }

  // MARK: - Loader objects

  final class NumbersLoader: BaseLoader<[Int]> {
    var answer = [1, 2]
    override func fetch() async throws -> [Int] { answer }
  }

  func testASilentLoadOfTheSameValueWakesNoObserverOfALoader() async {
    let loader = NumbersLoader()
    await loader.load()
    let stateWakes = ChangeCounter { _ = loader.state }
    await loader.load(silently: true)
    XCTAssertEqual(stateWakes.count, 0, "an unchanged reload woke the loader's observer")
    loader.answer = [3]
    await loader.load(silently: true)
    XCTAssertEqual(stateWakes.count, 1)
  }

  // MARK: - Shared entries

  func testARefreshOfTheSameValueWakesNoObserverYetIsRecordedAsAFetch() async {
    let clock = ManualClock()
    let saved = StorePersistence.inMemory(version: "1")
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let store = LoaderStore(clock: clock, persistence: saved, startDate: start)
    var answer = "Hello"
    let entry = store.loader(for: ["posts", 1], staleTime: .seconds(60)) { answer }
    await entry.load()
    let observation = entry.observe()
    defer { observation.end() }
    let stateWakes = ChangeCounter { _ = entry.state }
    var streamed = entry.states.makeAsyncIterator()
    let first = await streamed.next()
    XCTAssertEqual(first, .loaded("Hello"))

    clock.advance(by: .seconds(120))
    XCTAssertTrue(entry.isStale)
    await entry.refresh()

    XCTAssertEqual(stateWakes.count, 0, "an unchanged refresh woke the entry's observer")
    XCTAssertEqual(entry.fetchedAt, start.addingTimeInterval(120), "the fetch was not recorded")
    XCTAssertFalse(entry.isStale, "the unchanged refresh did not restart freshness")

    // The saved record carries the new fetch time: a relaunch sees it.
    await store.flushPersistence()
    let relaunched = LoaderStore(
      clock: ManualClock(), persistence: saved, startDate: start.addingTimeInterval(200))
    let restored = relaunched.loader(for: ["posts", 1]) { "unused" }
    XCTAssertEqual(restored.fetchedAt, start.addingTimeInterval(120))

    // The stream skipped the unchanged state: its next state is the next change.
    answer = "Changed"
    await entry.refresh()
    let next = await streamed.next()
    XCTAssertEqual(next, .loaded("Changed"), "an unchanged state was streamed")
    XCTAssertEqual(stateWakes.count, 1)
    // Stop the entry's stale timer, asleep on the manual clock, so nothing outlives the test.
    store.remove(["posts", 1])
  }

  func testARefreshOfTheSameFirstPageWakesNoObserverOfAPagedEntry() async {
    let store = LoaderStore()
    var fetches = 0
    let source = PagedSource<Int, Int>.numbered(pageSize: 3) { page, _ in
      fetches += 1
      return page == 1 ? [1, 2] : []
    }
    let feed = store.pagedLoader(for: ["feed"], source: source)
    await feed.load()
    let observation = feed.observe()
    defer { observation.end() }
    let stateWakes = ChangeCounter { _ = feed.state }
    let before = fetches
    await feed.refresh()
    XCTAssertGreaterThan(fetches, before, "the refresh did not fetch")
    XCTAssertEqual(stateWakes.count, 0, "an unchanged refresh woke the list's observer")
    XCTAssertEqual(feed.state.items, [1, 2])
  }

  func testARefreshOfEveryLoadedPageThatChangesNothingWakesNoObserver() async {
    let store = LoaderStore()
    var fetches = 0
    let source = PagedSource<Int, Int>.numbered(pageSize: 2) { page, _ in
      fetches += 1
      return page == 1 ? [1, 2] : page == 2 ? [3, 4] : [5]
    }
    let feed = store.pagedLoader(for: ["feed"], refreshedPages: .allLoadedPages, source: source)
    await feed.load()
    await feed.loadNextPage()
    await feed.loadNextPage()
    XCTAssertEqual(feed.state.items, [1, 2, 3, 4, 5])
    let stateWakes = ChangeCounter { _ = feed.state }
    let before = fetches
    await feed.refresh()
    XCTAssertEqual(fetches, before + 3, "the refresh did not fetch every loaded page")
    XCTAssertEqual(stateWakes.count, 0, "an unchanged refresh of every page woke the observer")
    XCTAssertEqual(feed.state.items, [1, 2, 3, 4, 5])
  }
}

@_spi(Testing) import Loadables
import XCTest

@testable import LoadablesDemo

// What the demo's terminal "views" print for the states its scenes go through. The frames
// are rendered at every state the library writes (through the same hook `StateRecorder`
// uses), so none that a coalescing renderer could skip is missed.

@MainActor
final class DemoScreenTests: XCTestCase {
  private func makeModel() -> DemoModel {
    let pace = Pace(isFast: true)
    return DemoModel(api: FakeAPI(pace: pace), pace: pace)
  }

  /// Starts `action` and returns the feed's view, rendered as the action starts (a silent
  /// load writes no state then), at each state written while it runs, and once it ended.
  private func feedFrames(
    _ model: DemoModel, during action: () -> Task<Void, Never>
  ) async -> [String] {
    var frames: [String] = []
    let watch = model.$feed.watchStates { _ in frames.append(DemoScreen.feed(model)) }
    let task = action()
    frames.append(DemoScreen.feed(model))
    await task.value
    watch.cancel()
    frames.append(DemoScreen.feed(model))
    return frames
  }

  func testAStreamedFirstLoadIsNotLabelledARefresh() async {
    let model = makeModel()
    let frames = await feedFrames(model) { model.streamFeed() }
    XCTAssertEqual(
      frames.filter { $0.contains("loaded") }.count, FeedStream.headlines.count + 1,
      "expected a frame per headline, then the last one: \(frames)")
    XCTAssertFalse(
      frames.contains { $0.contains("refreshing") },
      "a first load was labelled a refresh: \(frames)")
    XCTAssertTrue(
      frames.contains { $0.contains("(more coming…)") },
      "the partly streamed list did not say more is coming: \(frames)")
  }

  func testASilentReloadIsLabelledARefresh() async {
    let model = makeModel()
    await model.streamFeed().value
    let frames = await feedFrames(model) { model.refreshFeed() }
    XCTAssertTrue(
      frames.contains { $0.contains("(refreshing…)") },
      "a silent reload was not labelled: \(frames)")
    XCTAssertFalse(frames.contains { $0.contains("more coming") }, "\(frames)")
  }
}

/// The offline scene's feed says why each edit has not synced, as the outbox decides it.
@MainActor
final class OfflineFeedScreenTests: XCTestCase {
  func testEachWaitingEditShowsItsReasonUntilItIsSent() async {
    let world = OfflineWorld(pace: Pace(isFast: true))
    defer { world.removeDirectory() }
    world.connectivity.update(isOnline: false)
    let store = world.launch()
    let feed = world.feed(in: store)
    store.edit(RenameArticle(id: 1, title: "Trains run on tme"))
    store.edit(RenameArticle(id: 1, title: "Trains run on time"))

    let offline = DemoScreen.offlineFeed(store, feed, now: Date())
    XCTAssertTrue(
      offline.contains(#"⇅ RenameArticle ["articles", 1]: waiting for the network"#), offline)
    XCTAssertTrue(
      offline.contains(
        #"⇅ RenameArticle ["articles", 1]: waiting behind an earlier edit of the article"#),
      offline)

    world.connectivity.update(isOnline: true)
    await store.outbox.untilIdle()
    let synced = DemoScreen.offlineFeed(store, feed, now: Date())
    XCTAssertFalse(synced.contains("⇅"), synced)
    XCTAssertEqual(world.renames, 2)
  }

  func testABackoffSaysWhenTheNextTryIs() {
    let now = Date(timeIntervalSince1970: 1_000)
    XCTAssertEqual(
      DemoScreen.syncReason(
        .backingOff(attempt: 2, nextTry: now.addingTimeInterval(4.2)), now: now),
      "attempt 2 failed, next try in 5 s")
    XCTAssertEqual(DemoScreen.syncReason(.failed("refused"), now: now), "failed: refused")
  }
}

import Loadables
import LoadablesTesting
import Observation
import XCTest

// The examples of the "Testing Your Code" article, run as written.

protocol FeedAPI: Sendable {
  func feed() async throws -> [String]
}

struct StubFeedAPI: FeedAPI {
  let items: [String]
  func feed() async throws -> [String] { items }
}

extension FeedAPI where Self == StubFeedAPI {
  static func stub(_ items: [String]) -> StubFeedAPI { StubFeedAPI(items: items) }
}

@MainActor @Observable
final class FeedModel {
  @ObservationIgnored @Loadable var feed: LoadableState<[String]>
  var api: any FeedAPI

  init(api: any FeedAPI) { self.api = api }

  func refresh() {
    $feed.load(silently: feed.isLoaded) { [api] in try await api.feed() }
  }
}

final class GatedFeedAPI: FeedAPI {
  // The article writes `Gate`: this target has a test-only `Gate` of its own, so the
  // public one is named with its module here.
  let gate = LoadablesTesting.Gate<[String]>()
  func feed() async throws -> [String] { try await gate.pass() }
}

/// Waits on a clock between two polls, as the article's `Poller` does.
struct Poller<C: Clock<Duration>> {
  let clock: C
  func pollTwice() async {
    for _ in 0..<2 { try? await clock.sleep(for: .seconds(10)) }
  }
}

final class FakeFeedAPI: FeedAPI {
  let replies = ScriptedFake<Void, [String]>()
  func feed() async throws -> [String] { try await replies.call() }
}

actor FeedServer: FeedAPI {
  private(set) var calls = 0

  func feed() async throws -> [String] {
    calls += 1
    return ["a"]
  }
}

final class DownloadingFeedAPI: FeedAPI {
  let download = ProgressGate<[String]>()
  func feed() async throws -> [String] { try await download.pass() }
}

protocol NewsletterAPI: Sendable {
  func subscribe(_ email: String) async throws
}

@MainActor @Observable

final class NewsletterModel {
  @ObservationIgnored @Loadables.Process var subscribing: SingleProcessState
  let api: any NewsletterAPI

  init(api: any NewsletterAPI) { self.api = api }

  func subscribe(_ email: String) {
    $subscribing.run { [api] in try await api.subscribe(email) }
  }
}

final class FakeNewsletterAPI: NewsletterAPI {
  let subscriptions = ScriptedFake<String, Void>()
  func subscribe(_ email: String) async throws { try await subscriptions.call(email) }
}

@MainActor
final class TestingArticleTests: XCTestCase {
  func testRefreshKeepsTheFeedOnScreen() async throws {
    let model = FeedModel(api: .stub(["a", "b"]))
    let recorder = StateRecorder(model.$feed)
    defer { recorder.stop() }

    model.refresh()
    try await recorder.wait(until: \.isLoaded)
    model.api = .stub(["a", "b", "c"])
    model.refresh()
    try await recorder.wait(forCount: 4)

    XCTAssertEqual(
      recorder.states,
      [.absent, .loading, .loaded(["a", "b"]), .loaded(["a", "b", "c"])]
    )
  }

  func testPollingWaitsTenSecondsBetweenTries() async throws {
    let clock = ManualClock()
    let poller = Poller(clock: clock)
    let task = Task { await poller.pollTwice() }

    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(10))
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(10))
    await task.value
    XCTAssertEqual(clock.now, .init(offset: .seconds(20)))
  }

  func testTheFeedShowsLoadingUntilTheServerAnswers() async throws {
    let api = GatedFeedAPI()
    let model = FeedModel(api: api)

    model.refresh()
    try await api.gate.arrival()  // the request is in flight
    XCTAssertEqual(model.feed, .loading)
    XCTAssertTrue(model.$feed.isRunning)

    api.gate.open(["a"])
    try await waitUntil("the feed to load", seen: "\(model.feed)") { model.feed.isLoaded }
    XCTAssertFalse(model.$feed.isRunning)
  }

  func testTheFeedAsksTheServerOnce() async throws {
    let server = FeedServer()
    let model = FeedModel(api: server)

    model.refresh()
    try await waitUntil("the server to be asked", seen: "calls: \(await server.calls)") {
      await server.calls == 1
    }
    try await waitUntil("the feed to load", seen: "\(model.feed)") { model.feed.isLoaded }
  }

  func testAWaitForAnActorFakeThatIsNeverAskedFailsNamingWhatItSaw() async {
    let server = FeedServer()
    do {
      try await waitUntil(
        "the server to be asked", timeout: .milliseconds(50), seen: "calls: \(await server.calls)"
      ) {
        await server.calls == 1
      }
      XCTFail("the wait returned with the server never asked")
    } catch {
      XCTAssertEqual(
        "\(error)",
        "waitUntil: waited 0.05 seconds for the server to be asked; it never held; saw calls: 0")
    }
  }

  func testASilentRefreshShowsItsSpinnerAndKeepsTheFeed() async throws {
    let model = FeedModel(api: .stub(["a", "b"]))
    let running = IsRunningRecorder { model.$feed.isRunning }
    defer { running.stop() }

    model.refresh()
    try await running.wait(until: { !$0 }, after: 1)
    model.refresh()  // silent now: the feed stays on screen
    try await running.wait(forCount: 5)

    XCTAssertEqual(running.values, [false, true, false, true, false])
    XCTAssertEqual(model.feed, .loaded(["a", "b"]))
  }

  func testASilentRefreshKeepsTheFeedWhileTheServerIsSlow() async throws {
    let api = FakeFeedAPI()
    api.replies.reply(.value(["a"]), .hold)
    let model = FeedModel(api: api)

    model.refresh()
    try await waitUntil("the feed to load", seen: "\(model.feed)") { model.feed.isLoaded }
    model.refresh()
    try await api.replies.arrival(count: 2)  // the second call is held
    XCTAssertEqual(model.feed, .loaded(["a"]))
    XCTAssertTrue(model.$feed.isRunning)

    try await api.replies.release(returning: ["a", "b"])
    try await waitUntil("the new feed") { model.feed == .loaded(["a", "b"]) }
    XCTAssertEqual(api.replies.calls.count, 2)
  }

  func testTheFeedShowsItsProgressUntilItLoads() async throws {
    let api = DownloadingFeedAPI()
    let model = FeedModel(api: api)
    let progress = ProgressRecorder { model.$feed.progress }
    defer { progress.stop() }

    model.refresh()
    api.download.send(LoadingProgress(fraction: 0.5))
    try await progress.wait(until: { $0?.fraction == 0.5 })
    XCTAssertEqual(model.feed, .loading)

    api.download.open(["a"])
    try await waitUntil("the feed to load", seen: "\(model.feed)") { model.feed.isLoaded }
    XCTAssertEqual(progress.values.map { $0?.fraction }, [nil, 0.5, nil])
  }

  func testANewerRefreshSupersedesOneTheServerHolds() async throws {
    let api = FakeFeedAPI()
    api.replies.reply(.hold, .value(["b"]))
    let model = FeedModel(api: api)
    let recorder = StateRecorder(model.$feed)
    defer { recorder.stop() }

    model.refresh()
    try await api.replies.arrival()  // the first request is held
    model.refresh()  // a newer one supersedes it
    try await recorder.wait(until: \.isLoaded)
    try await recorder.expectNoMoreStates()

    XCTAssertEqual(recorder.states, [.absent, .loading, .loaded(["b"])])
    XCTAssertEqual(api.replies.held, 0)  // cancelling the first load ended its call
  }

  func testAFailedSubscriptionCanBeTriedAgain() async throws {
    let api = FakeNewsletterAPI()
    api.subscriptions.reply(.error(URLError(.notConnectedToInternet)), .value(()))
    let model = NewsletterModel(api: api)
    let recorder = StateRecorder(model.$subscribing)
    defer { recorder.stop() }

    model.subscribe("a@example.com")
    try await recorder.wait(until: \.hasFailed)
    model.subscribe("a@example.com")
    try await recorder.wait(until: \.hasFinished)

    XCTAssertEqual(
      recorder.states.map(\.phase),
      [.idle, .running, .failed(URLError(.notConnectedToInternet)), .running, .finished])
    XCTAssertEqual(api.subscriptions.calls, ["a@example.com", "a@example.com"])
  }
}

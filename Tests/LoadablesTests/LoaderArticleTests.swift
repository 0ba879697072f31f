import Foundation
import Loadables
import LoadablesTesting
import XCTest

// The examples of the "Loader Objects" article, copied verbatim. `Post`, `PostsAPI` and
// `StubPostsAPI` are in PolicyArticleTests.swift and TimeBasedArticleTests.swift. Keep this
// file and the article in step.

// MARK: - Article: the declarations

struct UserProfile: Hashable, Sendable {
  let name: String
}

struct Dashboard: Hashable, Sendable {
  let profile: UserProfile
  let posts: [Post]
}

// MARK: - Article: Subclass BaseLoader

final class PostsLoader: BaseLoader<[Post]> {
  private let api: any PostsAPI

  init(api: any PostsAPI) {
    self.api = api
    super.init(policy: .retry(maxAttempts: 3))
  }

  override func fetch() async throws -> [Post] {
    try await api.posts()
  }
}

// MARK: - Article: Compose loaders

final class DashboardLoader: BaseLoader<Dashboard> {
  let profileLoader: BlockLoader<UserProfile>
  let feedLoader: PostsLoader

  init(profileLoader: BlockLoader<UserProfile>, feedLoader: PostsLoader) {
    self.profileLoader = profileLoader
    self.feedLoader = feedLoader
    super.init()
  }

  override func fetch() async throws -> Dashboard {
    async let profile = profileLoader.value()
    async let posts = feedLoader.value()
    return try await Dashboard(profile: profile, posts: posts)
  }
}

// MARK: - Article: Start a load without waiting

@MainActor
final class FeedScreen {
  let feed: PostsLoader
  init(feed: PostsLoader) { self.feed = feed }

  func refreshButtonTapped() {
    feed.start(silently: true)  // returns at once; the old posts stay on screen
  }
}

// MARK: - Tests

@MainActor
final class LoaderArticleTests: XCTestCase {
  let posts = [Post(id: 1, title: "Hello")]

  func testASubclassLoadsThroughFetch() async {
    let api = StubPostsAPI([.success(posts)], clock: ManualClock())
    let loader = PostsLoader(api: api)
    XCTAssertEqual(loader.policy.description.prefix(5), "retry")
    let state = await loader.load()
    XCTAssertEqual(state, .loaded(posts))
    XCTAssertEqual(loader.state, .loaded(posts))
    XCTAssertFalse(loader.isRunning)
  }

  func testStartLoadFromAButtonKeepsTheOldPostsOnScreen() async throws {
    let newer = [Post(id: 2, title: "Newer")]
    let api = StubPostsAPI([.success(newer)], clock: ManualClock())
    let screen = FeedScreen(feed: PostsLoader(api: api))
    let recorder = StateRecorder(screen.feed)
    defer { recorder.stop() }

    screen.refreshButtonTapped()
    XCTAssertTrue(screen.feed.isRunning, "start returned before its load started")
    try await recorder.wait(until: \.isLoaded)
    XCTAssertEqual(recorder.states, [.absent, .loaded(newer)], "a silent load wrote .loading")
  }

  func testBlockLoaders() async {
    let api = StubPostsAPI([.success(posts)], clock: ManualClock())

    let latest = BlockLoader { try await api.posts() }
    let quickLatest = BlockLoader(policy: .timeout(.seconds(5))) { try await api.posts() }

    await latest.load()
    await quickLatest.load()
    XCTAssertEqual(latest.state, .loaded(posts))
    XCTAssertEqual(quickLatest.state, .loaded(posts))
  }

  func testObservingEveryState() async throws {
    let api = StubPostsAPI([.success(posts)], clock: ManualClock())

    let feed = PostsLoader(api: api)
    let log = Task {
      for await state in feed.states {
        print("feed:", state)
      }
    }
    await feed.load()
    log.cancel()

    await log.value
    XCTAssertEqual(feed.state, .loaded(posts))
  }

  func testTheRecorderSnippet() async {
    let posts = self.posts

    let loader = PostsLoader(api: StubPostsAPI([.success(posts)], clock: ManualClock()))
    let recorder = StateRecorder(loader)
    await loader.load()
    XCTAssertEqual(recorder.states, [.absent, .loading, .loaded(posts)])
    recorder.stop()
  }

  func testAnObserverThatArrivesLaterStillGetsEveryStateFromThen() async throws {
    let gate = Gate<Int>()
    let loader = BlockLoader { try await gate.pass() }
    let first = Task { @MainActor in
      for await state in loader.states where state.isLoading { return true }
      return false
    }
    let load = Task { @MainActor in await loader.load() }
    await gate.arrival()
    _ = await first.value  // the first observer has gone
    let late = Task { @MainActor in
      var seen: [LoadableState<Int>] = []
      for await state in loader.states {
        seen.append(state)
        if state.isLoaded { break }
      }
      return seen
    }
    await Task.yield()
    gate.open(7)
    _ = await load.value
    let seen = await late.value
    XCTAssertEqual(seen, [.loading, .loaded(7)])
  }

  func testLoadReturnsTheStateAndReportsAnError() async {
    let api = StubPostsAPI([.failure(URLError(.badServerResponse))], clock: ManualClock())
    let feed = BlockLoader { try await api.posts() }

    let state = await feed.load()
    if case .error(let error) = state {
      print("could not load the feed:", error)
    }

    XCTAssertEqual((state.error as? URLError)?.code, .badServerResponse)
    XCTAssertEqual(feed.state, state)
  }

  func testCancellingTheCallerCancelsTheLoadAndBringsBackTheState() async {
    let gate = Gate<[Post]>()
    let feed = BlockLoader { try await gate.pass() }
    let caller = Task { @MainActor in await feed.load() }
    await gate.arrival()
    caller.cancel()
    let state = await caller.value
    XCTAssertEqual(state, .absent)
    XCTAssertFalse(feed.isRunning)
  }

  func testCancelStopsTheLoadButNotTheAwaitingTask() async {
    let gate = Gate<[Post]>()
    let feed = BlockLoader { try await gate.pass() }
    let caller = Task { @MainActor in
      let state = await feed.load()
      return (state, Task.isCancelled)
    }
    await gate.arrival()
    feed.cancel()
    let (state, callerCancelled) = await caller.value
    XCTAssertEqual(state, .absent, "cancel() brings back what .loading replaced")
    XCTAssertFalse(callerCancelled, "cancel() must not cancel the awaiting task")
    feed.reset()
    XCTAssertEqual(feed.state, .absent)
  }

  /// Loader Objects: "`cancel()` stops the running load and brings back the state it
  /// replaced" (the article's rule, and its table of Processed's spellings): a cancelled reload
  /// of a loaded loader shows the old posts again, and its late value never lands.
  func testLoaderObjectsCancelBringsBackThePostsAReloadReplaced() async {
    let gate = Gate<[Post]>()
    let feed = BlockLoader(state: .loaded(posts)) { try await gate.passIgnoringCancellation() }
    let caller = Task { @MainActor in await feed.load() }
    await gate.arrival()
    XCTAssertEqual(feed.state, .loading, "the reload did not show its spinner")
    feed.cancel()
    XCTAssertEqual(feed.state, .loaded(posts), "cancel() did not bring back the posts")
    gate.open([Post(id: 2, title: "Late")])
    let returned = await caller.value
    XCTAssertEqual(returned, .loaded(posts), "the cancelled load returned \(returned)")
    XCTAssertEqual(feed.state, .loaded(posts), "the cancelled reload wrote its late value")
  }

  func testASupersededCallReturnsWhenItsFetchStops() async {
    // A fetch that honours cancellation: the superseded call returns before the newer load
    // ends, with the newer load's state.
    let cooperative = Gate<Int>()
    var calls = 0
    let loader = BlockLoader<Int> {
      calls += 1
      return calls == 1 ? try await cooperative.pass() : try await cooperative.pass() + 1
    }
    let first = Task { @MainActor in await loader.load() }
    await cooperative.arrival()
    let second = Task { @MainActor in await loader.load() }
    let firstState = await first.value
    XCTAssertEqual(firstState, .loading)
    await cooperative.arrival(count: 2)
    cooperative.open(1)
    _ = await second.value
    XCTAssertEqual(loader.state, .loaded(2))

    // A fetch that ignores cancellation: the superseded call returns only when it returns.
    let careless = Gate<Int>()
    var carelessCalls = 0
    let slow = BlockLoader<Int> {
      carelessCalls += 1
      if carelessCalls == 1 { return try await careless.passIgnoringCancellation() }
      return 2
    }
    var firstReturned = false
    let one = Task { @MainActor in
      let state = await slow.load()
      firstReturned = true
      return state
    }
    await careless.arrival()
    await slow.load()
    for _ in 0..<20 { await Task.yield() }
    XCTAssertFalse(firstReturned)
    careless.open(99)
    let oneState = await one.value
    XCTAssertEqual(oneState, .loaded(2), "the superseded load wrote, or returned its own value")
  }

  func testTheDashboardComposesTwoLoaders() async throws {
    let api = StubPostsAPI([.success(posts)], clock: ManualClock())
    let profileLoader = BlockLoader { UserProfile(name: "Ada") }
    let feedLoader = PostsLoader(api: api)
    let dashboard = DashboardLoader(profileLoader: profileLoader, feedLoader: feedLoader)
    await dashboard.load()
    XCTAssertEqual(
      dashboard.state, .loaded(Dashboard(profile: UserProfile(name: "Ada"), posts: posts)))
    XCTAssertEqual(profileLoader.state, .loaded(UserProfile(name: "Ada")))
    XCTAssertEqual(feedLoader.state, .loaded(posts))
  }

  func testWhenAChildFailsTheOthersNotAwaitedYetAreCancelled() async {
    let gate = Gate<[Post]>()
    let api = ClosurePostsAPI { _ in try await gate.pass() }
    let profileLoader = BlockLoader<UserProfile> { throw URLError(.userAuthenticationRequired) }
    let feedLoader = PostsLoader(api: api)
    let dashboard = DashboardLoader(profileLoader: profileLoader, feedLoader: feedLoader)
    let load = Task { @MainActor in await dashboard.load() }
    await gate.arrival()
    let state = await load.value
    XCTAssertEqual((state.error as? URLError)?.code, .userAuthenticationRequired)
    XCTAssertEqual(feedLoader.state, .absent, "a cancelled child's spinner stayed up")
    XCTAssertFalse(feedLoader.isRunning)
  }

  func testCancellingTheDashboardCancelsTheChildren() async {
    let gate = Gate<[Post]>()
    let api = ClosurePostsAPI { _ in try await gate.pass() }
    let profileLoader = BlockLoader { UserProfile(name: "Ada") }
    let feedLoader = PostsLoader(api: api)
    let dashboard = DashboardLoader(profileLoader: profileLoader, feedLoader: feedLoader)
    let load = Task { @MainActor in await dashboard.load() }
    await gate.arrival()
    dashboard.cancel()
    _ = await load.value
    while feedLoader.isRunning { await Task.yield() }
    XCTAssertEqual(feedLoader.state, .absent)
    XCTAssertEqual(dashboard.state, .absent)
  }

  func testAWrappingLoaderHasItsOwnStateAndReplacesTheWrappedPolicy() async {
    let api = StubPostsAPI([.failure(URLError(.timedOut)), .success(posts)], clock: ManualClock())

    let feed = PostsLoader(api: api)
    let patientFeed = feed.with(.retry(maxAttempts: 5, backoff: .constant(.seconds(1))))
    // The same as: PolicyLoader(wrapping: feed, policy: .retry(...))

    XCTAssertTrue(patientFeed.wrapped === feed)
    XCTAssertTrue(patientFeed.policy.description.contains("maxAttempts: 5"))
    let noRetry = PolicyLoader(wrapping: feed, policy: LoadPolicy())
    await noRetry.load()
    XCTAssertTrue(noRetry.state.isError, "the wrapped loader's own retry applied")
    await patientFeed.load()  // the script's next answer is a success: no wait
    XCTAssertEqual(patientFeed.state, .loaded(posts))
    XCTAssertEqual(feed.state, .absent, "the wrapped loader's state was touched")
    XCTAssertEqual(api.calls, ["posts", "posts"])
  }

  // MARK: LoadingView's defects

  func testObserversOfARetrySeeEachFailureWithShowsFailedAttempts() async {
    var calls = 0
    let loader = BlockLoader<Int>(
      policy: .retry(maxAttempts: 2, backoff: .immediate, showsFailedAttempts: true)
    ) {
      calls += 1
      if calls == 1 { throw URLError(.timedOut) }
      return 5
    }
    let observer = Task { @MainActor in
      var seen: [LoadableState<Int>] = []
      for await state in loader.states {
        seen.append(state)
        if state.isLoaded { break }
      }
      return seen
    }
    await Task.yield()
    await loader.load()
    let seen = await observer.value
    XCTAssertEqual(seen.count, 5)
    XCTAssertEqual(seen.map(\.isError), [false, false, true, false, false])
  }

  func testACancelledLoadNeverShowsCancellationError() async {
    let gate = Gate<Int>()
    var calls = 0
    let loader = BlockLoader<Int> {
      calls += 1
      if calls == 1 { return try await gate.pass() }
      return 2
    }
    let first = Task { @MainActor in await loader.load() }
    await gate.arrival()
    await loader.load()
    _ = await first.value
    XCTAssertEqual(loader.state, .loaded(2))
  }
}

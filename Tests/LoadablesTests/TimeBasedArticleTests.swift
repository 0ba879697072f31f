import Foundation
import Loadables
import LoadablesTesting
import Observation
import XCTest

// The examples of the "Testing Time-Based Code" article, copied verbatim. `Post` and
// `PostsAPI` are in PolicyArticleTests.swift. Keep this file and the article in step.

// MARK: - Article: the model under test

@MainActor @Observable
final class PostsModel {
  @ObservationIgnored @Loadable var posts: LoadableState<[Post]>
  @ObservationIgnored @Loadable var results: LoadableState<[Post]>
  private let api: any PostsAPI
  private let clock: any Clock<Duration>
  private let cache: LoadCache<String, [Post]>

  init(api: any PostsAPI, clock: any Clock<Duration> = ContinuousClock()) {
    self.api = api
    self.clock = clock
    self.cache = LoadCache(timeToLive: .seconds(60), clock: clock)
  }

  /// Shows the posts cached in the last minute at once; retries a failed fetch twice, two
  /// seconds apart.
  func refresh() {
    $posts.load(
      policy: .cache(cache, key: "feed")
        .retry(maxAttempts: 3, backoff: .constant(.seconds(2)), clock: clock)
    ) { [api] in
      try await api.posts()
    }
  }

  /// Gives each of three attempts ten seconds; waits two seconds between them.
  func refreshWithinLimits() {
    $posts.load(
      policy: .retry(maxAttempts: 3, backoff: .constant(.seconds(2)), clock: clock)
        .timeout(.seconds(10), clock: clock)
    ) { [api] in
      try await api.posts()
    }
  }

  /// Searches once typing has paused for 300 ms, and gives up after ten seconds.
  func search(_ text: String) {
    $results.load(
      policy: .debounce(for: .milliseconds(300), clock: clock)
        .timeout(.seconds(10), clock: clock)
    ) { [api] in
      try await api.search(text)
    }
  }
}

// MARK: - Article: the stub

@MainActor
final class StubPostsAPI: PostsAPI {
  /// The outcome of each call, in order; the last one repeats.
  var script: [Result<[Post], any Error>]
  /// How long each call takes on `clock`, as a server would; zero answers at once.
  var latency: Duration = .zero
  /// Each call made, such as `"search swift"`.
  private(set) var calls: [String] = []
  private let clock: any Clock<Duration>

  init(_ script: [Result<[Post], any Error>], clock: any Clock<Duration>) {
    self.script = script
    self.clock = clock
  }

  func posts() async throws -> [Post] { try await answer("posts") }
  func post(_ id: Post.ID) async throws -> Post { try await answer("post \(id)")[0] }
  func search(_ text: String) async throws -> [Post] { try await answer("search \(text)") }
  func page(_ number: Int) async throws -> [Post] { try await answer("page \(number)") }

  private func answer(_ call: String) async throws -> [Post] {
    calls.append(call)
    let outcome = script[min(calls.count, script.count) - 1]
    if latency > .zero { try await clock.sleep(for: latency) }
    return try outcome.get()
  }
}

// MARK: - Article: one clock for the whole test

@MainActor @Observable
final class NewsModel {
  @ObservationIgnored @Loadable var headlines: LoadableState<[Post]>
  /// What the screen shows while a load runs long; `nil` until it does.
  var slowNotice: String?
  private let api: any PostsAPI

  /// Two more tries, a second apart: written once, waits on whatever clock is current.
  static let patient = LoadPolicy<[Post]>.retry(maxAttempts: 3, backoff: .constant(.seconds(1)))

  init(api: any PostsAPI) { self.api = api }

  /// Says so when the load takes over 5 seconds.
  func refresh() {
    $headlines.load(interrupts: [.seconds(5)]) { [api] in
      try await api.posts()
    } onInterrupt: { [weak self] _ in
      self?.slowNotice = "Still loading…"
    }
  }

  /// Tries up to three times.
  func retry() {
    $headlines.load(policy: Self.patient) { [api] in try await api.posts() }
  }
}

// MARK: - Article: the recipes

@MainActor
final class TimeBasedArticleTests: XCTestCase {
  let posts = [Post(id: 1, title: "Hello")]
  let newer = [Post(id: 1, title: "Hello"), Post(id: 2, title: "Again")]

  func testARefreshRetriesTwoSecondsApart() async throws {
    let clock = ManualClock()
    let offline = URLError(.notConnectedToInternet)
    let api = StubPostsAPI([.failure(offline), .failure(offline), .success(posts)], clock: clock)
    let model = PostsModel(api: api, clock: clock)
    let recorder = StateRecorder(model.$posts)
    defer { recorder.stop() }

    model.refresh()
    try await clock.sleepers(count: 1)  // attempt 1 failed: the retry waits
    XCTAssertEqual(model.$posts.attempt?.number, 2)
    XCTAssertEqual(model.$posts.attempt?.delay, .seconds(2))
    clock.advance(by: .seconds(2))
    try await clock.sleepers(count: 1)  // attempt 2 failed too
    clock.advance(by: .seconds(2))
    try await recorder.wait(until: \.isLoaded)

    XCTAssertEqual(api.calls, ["posts", "posts", "posts"])
    XCTAssertEqual(recorder.states, [.absent, .loading, .loaded(posts)])
  }

  func testEachAttemptThatTimesOutIsRetriedAfterItsBackoff() async throws {
    let clock = ManualClock()
    let api = StubPostsAPI([.success(posts)], clock: clock)
    api.latency = .seconds(30)
    let model = PostsModel(api: api, clock: clock)
    let recorder = StateRecorder(model.$posts)
    defer { recorder.stop() }

    model.refreshWithinLimits()
    try await clock.sleepers(count: 2)  // attempt 1: its timeout's timer and the slow server
    clock.advance(by: .seconds(10))  // attempt 1 times out
    let attempt = try await clock.backoff(beforeAttempt: 2, of: model.$posts.attempt)
    XCTAssertTrue(attempt.lastError is TimeoutError)
    XCTAssertEqual(attempt.delay, .seconds(2))
    api.latency = .zero  // the server is quick again
    clock.advance(by: .seconds(2))
    try await recorder.wait(until: \.isLoaded)

    XCTAssertEqual(api.calls, ["posts", "posts"])
    XCTAssertEqual(recorder.states, [.absent, .loading, .loaded(posts)])
  }

  func testASharedEntryRetriesBesideTheStoresSweeper() async throws {
    let clock = ManualClock()
    let offline = URLError(.notConnectedToInternet)
    let api = StubPostsAPI([.failure(offline), .success(posts)], clock: clock)

    try await withLoadClock(clock) {
      let store = LoaderStore()  // its grace sweeper sleeps on the clock too
      let feed = store.loader(
        for: ["posts"], policy: .retry(maxAttempts: 3, backoff: .constant(.seconds(2)))
      ) {
        try await api.posts()
      }
      let load = Task { await feed.load() }

      try await clock.backoff(beforeAttempt: 2, of: feed.attempt)
      try await clock.sleepers(count: 2)  // the sweeper's task may begin its sleep later
      XCTAssertEqual(clock.sleeperDeadlines, [.seconds(2), .seconds(300)])
      clock.advance(by: .seconds(2))
      let state = await load.value
      XCTAssertEqual(state, .loaded(posts))
    }
  }

  func testASharedEntrysBackoffIsFoundByItsDeadline() async throws {
    let clock = ManualClock()
    let offline = URLError(.notConnectedToInternet)
    let api = StubPostsAPI([.failure(offline), .success(posts)], clock: clock)

    try await withLoadClock(clock) {
      let store = LoaderStore()
      let feed = store.loader(
        for: ["posts"], policy: .retry(maxAttempts: 3, backoff: .constant(.seconds(2)))
      ) {
        try await api.posts()
      }
      let load = Task { await feed.load() }

      try await clock.sleeper(deadline: .seconds(2))  // the backoff, beside the sweeper or not
      clock.advance(by: .seconds(2))
      let state = await load.value
      XCTAssertEqual(state, .loaded(posts))
    }
  }

  func testASlowSearchEndsWithTimeoutError() async throws {
    let clock = ManualClock()
    let api = StubPostsAPI([.success(posts)], clock: clock)
    api.latency = .seconds(30)
    let model = PostsModel(api: api, clock: clock)
    let recorder = StateRecorder(model.$results)
    defer { recorder.stop() }

    model.search("swift")
    try await clock.sleepers(count: 1)  // the debounce
    clock.advance(by: .milliseconds(300))
    try await clock.sleepers(count: 2)  // the timeout's timer, and the slow server
    clock.advance(by: .seconds(10))
    try await recorder.wait(until: \.isError)

    XCTAssertEqual(model.results, .error(TimeoutError()))
  }

  func testOnlyTheLastSearchOfABurstRuns() async throws {
    let clock = ManualClock()
    let api = StubPostsAPI([.success(posts)], clock: clock)
    let model = PostsModel(api: api, clock: clock)
    let recorder = StateRecorder(model.$results)
    defer { recorder.stop() }

    for text in ["s", "sw", "swi"] {
      model.search(text)
      try await clock.sleepers(count: 1)
      clock.advance(by: .milliseconds(100))
    }
    XCTAssertEqual(api.calls, [])
    clock.advance(by: .milliseconds(200))
    try await recorder.wait(until: \.isLoaded)

    XCTAssertEqual(api.calls, ["search swi"])
  }

  func testCachedPostsGoStaleAfterAMinute() async throws {
    let clock = ManualClock()
    let api = StubPostsAPI([.success(posts), .success(newer)], clock: clock)
    let model = PostsModel(api: api, clock: clock)
    let recorder = StateRecorder(model.$posts)
    defer { recorder.stop() }

    model.refresh()
    try await recorder.wait(until: \.isLoaded)
    clock.advance(by: .seconds(59))
    model.refresh()  // fresh: shown at once, nothing fetched
    XCTAssertEqual(api.calls.count, 1)
    clock.advance(by: .seconds(1))
    model.refresh()  // a minute old: shown at once, then fetched again
    try await recorder.wait(until: { $0 == .loaded(self.newer) })

    XCTAssertEqual(api.calls.count, 2)
    XCTAssertEqual(
      recorder.states,
      [.absent, .loading, .loaded(posts), .loaded(posts), .loaded(posts), .loaded(newer)])
  }
  func testASlowSearchEndsWithTimeoutErrorWithoutCountingTimers() async throws {
    let clock = ManualClock()
    let api = StubPostsAPI([.success(posts)], clock: clock)
    api.latency = .seconds(30)
    let model = PostsModel(api: api, clock: clock)

    model.search("swift")
    try await clock.sleepers(count: 1)  // the search has started
    try await clock.run()  // the debounce, then the timeout: every timer ends

    XCTAssertEqual(model.results, .error(TimeoutError()))
    XCTAssertEqual(clock.now.offset, .milliseconds(10_300))
  }

  func testRunningTheClockTakesTheRetryThroughEveryBackoff() async throws {
    let clock = ManualClock()
    let offline = URLError(.notConnectedToInternet)
    let api = StubPostsAPI([.failure(offline), .failure(offline), .success(posts)], clock: clock)
    let model = PostsModel(api: api, clock: clock)

    model.refresh()
    try await clock.sleepers(count: 1)
    try await clock.run(for: .seconds(4))

    XCTAssertEqual(model.posts, .loaded(posts))
    XCTAssertEqual(api.calls, ["posts", "posts", "posts"])
  }

  func testASlowRefreshShowsTheNoticeThenTheHeadlines() async throws {
    let clock = ManualClock()
    let api = StubPostsAPI([.success(posts)], clock: clock)
    api.latency = .seconds(8)
    let model = NewsModel(api: api)

    try await withLoadClock(clock) {
      model.refresh()
      try await clock.sleepers(count: 2)  // the interrupt's timer and the slow server
      try await clock.run(for: .seconds(5))
      XCTAssertEqual(model.slowNotice, "Still loading…")
      try await clock.run()
    }

    XCTAssertEqual(model.headlines, .loaded(posts))
  }

  func testAStaticRetryPolicyWaitsOnTheTestsClock() async throws {
    let clock = ManualClock()
    let offline = URLError(.notConnectedToInternet)
    let api = StubPostsAPI([.failure(offline), .success(posts)], clock: clock)
    let model = NewsModel(api: api)

    try await withLoadClock(clock) {
      model.retry()
      try await clock.sleepers(count: 1)  // the backoff after attempt 1
      try await clock.run()
    }

    XCTAssertEqual(model.headlines, .loaded(posts))
    XCTAssertEqual(clock.now.offset, .seconds(1))
  }
}

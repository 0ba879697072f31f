import Foundation
import Loadables
import LoadablesTesting
import XCTest

// The examples of the "Progress" article, copied verbatim. `Post` and `PostsAPI` are in
// PolicyArticleTests.swift. Keep this file and the article in step.

// MARK: - Article: Report from any depth

/// Loads the first `count` pages, reporting after each one.
func loadPages(_ count: Int, from api: any PostsAPI) async throws -> [Post] {
  var posts: [Post] = []
  for number in 1...count {
    posts += try await api.page(number)
    LoadingProgress.report(
      fraction: Double(number) / Double(count), message: "Page \(number) of \(count)")
  }
  return posts
}

// MARK: - Article: The attempt of a retry

func retryMessage(_ attempt: RetryAttempt?) -> String? {
  guard let attempt, attempt.isRetry else { return nil }
  let count = "attempt \(attempt.number) of \(attempt.maxAttempts)"
  guard let delay = attempt.delay else { return "Retrying: \(count)" }
  return "Retrying in \(delay.components.seconds) s: \(count)"
}

// MARK: - Tests

@MainActor
final class ProgressArticleTests: XCTestCase {
  private let page = [Post(id: 1, title: "Hello")]

  func testTheProgressValues() {
    let halfway = LoadingProgress(fraction: 0.5, message: "Page 2 of 4")
    let quarter = LoadingProgress(percent: 25)  // fraction 0.25, percent 25
    let connecting = LoadingProgress(fraction: nil, message: "Connecting")

    XCTAssertEqual(halfway.percent, 50)
    XCTAssertEqual(quarter.fraction, 0.25)
    XCTAssertEqual(quarter.percent, 25)
    XCTAssertEqual(quarter, LoadingProgress(fraction: 0.25))
    XCTAssertNil(connecting.fraction)
    XCTAssertNil(connecting.percent)
  }

  // Article: A progress value (the clamping example).
  func testOutOfRangeValuesAreClamped() {
    let received = 1_000_001
    let expected = 1_000_000
    let done = LoadingProgress(fraction: Double(received) / Double(expected))  // fraction 1
    let empty = LoadingProgress(fraction: Double(0) / Double(0))  // 0 / 0 is nan: fraction 0

    XCTAssertEqual(done.fraction, 1)
    XCTAssertEqual(empty.fraction, 0)
    // The table.
    XCTAssertEqual(LoadingProgress(fraction: .infinity).fraction, 1)
    XCTAssertEqual(LoadingProgress(percent: 100.2).fraction, 1)
    XCTAssertEqual(LoadingProgress(fraction: -0.1).fraction, 0)
    XCTAssertEqual(LoadingProgress(fraction: -.infinity).fraction, 0)
    XCTAssertEqual(LoadingProgress(percent: -5).fraction, 0)
    XCTAssertEqual(LoadingProgress(fraction: .nan).fraction, 0)
    XCTAssertEqual(LoadingProgress(percent: .nan).fraction, 0)
    XCTAssertNil(LoadingProgress(fraction: nil).fraction)
  }

  func testReportsFromAnotherThreadShowBesideTheStateAndClearAtTheEnd() async {
    @Loadable var posts: LoadableState<[Post]>
    let gate = Gate<Void>()
    let page = self.page
    let api = ClosurePostsAPI { call in
      if call == "page 3" { try await gate.pass() }
      return page
    }
    _ = $posts.progress  // as a view that shows it would

    func load() {
      $posts.load { try await loadPages(4, from: api) }
    }

    load()
    await gate.arrival()
    XCTAssertEqual($posts.progress, LoadingProgress(fraction: 0.5, message: "Page 2 of 4"))
    XCTAssertEqual(posts, .loading, "progress must not change the state")
    gate.open()
    while $posts.isRunning { await Task.yield() }
    XCTAssertEqual(posts, .loaded(page + page + page + page))
    XCTAssertNil($posts.progress, "progress outlived its load")
  }

  func testTheSnippetThatReadsProgressBeforeALoad() async throws {
    let clock = ManualClock()
    let gate = Gate<Void>()
    let page = self.page
    let api = ClosurePostsAPI { _ in
      LoadingProgress.report(fraction: 0.5)
      try await gate.pass()
      return page
    }
    let model = PostsModel(api: api, clock: clock)

    _ = model.$posts.progress  // as a view that shows it would
    model.refresh()

    await gate.arrival()
    XCTAssertEqual(model.$posts.progress?.fraction, 0.5)
    gate.open()
    while model.$posts.isRunning { await Task.yield() }
    XCTAssertNil(model.$posts.progress)
  }

  func testAPlainLoadStartedBeforeAnyoneReadProgressDropsItsReports() async {
    @Loadable var posts: LoadableState<[Post]>
    var seen: [LoadingProgress?] = []
    await $posts.load {
      LoadingProgress.report(fraction: 0.5)
      seen.append($posts.progress)
      return []
    }
    XCTAssertEqual(seen, [nil])
  }

  func testEveryPolicyLoadReceivesItsProgress() async {
    @Loadable var posts: LoadableState<[Post]>
    var seen: [LoadingProgress?] = []
    await $posts.load(policy: .timeout(.seconds(60))) {
      LoadingProgress.report(fraction: 0.5)
      seen.append($posts.progress)
      return []
    }
    XCTAssertEqual(seen, [LoadingProgress(fraction: 0.5)])

    // A loader with a policy receives its progress; one without, only after a read.
    var loaderSeen: [LoadingProgress?] = []
    final class Box { var loader: (any Loader)? }
    let box = Box()
    let withPolicy = BlockLoader<Int>(policy: .retry(maxAttempts: 2)) {
      LoadingProgress.report(fraction: 0.25)
      loaderSeen.append(box.loader?.progress)
      return 1
    }
    box.loader = withPolicy
    await withPolicy.load()
    let plain = BlockLoader<Int> {
      LoadingProgress.report(fraction: 0.25)
      loaderSeen.append(box.loader?.progress)
      return 1
    }
    box.loader = plain
    await plain.load()
    await plain.load()  // the previous load read `progress`: delivery is on now
    XCTAssertEqual(
      loaderSeen, [LoadingProgress(fraction: 0.25), nil, LoadingProgress(fraction: 0.25)])
  }

  func testTheAttemptOfARetryAndTheMessage() async throws {
    @Loadable var posts: LoadableState<[Post]>
    let clock = ManualClock()
    var calls = 0
    var duringFirst: RetryAttempt?
    var duringSecond: RetryAttempt?
    let task: Task<Void, Never> = $posts.load(
      policy: .retry(maxAttempts: 3, backoff: .constant(.seconds(2)), clock: clock)
    ) {
      calls += 1
      if calls == 1 {
        duringFirst = $posts.attempt
        throw URLError(.timedOut)
      }
      duringSecond = $posts.attempt
      return []
    }
    try await clock.sleepers(count: 1)
    XCTAssertEqual(duringFirst?.number, 1)
    XCTAssertEqual(duringFirst?.maxAttempts, 3)
    XCTAssertNil(duringFirst?.delay)
    XCTAssertNil(duringFirst?.lastError)
    XCTAssertNil(retryMessage(duringFirst))
    let waiting = try XCTUnwrap($posts.attempt)
    XCTAssertEqual(waiting.number, 2)
    XCTAssertEqual(waiting.delay, .seconds(2))
    XCTAssertTrue(waiting.isWaiting)
    XCTAssertTrue(waiting.isRetry)
    XCTAssertTrue(waiting.lastError is URLError)
    XCTAssertEqual(retryMessage(waiting), "Retrying in 2 s: attempt 2 of 3")
    XCTAssertEqual(posts, .loading)
    clock.advance(by: .seconds(2))
    await task.value
    XCTAssertEqual(duringSecond?.number, 2)
    XCTAssertNil(duringSecond?.delay)
    XCTAssertEqual(retryMessage(duringSecond), "Retrying: attempt 2 of 3")
    XCTAssertNil($posts.attempt)
    XCTAssertEqual(
      retryMessage(RetryAttempt(number: 2, maxAttempts: 3)), "Retrying: attempt 2 of 3")
  }
}

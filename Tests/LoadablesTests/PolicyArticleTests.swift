import Foundation
import Loadables
import LoadablesTesting
import XCTest

// The examples of the "Composing Policies" article, copied verbatim, and run with a
// `ManualClock` so that no test sleeps. Keep this file and the article in step.
//
// `Post` and `PostsAPI` are also the declarations of the "Progress" and "Testing Time-Based
// Code" articles; `StubPostsAPI`, from the latter, is in TimeBasedArticleTests.swift.

// MARK: - Article: the declarations the examples share

struct Post: Identifiable, Hashable, Sendable {
  let id: Int
  var title: String
}

protocol PostsAPI: Sendable {
  func posts() async throws -> [Post]
  func post(_ id: Post.ID) async throws -> Post
  func search(_ text: String) async throws -> [Post]
  func page(_ number: Int) async throws -> [Post]
}

// MARK: - Article: Retry

struct ServerError: Error {
  let status: Int
  var retryAfter: Duration?
}

// MARK: - Article: Concurrency limit

@MainActor
final class PostRow {
  let id: Post.ID
  @Loadable var post: LoadableState<Post>

  init(id: Post.ID) { self.id = id }
}

// MARK: - Article: Write your own policy

struct NotFound: Error {}

// MARK: - Tests

@MainActor
final class PolicyArticleTests: XCTestCase {
  private let first = [Post(id: 1, title: "First")]
  private let edited = [Post(id: 1, title: "First, edited")]

  // MARK: Retry

  func testRetryRunsTheBlockAgainAfterTheBackoff() async throws {
    @Loadable var posts: LoadableState<[Post]>
    let clock = ManualClock()
    let api = StubPostsAPI([.failure(URLError(.timedOut)), .success(first)], clock: clock)
    let recorder = StateRecorder($posts)
    defer { recorder.stop() }

    func refresh() {
      $posts.load(policy: .retry(maxAttempts: 3, clock: clock)) {
        try await api.posts()
      }
    }

    refresh()
    try await clock.sleepers(count: 1)
    let waiting = try XCTUnwrap($posts.attempt)
    XCTAssertEqual(waiting.number, 2)
    XCTAssertTrue(waiting.isWaiting)
    // The default backoff is exponential from one second with full jitter: at most 1 s.
    let delay = try XCTUnwrap(waiting.delay)
    XCTAssertTrue((.zero...Duration.seconds(1)).contains(delay), "\(delay)")
    XCTAssertEqual(posts, .loading, "a failed attempt must not be written")
    clock.advance(by: delay)
    try await recorder.wait(until: \.isLoaded)
    XCTAssertEqual(recorder.states, [.absent, .loading, .loaded(first)])
    XCTAssertEqual(api.calls, ["posts", "posts"])
    XCTAssertNil($posts.attempt)
  }

  func testTheBackoffTableGivesTheseDelays() {
    func delays(_ backoff: Backoff) -> [Duration] {
      (1...4).map { backoff.baseDelay(forRetry: $0) }
    }
    XCTAssertEqual(delays(.immediate), [.zero, .zero, .zero, .zero])
    XCTAssertEqual(delays(.constant(.seconds(2))), Array(repeating: .seconds(2), count: 4))
    XCTAssertEqual(
      delays(.linear(initial: .seconds(1))), [.seconds(1), .seconds(2), .seconds(3), .seconds(4)])
    XCTAssertEqual(
      delays(.linear(initial: .seconds(1), increment: .seconds(2))),
      [.seconds(1), .seconds(3), .seconds(5), .seconds(7)])
    // Computed in seconds as a `Double`, so compared to the microsecond.
    let exponential = delays(.exponential(initial: .milliseconds(200), jitter: .none))
    for (delay, expected) in zip(exponential, [0.2, 0.4, 0.8, 1.6]) {
      let difference = delay - .seconds(expected)
      XCTAssertLessThan(max(difference, .zero - difference), .microseconds(1), "\(exponential)")
    }
    XCTAssertEqual(
      delays(
        .exponential(initial: .seconds(1), multiplier: 3, maxDelay: .seconds(10), jitter: .none)),
      [.seconds(1), .seconds(3), .seconds(9), .seconds(10)])
    XCTAssertEqual(delays(.exponential()), [.seconds(1), .seconds(2), .seconds(4), .seconds(8)])
    // The caps: 60 s for linear, 30 s for exponential, by default.
    XCTAssertEqual(Backoff.linear(initial: .seconds(50)).baseDelay(forRetry: 3), .seconds(60))
    XCTAssertEqual(Backoff.exponential().baseDelay(forRetry: 10), .seconds(30))
    // Only exponential backoff has jitter by default.
    XCTAssertEqual(Backoff.exponential().jitter, .full)
    XCTAssertEqual(Backoff.constant(.seconds(1)).jitter, Jitter.none)
    XCTAssertEqual(Backoff.linear(initial: .seconds(1)).jitter, Jitter.none)
  }

  func testEachJitterStaysInItsRange() {
    var generator = SplitMix64(seed: 42)
    let d = Duration.seconds(10)
    for _ in 0..<1000 {
      let full = Backoff.constant(d, jitter: .full).delay(forRetry: 1, using: &generator)
      XCTAssertTrue((.zero...d).contains(full), "\(full)")
      let equal = Backoff.constant(d, jitter: .equal).delay(forRetry: 1, using: &generator)
      XCTAssertTrue((.seconds(5)...d).contains(equal), "\(equal)")
      let proportional = Backoff.constant(d, jitter: .proportional(0.2))
        .delay(forRetry: 1, using: &generator)
      XCTAssertTrue((.seconds(8)...Duration.seconds(12)).contains(proportional), "\(proportional)")
    }
    XCTAssertEqual(Backoff.constant(d).delay(forRetry: 1, using: &generator), d)
  }

  func testTheErrorFilterAndRetryAfter() async throws {
    @Loadable var posts: LoadableState<[Post]>
    let clock = ManualClock()
    let api = StubPostsAPI(
      [
        .failure(ServerError(status: 429, retryAfter: .seconds(7))),
        .failure(ServerError(status: 404)),
      ],
      clock: clock)
    let recorder = StateRecorder($posts)
    defer { recorder.stop() }

    func refresh() {
      $posts.load(
        policy: .retry(
          maxAttempts: 5,
          backoff: .exponential(initial: .milliseconds(500), maxDelay: .seconds(10)),
          when: { error in
            guard let error = error as? ServerError else { return true }
            return error.status == 429 || error.status >= 500
          },
          retryAfter: { ($0 as? ServerError)?.retryAfter },
          clock: clock)
      ) {
        try await api.posts()
      }
    }

    refresh()
    try await clock.sleepers(count: 1)
    XCTAssertEqual($posts.attempt?.delay, .seconds(7), "the server's wait replaces the backoff")
    clock.advance(by: .seconds(7))
    try await recorder.wait(until: \.isError)
    XCTAssertEqual((posts.error as? ServerError)?.status, 404, "a 404 must not be retried")
    XCTAssertEqual(api.calls.count, 2)
  }

  // MARK: Timeout

  func testTheTimeoutEndsASlowBlockWithTimeoutError() async throws {
    @Loadable var posts: LoadableState<[Post]>
    let clock = ManualClock()
    let api = StubPostsAPI([.success(first)], clock: clock)
    api.latency = .seconds(30)
    let recorder = StateRecorder($posts)
    defer { recorder.stop() }

    func refresh() {
      $posts.load(policy: .timeout(.seconds(10), clock: clock)) {
        try await api.posts()
      }
    }

    refresh()
    try await clock.sleepers(count: 2)  // the timer, and the slow server
    clock.advance(by: .seconds(10))
    try await recorder.wait(until: \.isError)
    XCTAssertEqual(posts, .error(TimeoutError()))
    XCTAssertEqual(clock.sleeperCount, 0, "the block's task was not cancelled")

    api.latency = .zero
    refresh()
    try await recorder.wait(until: \.isLoaded)
    XCTAssertEqual(posts, .loaded(first))
  }

  // MARK: Debounce

  func testOnlyTheLastSearchOfABurstRuns() async throws {
    @Loadable var results: LoadableState<[Post]>
    let clock = ManualClock()
    let api = StubPostsAPI([.success(first)], clock: clock)
    let recorder = StateRecorder($results)
    defer { recorder.stop() }

    func search(_ text: String) {
      $results.load(policy: .debounce(for: .milliseconds(300), clock: clock)) {
        try await api.search(text)
      }
    }

    for text in ["s", "sw", "swi"] {
      search(text)
      XCTAssertEqual(results, .loading, "a debounced load shows .loading while it waits")
      XCTAssertTrue($results.isRunning)
      try await clock.sleepers(count: 1)
      clock.advance(by: .milliseconds(100))
    }
    XCTAssertEqual(api.calls, [])
    clock.advance(by: .milliseconds(200))
    try await recorder.wait(until: \.isLoaded)
    XCTAssertEqual(api.calls, ["search swi"])
  }

  func testALeadingDebouncerRunsTheFirstCallAtOnce() async throws {
    @Loadable var results: LoadableState<[Post]>
    let clock = ManualClock()
    let api = StubPostsAPI([.success(first)], clock: clock)
    let recorder = StateRecorder($results)
    defer { recorder.stop() }

    let searchDebouncer = Debouncer(for: .milliseconds(300), leading: true, clock: clock)

    func search(_ text: String) {
      $results.load(policy: .debounce(searchDebouncer)) {
        try await api.search(text)
      }
    }

    search("s")
    try await recorder.wait(until: \.isLoaded)
    XCTAssertEqual(api.calls, ["search s"], "the first call after quiet must run at once")
    clock.advance(by: .milliseconds(100))
    search("sw")
    try await clock.sleepers(count: 1)
    XCTAssertEqual(api.calls, ["search s"], "a call within the interval must wait")
    clock.advance(by: .milliseconds(300))
    try await recorder.wait(until: { $0.isLoaded && api.calls.count == 2 })
    XCTAssertEqual(api.calls, ["search s", "search sw"])
  }

  func testTwoStatesThatShareADebouncerBothRun() async throws {
    @Loadable var posts: LoadableState<[Post]>
    @Loadable var results: LoadableState<[Post]>
    let clock = ManualClock()
    let shared = Debouncer(for: .milliseconds(300), clock: clock)
    let a: Task<Void, Never> = $posts.load(policy: .debounce(shared)) { [] }
    try await clock.sleepers(count: 1)
    clock.advance(by: .milliseconds(100))
    let b: Task<Void, Never> = $results.load(policy: .debounce(shared)) { [] }
    try await clock.sleepers(count: 2)
    clock.advance(by: .milliseconds(300))
    await a.value
    await b.value
    XCTAssertEqual(posts, .loaded([]))
    XCTAssertEqual(results, .loaded([]))
  }

  // MARK: Concurrency limit

  func testTheLimiterRunsTwoRowsAtOnceAndTheThirdWaitsShowingLoading() async throws {
    let clock = ManualClock()
    let api = StubPostsAPI([.success(first)], clock: clock)
    api.latency = .seconds(1)
    let rows = [PostRow(id: 1), PostRow(id: 1), PostRow(id: 1)]

    let downloads = ConcurrencyLimiter(limit: 2)

    func loadRows() {
      for row in rows {
        row.$post.load(policy: .limit(downloads)) {
          try await api.post(row.id)
        }
      }
    }

    loadRows()
    try await clock.sleepers(count: 2)
    while downloads.waitingCount < 1 { await Task.yield() }
    XCTAssertEqual(downloads.runningCount, 2)
    XCTAssertEqual(rows[2].post, .loading, "a waiting load shows .loading")
    XCTAssertTrue(rows[2].$post.isRunning)
    clock.advance(by: .seconds(1))
    try await clock.sleepers(count: 1)
    // The third row sleeps with its permit; the first two hand theirs back as their tasks
    // end, which may come a moment after the third started.
    try await waitUntil("the first two rows to give their permits back") {
      downloads.runningCount == 1
    }
    XCTAssertEqual(downloads.runningCount, 1)
    clock.advance(by: .seconds(1))
    for row in rows {
      while row.$post.isRunning { await Task.yield() }
      XCTAssertEqual(row.post, .loaded(first[0]))
    }
    XCTAssertEqual(api.calls.count, 3)
  }

  func testPrefetchedRowsWaitBehindTheTappedRow() async throws {
    let clock = ManualClock()
    let api = StubPostsAPI([.success(first)], clock: clock)
    api.latency = .seconds(1)
    let downloads = ConcurrencyLimiter(limit: 1)
    let busy = PostRow(id: 9)
    let holding: Task<Void, Never> = busy.$post.load(policy: .limit(downloads)) {
      try await api.post(busy.id)
    }
    try await clock.sleepers(count: 1)  // holds the one permit
    let upcomingRows = [PostRow(id: 2), PostRow(id: 3)]
    let tapped = PostRow(id: 1)

    // Rows about to scroll into view: fetched when nothing more urgent waits.
    func prefetch(_ upcomingRows: [PostRow]) {
      withLoadPriority(.prefetch) {
        for row in upcomingRows {
          row.$post.load(policy: .limit(downloads)) { try await api.post(row.id) }
        }
      }
    }

    // The row the user tapped: served before every waiting prefetch.
    func open(_ tapped: PostRow) async {
      await tapped.$post.load(policy: .limit(downloads)) { try await api.post(tapped.id) }
    }

    prefetch(upcomingRows)
    await yieldUntil { downloads.waitingCount == 2 }
    let opened = Task { await open(tapped) }
    await yieldUntil { downloads.waitingCount == 3 }
    XCTAssertEqual(downloads.waitingCount, 3)
    for _ in 0..<3 {
      clock.advance(by: .seconds(1))
      try await clock.sleepers(count: 1)
    }
    clock.advance(by: .seconds(1))
    await holding.value
    await opened.value
    for row in upcomingRows {
      while row.$post.isRunning { await Task.yield() }
    }
    XCTAssertEqual(api.calls, ["post 9", "post 1", "post 2", "post 3"])
    XCTAssertEqual(tapped.post, .loaded(first[0]))
  }

  // MARK: Cache

  func testTheCacheTable() async throws {
    @Loadable var post: LoadableState<Post>
    let clock = ManualClock()
    let api = StubPostsAPI([.success(first), .success(edited)], clock: clock)
    let id = 1
    let recorder = StateRecorder($post)
    defer { recorder.stop() }

    let postCache = LoadCache<Post.ID, Post>(timeToLive: .seconds(60), clock: clock)

    func open() {
      $post.load(policy: .cache(postCache, key: id)) {
        try await api.post(id)
      }
    }

    open()  // nothing cached: .loading, then the value
    try await recorder.wait(until: \.isLoaded)
    open()  // fresh: shown at once; the block does not run
    XCTAssertFalse($post.isRunning)
    XCTAssertEqual(api.calls.count, 1)
    clock.advance(by: .seconds(60))
    open()  // stale: shown at once, refreshed silently
    XCTAssertTrue($post.isRunning)
    XCTAssertEqual(post, .loaded(first[0]))
    try await recorder.wait(forCount: 6)
    XCTAssertEqual(
      recorder.states,
      [
        .absent, .loading, .loaded(first[0]), .loaded(first[0]), .loaded(first[0]),
        .loaded(edited[0]),
      ]
    )
    XCTAssertEqual(postCache.entry(for: id)?.freshness, .fresh)
  }

  func testAFreshCachedValueCancelsTheRunningLoadAndRunsNoOtherStep() async {
    @Loadable var post: LoadableState<Post>
    let clock = ManualClock()
    let postCache = LoadCache<Post.ID, Post>(timeToLive: .seconds(60), clock: clock)
    postCache.insert(first[0], for: 1)
    let gate = Gate<Post>()
    let running: Task<Void, Never> = $post.load { try await gate.pass() }
    await gate.arrival()
    let _: Task<Void, Never> = $post.load(
      policy: .cache(postCache, key: 1).debounce(for: .seconds(1), clock: clock)
    ) { [first] in first[0] }
    XCTAssertEqual(post, .loaded(first[0]))
    XCTAssertFalse($post.isRunning)
    await running.value
    XCTAssertEqual(clock.sleeperCount, 0, "the debounce ran after a fresh hit")
  }

  // MARK: Deduplicate

  func testRowsThatShowTheSamePostMakeOneRequest() async throws {
    let clock = ManualClock()
    let api = StubPostsAPI([.success(first)], clock: clock)
    api.latency = .seconds(1)
    let rows = [PostRow(id: 1), PostRow(id: 1), PostRow(id: 1)]

    let requests = Deduplicator<Post.ID, Post>()

    func loadRows() {
      // Rows that show the same post make one request between them.
      for row in rows {
        row.$post.load(policy: .dedupe(requests, key: row.id)) {
          try await api.post(row.id)
        }
      }
    }

    loadRows()
    try await clock.sleepers(count: 1)
    while requests.callerCount(for: 1) < 3 { await Task.yield() }
    XCTAssertEqual(rows.map(\.post), [.loading, .loading, .loading])
    clock.advance(by: .seconds(1))
    for row in rows {
      while row.$post.isRunning { await Task.yield() }
    }
    XCTAssertEqual(rows.map(\.post), Array(repeating: .loaded(first[0]), count: 3))
    XCTAssertEqual(api.calls, ["post 1"])
  }

  // MARK: The order policies apply in

  func testTheWorkedExampleStepByStep() async throws {
    @Loadable var posts: LoadableState<[Post]>
    let clock = ManualClock()
    let gate = Gate<Void>()
    var calls = 0
    let api = ClosurePostsAPI { [first] _ in
      calls += 1
      if calls == 1 { try await gate.pass() }  // attempt 1 hangs until it is cancelled
      return first
    }
    let recorder = StateRecorder($posts)
    defer { recorder.stop() }

    let downloads = ConcurrencyLimiter(limit: 2)

    func refresh() {
      $posts.load(
        policy: .debounce(for: .milliseconds(300), clock: clock)
          .limit(downloads)
          .retry(maxAttempts: 3, backoff: .constant(.seconds(1)), clock: clock)
          .timeout(.seconds(5), clock: clock)
      ) {
        try await api.posts()
      }
    }

    refresh()
    XCTAssertEqual(posts, .loading)  // 1.
    try await clock.sleepers(count: 1)  // 2. the debounce waits
    XCTAssertEqual(downloads.runningCount, 0)
    clock.advance(by: .milliseconds(300))
    await gate.arrival()  // 3., 4. a permit, then attempt 1
    try await clock.sleepers(count: 1)  // 5. its timeout
    XCTAssertEqual(downloads.runningCount, 1)
    XCTAssertEqual($posts.attempt?.number, 1)
    clock.advance(by: .seconds(5))
    try await clock.sleepers(count: 1)  // 6. the retry waits, keeping the permit
    let waiting = try XCTUnwrap($posts.attempt)
    XCTAssertEqual(waiting.number, 2)
    XCTAssertTrue(waiting.lastError is TimeoutError, "a timed-out attempt is retried")
    XCTAssertEqual(downloads.runningCount, 1)
    clock.advance(by: .seconds(1))
    try await recorder.wait(until: \.isLoaded)  // 7.
    XCTAssertEqual(recorder.states, [.absent, .loading, .loaded(first)])
    XCTAssertEqual(calls, 2)
    XCTAssertEqual(downloads.runningCount, 0)
    XCTAssertEqual(clock.sleeperCount, 0)

    let policy = LoadPolicy<[Post]>.debounce(for: .milliseconds(300), clock: clock)
      .limit(downloads)
      .retry(maxAttempts: 3, backoff: .constant(.seconds(1)), clock: clock)
      .timeout(.seconds(5), clock: clock)
    XCTAssertEqual(
      policy.description,
      "debounce(0.3 seconds) → limit(2) → retry(maxAttempts: 3, backoff: constant(1.0 seconds))"
        + " → timeout(5.0 seconds)")
  }

  func testRetryOutsideTheLimitReturnsThePermitDuringTheWait() async throws {
    @Loadable var posts: LoadableState<[Post]>
    let clock = ManualClock()
    let downloads = ConcurrencyLimiter(limit: 1)
    var calls = 0
    let task: Task<Void, Never> = $posts.load(
      policy: .retry(maxAttempts: 2, backoff: .constant(.seconds(1)), clock: clock)
        .limit(downloads)
    ) {
      calls += 1
      if calls == 1 { throw URLError(.timedOut) }
      return []
    }
    try await clock.sleepers(count: 1)
    XCTAssertEqual(downloads.runningCount, 0, "the permit was kept through the wait")
    clock.advance(by: .seconds(1))
    await task.value
    XCTAssertEqual(posts, .loaded([]))
  }

  func testRetryOutsideDebounceWaitsBeforeEveryAttempt() async throws {
    @Loadable var posts: LoadableState<[Post]>
    let clock = ManualClock()
    var calls = 0
    let task: Task<Void, Never> = $posts.load(
      policy: .retry(maxAttempts: 2, backoff: .immediate, clock: clock)
        .debounce(for: .milliseconds(300), clock: clock)
    ) {
      calls += 1
      if calls == 1 { throw URLError(.timedOut) }
      return []
    }
    try await clock.sleepers(count: 1)
    clock.advance(by: .milliseconds(300))
    try await clock.sleepers(count: 1)
    XCTAssertEqual(calls, 1, "the second attempt did not wait the debounce interval")
    clock.advance(by: .milliseconds(300))
    await task.value
    XCTAssertEqual(calls, 2)
  }

  // MARK: What each policy writes

  func testShowsFailedAttemptsWritesTheErrorDuringTheWait() async throws {
    @Loadable var posts: LoadableState<[Post]>
    let clock = ManualClock()
    let api = StubPostsAPI([.failure(ServerError(status: 503)), .success(first)], clock: clock)
    let task: Task<Void, Never> = $posts.load(
      policy: .retry(
        maxAttempts: 2, backoff: .constant(.seconds(1)), showsFailedAttempts: true, clock: clock)
    ) {
      try await api.posts()
    }
    try await clock.sleepers(count: 1)
    XCTAssertEqual((posts.error as? ServerError)?.status, 503, "the error shows during the wait")
    clock.advance(by: .seconds(1))
    await task.value
    XCTAssertEqual(posts, .loaded(first))
  }

  // MARK: Write your own policy

  func testTheAroundExampleTurnsNotFoundIntoAnEmptyList() async throws {
    @Loadable var results: LoadableState<[Post]>
    let clock = ManualClock()
    let api = StubPostsAPI([.failure(NotFound())], clock: clock)
    let text = "nothing"
    let recorder = StateRecorder($results)
    defer { recorder.stop() }

    let emptyWhenMissing = LoadPolicy<[Post]>.around("emptyWhenMissing") { operation in
      do {
        return try await operation()
      } catch is NotFound {
        return []
      }
    }

    func search() {
      $results.load(
        policy: emptyWhenMissing.retry(
          maxAttempts: 3, when: { !($0 is NotFound) }, clock: clock)
      ) {
        try await api.search(text)
      }
    }

    search()
    try await recorder.wait(until: \.isLoaded)
    XCTAssertEqual(results, .loaded([]))
    XCTAssertEqual(api.calls, ["search nothing"], "NotFound must not be retried")
    XCTAssertTrue(emptyWhenMissing.description.hasPrefix("emptyWhenMissing"))
  }

  // MARK: Policies inside a yielding block

  func testAYieldingBlockRunsEachPageUnderThePolicy() async throws {
    @Loadable var posts: LoadableState<[Post]>
    let clock = ManualClock()
    let api = StubPostsAPI(
      [.success(first), .failure(URLError(.timedOut)), .success(first), .success(first)],
      clock: clock)
    let recorder = StateRecorder($posts)
    defer { recorder.stop() }

    let pagePolicy = LoadPolicy<[Post]>
      .retry(maxAttempts: 3, backoff: .constant(.seconds(1)), clock: clock)
      .timeout(.seconds(10), clock: clock)

    func load() {
      $posts.load { yield in
        var posts: [Post] = []
        for number in 1...3 {
          posts += try await pagePolicy.run { try await api.page(number) }
          yield(.loaded(posts))
        }
      }
    }

    load()
    try await clock.sleepers(count: 1)  // page 2 failed once; its retry waits
    XCTAssertEqual(api.calls, ["page 1", "page 2"])
    XCTAssertEqual(posts, .loaded(first))
    clock.advance(by: .seconds(1))
    try await recorder.wait(forCount: 5)
    XCTAssertEqual(
      recorder.states,
      [.absent, .loading, .loaded(first), .loaded(first + first), .loaded(first + first + first)])
    XCTAssertEqual(api.calls, ["page 1", "page 2", "page 2", "page 3"])
  }

  // Article: "`run` writes no state: the block decides what to show, with `yield`."
  func testRunWritesNoStateEvenWhenItsRetryShowsFailedAttempts() async throws {
    @Loadable var posts: LoadableState<[Post]>
    let clock = ManualClock()
    let api = StubPostsAPI([.failure(URLError(.timedOut)), .success(first)], clock: clock)
    let recorder = StateRecorder($posts)
    defer { recorder.stop() }
    _ = $posts.progress  // turns delivery of progress and attempts on, as a view would
    let pagePolicy = LoadPolicy<[Post]>.retry(
      maxAttempts: 2, backoff: .constant(.seconds(1)), showsFailedAttempts: true, clock: clock)

    let task: Task<Void, Never> = $posts.load { yield in
      yield(.loaded(try await pagePolicy.run { try await api.page(1) }))
    }
    try await clock.sleepers(count: 1)  // the first attempt failed; the retry waits
    XCTAssertEqual($posts.attempt?.number, 2, "the retry's attempt must still show")
    XCTAssertTrue($posts.attempt?.isWaiting ?? false)
    clock.advance(by: .seconds(1))
    await task.value
    XCTAssertEqual(recorder.states, [.absent, .loading, .loaded(first)], "run wrote a state")
  }

  func testRunInsideAPolicyLoadsBlockWritesNoStateEither() async throws {
    @Loadable var posts: LoadableState<[Post]>
    let clock = ManualClock()
    let api = StubPostsAPI([.failure(URLError(.timedOut)), .success(first)], clock: clock)
    let recorder = StateRecorder($posts)
    defer { recorder.stop() }
    let pagePolicy = LoadPolicy<[Post]>.retry(
      maxAttempts: 2, backoff: .constant(.seconds(1)), showsFailedAttempts: true, clock: clock)

    let task: Task<Void, Never> = $posts.load(policy: .timeout(.seconds(60), clock: clock)) {
      try await pagePolicy.run { try await api.page(1) }
    }
    try await clock.sleepers(count: 2)  // the timeout's race and the retry's wait
    clock.advance(by: .seconds(1))
    await task.value
    XCTAssertEqual(recorder.states, [.absent, .loading, .loaded(first)], "run wrote a state")
  }
}

/// Bad configuration stops the program with a message naming the parameter, as the article's
/// table says. Exit tests: each runs its bad call in a child process (`stopMessage`).
final class BadPolicyConfigurationTests: XCTestCase {
  /// maxAttempts below 1 stops with the message the article quotes.
  func testRetryMaxAttempts() async throws {
    let message = try await stopMessage {
      _ = LoadPolicy<Int>.retry(maxAttempts: 0)
    }
    XCTAssertTrue(message.contains("LoadPolicy.retry: maxAttempts must be at least 1, got 0"))
  }

  /// A timeout of zero stops the program.
  func testZeroTimeout() async throws {
    let message = try await stopMessage {
      _ = LoadPolicy<Int>.timeout(.zero)
    }
    XCTAssertTrue(message.contains("LoadPolicy.timeout: limit must be more than zero"))
  }

  /// A proportional jitter above 1 is checked when the backoff is made.
  func testJitterFraction() async throws {
    XCTAssertTrue(Jitter.proportional(1.5) == .proportional(1.5), "made without a check")
    let message = try await stopMessage {
      _ = Backoff.constant(.seconds(1), jitter: .proportional(1.5))
    }
    XCTAssertTrue(message.contains("Jitter.proportional: fraction must be in 0...1, got 1.5"))
  }

  /// An exponential multiplier below 1 stops the program.
  func testMultiplier() async throws {
    let message = try await stopMessage {
      _ = Backoff.exponential(multiplier: 0.5)
    }
    XCTAssertTrue(message.contains("Backoff.exponential: multiplier must be at least 1, got 0.5"))
  }

  /// A concurrency limit below 1 stops the program.
  func testLimit() async throws {
    let message = try await stopMessage {
      _ = ConcurrencyLimiter(limit: 0)
    }
    XCTAssertTrue(message.contains("ConcurrencyLimiter: limit must be at least 1, got 0"))
  }
}

/// A `PostsAPI` whose every answer is a closure the test writes (not in the article).
@MainActor
final class ClosurePostsAPI: PostsAPI {
  private let answer: @MainActor (String) async throws -> [Post]

  init(_ answer: @escaping @MainActor (String) async throws -> [Post]) { self.answer = answer }

  func posts() async throws -> [Post] { try await answer("posts") }
  func post(_ id: Post.ID) async throws -> Post { try await answer("post \(id)")[0] }
  func search(_ text: String) async throws -> [Post] { try await answer("search \(text)") }
  func page(_ number: Int) async throws -> [Post] { try await answer("page \(number)") }
}

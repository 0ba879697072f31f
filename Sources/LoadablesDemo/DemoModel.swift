import Loadables
import Observation

/// The view model of the demo screen: every piece of state it shows, and the actions that
/// load it.
///
/// It uses the library in each of its forms:
/// - `@Loadable` and `@LoadableProcess` property wrappers (marked `@ObservationIgnored`:
///   the wrappers notify observers themselves), driven through their projected values
///   (`$numbers.load { ... }`, `$saving.run { ... }`);
/// - plain stored properties driven by key path, thanks to `LoadableSupport` and
///   `ProcessSupport` (`load(\.profile) { ... }`, `run(\.publishing) { ... }`);
/// - policies passed to either (`$quote.load(policy: .retry(...))`,
///   `load(\.results, policy: .debounce(...))`);
/// - loader objects, one per file of a batch of downloads (``FileDownload``);
/// - shared entries of a `LoaderStore`, followed by a feed screen and a detail screen
///   (``PostsRepository``, ``FeedScreen``, ``DetailScreen``).
///
/// Every action returns the task running it, so the demo script can wait for it to end; an
/// app would simply ignore it.
@MainActor @Observable
final class DemoModel: LoadableSupport, ProcessSupport {
  @ObservationIgnored @Loadable var numbers: LoadableState<[Int]>
  @ObservationIgnored @Loadable var feed: LoadableState<[String]>
  @ObservationIgnored @LoadableProcess var saving: SingleProcessState
  @ObservationIgnored @Loadable var quote: LoadableState<String>
  @ObservationIgnored @Loadable var report: LoadableState<String>
  @ObservationIgnored @Paged var pagedFeed: PagedState<String, Int>

  /// Whether the feed's latest load streams it headline by headline (a first load that
  /// shows each headline as it arrives), rather than refreshing a list already on screen: the
  /// feed's view tells the two apart while they run.
  @ObservationIgnored private(set) var isStreamingFeed = false

  var profile: LoadableState<Profile> = .absent
  var publishing: SingleProcessState = .idle

  /// The text in the search field, and what the search found for it.
  var query = ""
  var results: LoadableState<[String]> = .absent

  /// The files of the batch, each a loader object, all sharing ``downloadLimiter``.
  @ObservationIgnored let downloads: [FileDownload]
  @ObservationIgnored let downloadLimiter: ConcurrencyLimiter

  /// The posts' shared entries, and the two screens that show them.
  @ObservationIgnored let posts: PostsRepository
  @ObservationIgnored let feedScreen: FeedScreen
  @ObservationIgnored let detailScreen: DetailScreen

  /// The fake server; the demo script reads its log.
  @ObservationIgnored let api: FakeAPI
  /// The endless feed's server, and the source its pages are fetched from.
  @ObservationIgnored let feedPages: FeedPages
  @ObservationIgnored let postsSource: PagedSource<String, Int>
  @ObservationIgnored private let pace: Pace
  @ObservationIgnored private let searchDebouncer: Debouncer

  init(api: FakeAPI, pace: Pace) {
    self.api = api
    self.pace = pace
    let feedPages = FeedPages(pace: pace)
    self.feedPages = feedPages
    postsSource = PagedSource(first: 1) { page in try await feedPages.page(page) }
    searchDebouncer = Debouncer(for: pace.scaledLimit(.milliseconds(300)), leading: true)
    let files = [
      ("notes.txt", 2), ("photo.jpg", 3), ("slides.key", 4), ("song.mp3", 2), ("video.mp4", 3),
    ]
    let limiter = ConcurrencyLimiter(limit: 2)
    downloadLimiter = limiter
    downloads = files.map { name, chunks in
      FileDownload(name: name, chunks: chunks, api: api, limiter: limiter)
    }
    let posts = PostsRepository(server: PostsServer(pace: pace))
    self.posts = posts
    feedScreen = FeedScreen(repository: posts)
    detailScreen = DetailScreen(id: 1, repository: posts)
  }

  // MARK: - Loading values

  /// `.loading`, then `.loaded([1, 2, 3])`.
  @discardableResult
  func loadNumbers() -> Task<Void, Never> {
    $numbers.load { [api] in try await api.numbers() }
  }

  /// Starts a load that only answers after it was cancelled: that answer must be dropped.
  @discardableResult
  func loadNumbersIgnoringCancellation() -> Task<Void, Never> {
    $numbers.load { [api] in await api.numbersIgnoringCancellation() }
  }

  /// Cancels the load of `numbers`: the state the load replaced comes back (no spinner is
  /// left with nothing running) and the load's result is dropped.
  func cancelNumbers() {
    $numbers.cancel()
  }

  /// Clears `numbers` back to `.absent`.
  func resetNumbers() {
    $numbers.reset()
  }

  /// Fills the feed headline by headline as the server streams them: each `yield` is a new
  /// state on screen.
  @discardableResult
  func streamFeed() -> Task<Void, Never> {
    isStreamingFeed = true
    return $feed.load { [api] yield in
      var headlines: [String] = []
      for try await headline in api.feedStream() {
        headlines.append(headline)
        yield(.loaded(headlines))
      }
    }
  }

  /// Reloads the feed without replacing it by `.loading`: the old list stays on screen and
  /// only `$feed.isRunning` tells that a refresh is in flight.
  @discardableResult
  func refreshFeed() -> Task<Void, Never> {
    isStreamingFeed = false
    return $feed.load(silently: true) { [api] in try await api.feedSnapshot() }
  }

  /// Pull-to-refresh that never replaces the list with an error: with
  /// `.keepValueOnFailure()`, a failure keeps the feed and shows the error beside it as
  /// `$feed.refreshError`, until the next refresh succeeds.
  @discardableResult
  func pullToRefreshFeed(failing: Bool) -> Task<Void, Never> {
    isStreamingFeed = false
    return $feed.start(silently: true, policy: .keepValueOnFailure()) { [api] in
      try await api.feedRefresh(failing: failing)
    }
  }

  /// Loads the profile through its key path (`LoadableSupport`).
  @discardableResult
  func loadProfile(failing: Bool) -> Task<Void, Never> {
    load(\.profile) { [api] in try await api.profile(failing: failing) }
  }

  // MARK: - A list that pages

  /// The first page of the endless feed: `.loading`, then three posts.
  @discardableResult
  func loadPosts() -> Task<Void, Never> {
    $pagedFeed.load(from: postsSource)
  }

  /// The next page, as the last row appears (or the footer's retry is tapped): the footer
  /// shows a spinner, then the page is appended, or the footer shows the error. The list
  /// never blanks.
  @discardableResult
  func loadMorePosts() -> Task<Void, Never> {
    $pagedFeed.loadNextPage(from: postsSource)
  }

  /// Pull to refresh: the list stays until the new first page arrives, then replaces it.
  @discardableResult
  func refreshPosts() -> Task<Void, Never> {
    $pagedFeed.refresh(from: postsSource)
  }

  // MARK: - Loading with policies

  /// Loads the quote from a flaky `endpoint`, making up to three attempts 0.3 s apart. The
  /// state stays `.loading` across the failed attempts (unless `showsFailedAttempts`);
  /// `$quote.attempt` tells which attempt runs or waits.
  @discardableResult
  func loadQuote(from endpoint: FlakyEndpoint, showsFailedAttempts: Bool) -> Task<Void, Never> {
    let policy = LoadPolicy<String>.retry(
      maxAttempts: 3,
      backoff: .constant(pace.scaled(.milliseconds(300))),
      showsFailedAttempts: showsFailedAttempts)
    return $quote.start(policy: policy) { try await endpoint.quote() }
  }

  /// Loads a report, giving up with `TimeoutError` after one second.
  @discardableResult
  func loadReport(slow: Bool) -> Task<Void, Never> {
    $report.start(policy: .timeout(pace.scaledLimit(.seconds(1)))) { [api] in
      try await slow ? api.slowReport() : api.quickReport()
    }
  }

  /// Shows `text` in the search field and searches for it once typing pauses for 0.3 s: each
  /// keystroke's load supersedes the one before while it still waits (trailing edge).
  ///
  /// With `leading`, the model's ``Debouncer`` lets the first keystroke after a pause
  /// through at once, then debounces the ones that follow it.
  @discardableResult
  func search(_ text: String, leading: Bool = false) -> Task<Void, Never> {
    query = text
    let policy: LoadPolicy<[String]> =
      leading
      ? .debounce(searchDebouncer)
      : .debounce(for: pace.scaledLimit(.milliseconds(300)))
    return start(\.results, policy: policy) { [api] in try await api.search(text) }
  }

  /// Empties the search field and the results.
  func clearSearch() {
    query = ""
    reset(\.results)
  }

  /// Starts every download of the batch, in order, and returns when all have ended; the
  /// shared limiter lets two run at once.
  func downloadAll() async {
    let loads = downloads.map { file in Task { await file.load() } }
    for load in loads { _ = await load.value }
  }

  // MARK: - Running jobs

  /// `.running`, then `.finished` (or `.failed`), through the `@LoadableProcess` wrapper.
  @discardableResult
  func save() -> Task<Void, Never> {
    $saving.run { [api] in try await api.save() }
  }

  /// The same through a key path (`ProcessSupport`).
  @discardableResult
  func publish() -> Task<Void, Never> {
    run(\.publishing) { [api] in try await api.publish() }
  }
}

import Loadables

// The endpoints of the policy scenes: a flaky one to retry, a slow one to time out, a search
// to debounce and downloads to limit. The server counts what it is asked in `log`, so the
// scenes can show and check which requests actually reached it.

extension FakeAPI {
  /// A quote from an endpoint that fails `failures` times before it answers: a fresh one
  /// for each run of the retry scene.
  func flakyQuote(failing failures: Int) -> FlakyEndpoint {
    FlakyEndpoint(pace: pace, failures: failures)
  }

  /// What ``FlakyEndpoint/quote()`` answers once it stops failing.
  static let quote = "Simple things should be simple."

  /// A report that the server takes a minute to produce: longer than any timeout of the
  /// demo. Not scaled by `Pace`, so that the timeout wins with `--fast` too.
  func slowReport() async throws -> String {
    try await Task.sleep(for: .seconds(60))
    return "slow report"
  }

  /// A report the server produces quickly, well within the timeout.
  func quickReport() async throws -> String {
    try await Task.sleep(for: pace.scaled(.milliseconds(300)))
    return "quick report"
  }

  /// The package names that start with `query`, as a search endpoint would find them:
  /// quickly, faster than anyone types.
  func search(_ query: String) async throws -> [String] {
    await log.record(search: query)
    try await Task.sleep(for: pace.scaled(.milliseconds(50)))
    return Self.packages.filter { $0.hasPrefix(query) }
  }

  /// What ``search(_:)`` searches.
  static let packages = ["sqlite", "swift", "swift-format", "swiftui", "swish", "sync"]

  /// Downloads a file of `chunks` chunks, reporting the fraction done after each one with
  /// `LoadingProgress.report`: no callback passed in, the load that called us receives it.
  ///
  /// - Returns: The number of chunks downloaded.
  func download(_ name: String, chunks: Int) async throws -> Int {
    await log.downloadStarted()
    do {
      for chunk in 1...chunks {
        try await Task.sleep(for: pace.scaled(.milliseconds(150)))
        LoadingProgress.report(fraction: Double(chunk) / Double(chunks), message: name)
      }
    } catch {
      await log.downloadEnded()
      throw error
    }
    await log.downloadEnded()
    return chunks
  }
}

/// An endpoint that fails its first `failures` calls with a 503, then answers.
actor FlakyEndpoint {
  let pace: Pace
  let failures: Int

  /// How many times it was called.
  private(set) var calls = 0

  init(pace: Pace, failures: Int) {
    self.pace = pace
    self.failures = failures
  }

  /// The quote of the day, or a 503 while failures remain.
  func quote() async throws -> String {
    calls += 1
    let call = calls
    try await Task.sleep(for: pace.scaled(.milliseconds(200)))
    if call <= failures { throw APIError.serverUnavailable }
    return FakeAPI.quote
  }
}

/// What the fake server was asked: the searches that reached it, and how many downloads ran
/// at once.
actor ServerLog {
  /// The queries of the searches that reached the server, in order.
  private(set) var searches: [String] = []

  /// How many downloads run now.
  private(set) var downloadsRunning = 0

  /// The most downloads that ran at once.
  private(set) var downloadsPeak = 0

  /// How many downloads ran to the end or stopped.
  private(set) var downloadsEnded = 0

  func record(search query: String) {
    searches.append(query)
  }

  /// Returns the searches recorded so far and forgets them.
  func takeSearches() -> [String] {
    defer { searches = [] }
    return searches
  }

  func downloadStarted() {
    downloadsRunning += 1
    downloadsPeak = max(downloadsPeak, downloadsRunning)
  }

  func downloadEnded() {
    downloadsRunning -= 1
    downloadsEnded += 1
  }
}

/// How long the fake API takes to answer: real-looking delays, or near-instant ones for CI.
struct Pace: Sendable {
  /// Whether every delay is cut to one millisecond (`--fast`).
  let isFast: Bool

  /// The delay to actually wait for a call that "normally" takes `delay`.
  ///
  /// `--fast` keeps a tiny, non-zero wait, so every call still suspends as a real network
  /// call would.
  func scaled(_ delay: Duration) -> Duration {
    isFast ? .milliseconds(1) : delay
  }

  /// The limit to actually use for one that is "normally" `limit`: a timeout, a debounce
  /// interval, anything the scaled delays are measured against.
  ///
  /// `--fast` cuts it to 100 ms, not 1 ms: it must still outlast the delays meant to be
  /// shorter (a quick request, the pause between two keystrokes) by a wide margin, or a
  /// busy machine could end a scene the other way.
  func scaledLimit(_ limit: Duration) -> Duration {
    isFast ? .milliseconds(100) : limit
  }
}

/// The errors the demo's fake servers answer with, each described as its HTTP status.
enum APIError: Error, Equatable, CustomStringConvertible {
  case serverUnavailable
  case notFound
  /// The news server refuses a title in capitals.
  case titleShouts
  /// The posts server refuses a like.
  case likeRefused

  var description: String {
    switch self {
    case .serverUnavailable: "503 server unavailable"
    case .notFound: "404 not found"
    case .titleShouts: "422 titles may not shout"
    case .likeRefused: "409 like refused"
    }
  }
}

/// A user profile, as the fake server returns it.
struct Profile: Sendable, Equatable {
  let name: String
  let role: String
}

/// A stand-in for a network client: every call waits a little, then answers.
///
/// Its methods are `nonisolated async`, so they run off the main actor like real network
/// code; what they return is `Sendable` and comes back to the main actor in the model.
struct FakeAPI: Sendable {
  let pace: Pace

  /// What the server was asked, for the scenes to show and check.
  let log = ServerLog()

  /// Waits for a (scaled) delay; throws `CancellationError` when the caller is cancelled.
  private func wait(_ delay: Duration) async throws {
    try await Task.sleep(for: pace.scaled(delay))
  }

  /// The numbers shown on the first screen.
  func numbers() async throws -> [Int] {
    try await wait(.milliseconds(400))
    return [1, 2, 3]
  }

  /// What ``numbersIgnoringCancellation()`` answers, too late to be shown.
  static let lateNumbers = [7, 8, 9]

  /// A request that hangs until it is cancelled and then, like many real network stacks,
  /// answers anyway, a little later. The library must drop that late answer.
  func numbersIgnoringCancellation() async -> [Int] {
    // Hangs until the caller is cancelled: the sleep then throws, and `try?` swallows it.
    try? await Task.sleep(for: .seconds(3600))
    // An unstructured task does not inherit our cancellation, so this wait runs out.
    let pace = pace
    await Task { try? await Task.sleep(for: pace.scaled(.milliseconds(250))) }.value
    return Self.lateNumbers
  }

  /// The headlines of the feed, delivered one by one as the server streams them.
  func feedStream() -> FeedStream {
    FeedStream(pace: pace)
  }

  /// The whole feed at once, now with one more headline: what a refresh returns.
  func feedSnapshot() async throws -> [String] {
    try await wait(.milliseconds(500))
    return ["swift 6.3", "observation", "loadables", "new: silent refresh"]
  }

  /// The feed again, or a server error when `failing`: a pull-to-refresh that can fail.
  func feedRefresh(failing: Bool) async throws -> [String] {
    try await wait(.milliseconds(400))
    if failing { throw APIError.serverUnavailable }
    return ["swift 6.3", "observation", "loadables", "new: silent refresh", "new: kept value"]
  }

  /// The signed-in user's profile, or a server error when `failing`.
  func profile(failing: Bool) async throws -> Profile {
    try await wait(.milliseconds(300))
    if failing { throw APIError.serverUnavailable }
    return Profile(name: "Ada", role: "admin")
  }

  /// Saves the draft.
  func save() async throws {
    try await wait(.milliseconds(300))
  }

  /// Publishes the draft.
  func publish() async throws {
    try await wait(.milliseconds(300))
  }
}

/// The feed as the server streams it: each headline arrives after a short wait.
///
/// The wait starts when the reader asks for the next headline, so a reader that shows each
/// one before asking for more never misses any.
struct FeedStream: AsyncSequence {
  static let headlines = ["swift 6.3", "observation", "loadables"]

  let pace: Pace

  func makeAsyncIterator() -> Iterator {
    Iterator(pace: pace, remaining: Self.headlines[...])
  }

  /// Hands out the remaining headlines one by one.
  struct Iterator: AsyncIteratorProtocol {
    let pace: Pace
    var remaining: ArraySlice<String>

    mutating func next() async throws -> String? {
      guard let headline = remaining.popFirst() else { return nil }
      try await Task.sleep(for: pace.scaled(.milliseconds(200)))
      return headline
    }
  }
}

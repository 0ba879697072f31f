import Foundation
import Loadables
import LoadablesTesting
import Observation
import XCTest

// The examples of the "Debugging Loads" article, copied verbatim (all but the os.Logger and
// OSSignposter ones, which Tests/SwiftUIStandIn/DebuggingLoads.swift type-checks against the
// os stand-in). The stream is process-wide, so the tests that load use keys of their own
// where the article writes ["posts", 42]. Keep this file and the article in step.

// MARK: - Article: Why is this entry stale, and who fetched it last?

/// What a log says about one entry: its last fetch that stored, and what made it stale
/// since.
struct EntryHistory {
  var lastFetch: LoadEvent?
  var invalidatedSince: LoadEvent?
  var lastFailure: LoadEvent?

  init(_ key: LoadKey, in log: [LoadEvent]) {
    let events = log.filter { $0.subject == .entry(key) }
    lastFetch = events.last { $0.kind == .finished }
    let since = lastFetch?.sequence ?? 0
    invalidatedSince = events.last { $0.kind == .entryInvalidated && $0.sequence > since }
    lastFailure = events.last { $0.kind == .failed && $0.sequence > since }
  }
}

// MARK: - Article: swift-log, or any other logger

// A stand-in for swift-log's `Logger`, as much of it as the article's example uses, with its
// signatures (swift-log's `Logger.log(level:_:metadata:source:file:function:line:)`): the
// library does not depend on swift-log; an app that uses it does. Each line goes to `lines`.
struct Logger: Sendable {
  enum Level: String, Sendable, Equatable {
    case trace, debug, info, notice, warning, error, critical
  }

  struct Message: ExpressibleByStringInterpolation, Sendable, Equatable {
    let text: String
    init(stringLiteral value: String) { text = value }
  }

  enum MetadataValue: ExpressibleByStringInterpolation, Sendable, Equatable {
    case string(String)
    init(stringLiteral value: String) { self = .string(value) }
  }

  typealias Metadata = [String: MetadataValue]

  /// What was logged; a lock guards it, so the logger is `Sendable` as swift-log's is.
  final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var logged: [(Level, Message, Metadata?)] = []

    func append(_ line: (Level, Message, Metadata?)) { lock.withLock { logged.append(line) } }
    var all: [(Level, Message, Metadata?)] { lock.withLock { logged } }
  }

  let lines = Lines()

  func log(
    level: Logger.Level,
    _ message: @autoclosure () -> Logger.Message,
    metadata: @autoclosure () -> Logger.Metadata? = nil,
    source: @autoclosure () -> String? = nil,
    file: String = #fileID,
    function: String = #function,
    line: UInt = #line
  ) {
    lines.append((level, message(), metadata()))
  }
}

extension Logger.Level {
  /// The swift-log level of an event's level.
  init(_ level: LoadEventLevel) {
    switch level {
    case .debug: self = .debug
    case .info: self = .info
    case .notice: self = .notice
    case .error: self = .error
    }
  }
}

@MainActor
func startLoadLog(to logger: Logger) -> LoadEventSubscription {
  LoadEvents.listen { event in
    logger.log(
      level: Logger.Level(event.level), "\(event)",
      metadata: ["kind": "\(event.kind)", "form": "\(event.subject.form)"])
  }
}

// MARK: - Tests

@MainActor
final class DebuggingLoadsArticleTests: XCTestCase {
  struct HTTPError: Error, CustomStringConvertible {
    let status: Int
    var description: String { "HTTP \(status)" }
  }

  @MainActor @Observable
  final class FeedModel: LoadableSupport {
    var posts: LoadableState<[String]> = .absent
  }

  /// The article's log, as the library writes it: a fetch that took 0.21 s, an
  /// invalidation while a screen observes the entry, and a silent refresh whose retry fails
  /// on its third attempt after waiting 1 s twice; `EntryHistory` reads it as the article
  /// does.
  func testTheArticlesLogAndItsReading() async throws {
    let key: LoadKey = ["posts", 42]
    let clock = ManualClock()
    let store = LoaderStore(clock: clock)
    let api = ScriptedFake<Void, Int>([.hold], otherwise: .error(HTTPError(status: 503)))
    var log: [LoadEvent] = []
    let subscription = LoadEvents.listen { if $0.subject.key == key { log.append($0) } }
    defer { subscription.cancel() }
    try await withLoadClock(clock) {
      let post = store.loader(
        for: key, staleTime: .seconds(60),
        policy: .retry(maxAttempts: 3, backoff: .constant(.seconds(1)))
      ) { try await api.call() }
      let first = Task { _ = await post.load() }
      try await waitUntil("the first fetch is held") { api.held == 1 }
      clock.advance(by: .milliseconds(210))
      try await api.release(returning: 1)
      await first.value
      let screen = post.observe()
      defer { screen.end() }
      store.invalidate(["posts"])
      for _ in 1...2 {
        try await clock.sleepers(count: 2)  // the backoff, and the store's sweep
        clock.advance(by: .seconds(1))
      }
      try await waitUntil("the refresh failed", seen: "\(log)") {
        log.last?.kind == .failed
      }
    }
    let lines = log.map(\.description)
    XCTAssertEqual(
      lines,
      [
        #"entryMade entry ["posts", 42] (value)"#,
        #"started entry ["posts", 42]"#,
        #"finished entry ["posts", 42] after 0.21 s (attempt 1)"#,
        #"entryInvalidated entry ["posts", 42] (by invalidate(["posts"]))"#,
        #"started entry ["posts", 42] (silent)"#,
        #"waitBegan entry ["posts", 42] for backoff (silent, attempt 2)"#,
        #"waitEnded entry ["posts", 42] for backoff after 1.00 s (silent, attempt 2)"#,
        #"waitBegan entry ["posts", 42] for backoff (silent, attempt 3)"#,
        #"waitEnded entry ["posts", 42] for backoff after 1.00 s (silent, attempt 3)"#,
        #"failed entry ["posts", 42] after 2.00 s (silent, attempt 3, error: HTTP 503)"#,
      ], "\n" + lines.joined(separator: "\n"))

    let history = EntryHistory(key, in: log)
    XCTAssertEqual(history.lastFetch?.duration, .milliseconds(210))
    XCTAssertEqual(history.invalidatedSince?.detail, #"by invalidate(["posts"])"#)
    XCTAssertEqual(history.lastFailure?.attempt, 3)
    XCTAssertEqual(history.lastFailure?.isSilent, true)
    XCTAssertNil(EntryHistory(["posts", 7], in: log).lastFetch)
  }

  /// A real fetch through a store is the entry's `finished` event: "who fetched it last".
  func testTheLastFetchOfARealEntry() async {
    let key: LoadKey = ["debugging-article", "fetched"]
    let store = LoaderStore()
    let post = store.loader(for: key) { "Hello" }
    var log: [LoadEvent] = []
    let subscription = LoadEvents.listen { event in
      if event.subject.key == key { log.append(event) }
    }
    defer { subscription.cancel() }

    await post.load()
    await post.load()

    let history = EntryHistory(key, in: log)
    XCTAssertEqual(log.filter { $0.kind == .finished }.count, 2)
    XCTAssertEqual(history.lastFetch?.sequence, log.last { $0.kind == .finished }?.sequence)
    XCTAssertNotNil(history.lastFetch?.duration)
    XCTAssertNil(history.invalidatedSince)
    XCTAssertNil(history.lastFailure)
  }

  // Article: The stream (the `listen` and `stream` forms).
  func testTheStreamOfOneEntry() async {
    let key: LoadKey = ["debugging-article", "streamed"]
    let store = LoaderStore()
    let post = store.loader(for: key) { 42 }
    var printed: [String] = []
    let subscription = LoadEvents.listen { event in
      if event.subject.key == key { printed.append(event.description) }
    }
    let stream = LoadEvents.stream()
    let reader = Task { () -> [String] in
      var lines: [String] = []
      for await event in stream where event.subject.key == key {
        lines.append(event.description)
        if event.kind.endsLoad { break }
      }
      return lines
    }

    await post.load()
    let streamed = await reader.value
    subscription.cancel()

    XCTAssertEqual(streamed.count, 2)
    XCTAssertEqual(streamed, printed)
    XCTAssertTrue(streamed[0].hasPrefix(#"started entry ["debugging-article", "streamed"]"#))
    XCTAssertTrue(streamed[1].hasPrefix(#"finished entry ["debugging-article", "streamed"]"#))
  }

  /// The subjects table: one model's events, by its object.
  func testFilteringByObject() async {
    let model = FeedModel()
    let other = FeedModel()
    var mine: [LoadEvent] = []
    let subscription = LoadEvents.listen { event in
      if event.subject.objectID == ObjectIdentifier(model) { mine.append(event) }
    }
    defer { subscription.cancel() }
    await model.load(\.posts) { ["a"] }
    await other.load(\.posts) { ["b"] }
    XCTAssertEqual(mine.map(\.kind), [.started, .finished])
    XCTAssertEqual(mine.first?.subject.form, .keyPath)
    XCTAssertEqual(mine.first?.subject.name, #"\FeedModel.posts"#)
  }

  func testSwiftLogGetsEachEventAtItsLevel() async {
    let key: LoadKey = ["debugging-article", "swift-log"]
    let logger = Logger()
    let subscription = startLoadLog(to: logger)
    let store = LoaderStore()
    let failing = store.loader(for: key) { () async throws -> Int in
      throw HTTPError(status: 503)
    }
    await failing.load()
    subscription.cancel()

    let mine = logger.lines.all.filter { $0.1.text.contains("debugging-article") }
    XCTAssertEqual(
      mine.map { $0.2?["kind"] }, [.string("entryMade"), .string("started"), .string("failed")])
    XCTAssertEqual(mine.map(\.0), [.debug, .debug, .error])
    XCTAssertEqual(mine.last?.2?["kind"], .string("failed"))
    XCTAssertEqual(mine.last?.2?["form"], .string("entry"))
    XCTAssertTrue(mine.last?.1.text.hasSuffix("error: HTTP 503)") ?? false, "\(mine)")
    XCTAssertEqual(
      LoadEventLevel.allCases.map(Logger.Level.init), [.debug, .info, .notice, .error])
  }

  /// "The stream": a test's own scope records its invalidation and the refresh it causes,
  /// as the article's example does.
  func testAScopeRecordsTheTestsOwnEvents() async throws {
    try await LoadEvents.withScope { scope in
      let store = LoaderStore()
      let post = store.loader(for: ["posts", 42]) { "post" }
      await post.load()
      let observation = post.observe()
      defer { observation.end() }
      let events = LoadEventRecorder(in: scope, key: ["posts", 42])
      defer { events.stop() }
      store.invalidate(["posts", 42])
      try await events.wait(for: .finished)
      XCTAssertEqual(events.kinds, [.entryInvalidated, .started, .finished])
    }
  }
}

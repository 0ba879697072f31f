import Loadables
import LoadablesTesting
import Synchronization
import XCTest

/// Typed definitions of shared entries: one type per kind of entry, store-wide defaults a
/// definition overrides, the settings in force, and the diagnostics for keys used two ways.
@MainActor
final class LoadDefinitionTests: XCTestCase {
  /// How many times each definition's fetch ran, and what it answers.
  final class Server: Sendable {
    private let state = Mutex<(calls: Int, failuresLeft: Int)>((0, 0))
    init(failing failures: Int = 0) { state.withLock { $0.failuresLeft = failures } }
    var calls: Int { state.withLock { $0.calls } }
    func post(_ id: Int) throws -> String {
      try state.withLock {
        $0.calls += 1
        if $0.failuresLeft > 0 {
          $0.failuresLeft -= 1
          throw TestError(code: $0.calls)
        }
        return "post \(id) #\($0.calls)"
      }
    }
  }

  struct PostQuery: LoadDefinition {
    let id: Int
    let server: Server
    var key: LoadKey { ["posts", id] }
    func fetch() async throws -> String { try server.post(id) }
  }

  struct FreshPostQuery: LoadDefinition {
    let id: Int
    let server: Server
    var key: LoadKey { ["posts", id] }
    var staleTime: Duration? { .seconds(60) }
    var policy: LoadPolicy<String>? { .timeout(.seconds(5)) }
    var waitsForNetwork: Bool? { false }
    var isPersisted: Bool? { false }
    func fetch() async throws -> String { try server.post(id) }
  }

  func testADefinitionMakesOneSharedEntryForItsKey() async {
    let store = LoaderStore()
    let server = Server()
    let feedRow = store.loader(for: PostQuery(id: 42, server: server))
    let detail = store.loader(for: PostQuery(id: 42, server: server))
    XCTAssertTrue(feedRow === detail, "one definition key gave two entries")
    XCTAssertEqual(feedRow.key, ["posts", 42])
    let state1 = await detail.load()
    XCTAssertEqual(state1, .loaded("post 42 #1"))
    XCTAssertTrue(
      store.loader(for: ["posts", 42]) { "unused" } === detail,
      "the key-based API and the definition disagree on the entry")
    XCTAssertEqual(server.calls, 1)
  }

  func testADefinitionWithoutSettingsTakesTheStoreDefaults() async throws {
    let clock = ManualClock()
    let store = LoaderStore(
      clock: clock,
      defaults: LoadDefaults(
        staleTime: .seconds(30), maxAttempts: 3, backoff: .constant(.seconds(1)),
        waitsForNetwork: false, isPersisted: false))
    let server = Server(failing: 2)
    let post = store.loader(for: PostQuery(id: 1, server: server))
    XCTAssertEqual(post.settings.staleTime, .seconds(30))
    XCTAssertEqual(post.settings.policy, "retry(maxAttempts: 3, backoff: constant(1.0 seconds))")
    XCTAssertFalse(post.settings.waitsForNetwork)
    XCTAssertFalse(post.settings.isPersisted)
    XCTAssertEqual(post.settings.refreshTriggerCount, 0)
    let load = Task { await post.load() }
    try await clock.sleepers(count: 2)  // the first backoff, and the store's grace sweeper
    try await clock.run(for: .seconds(2))  // both backoffs
    let state2 = await load.value
    XCTAssertEqual(state2, .loaded("post 1 #3"), "the default retry did not run")
    clock.advance(by: .seconds(20))
    let state3 = await post.load()
    XCTAssertEqual(state3, .loaded("post 1 #3"), "the default stale time was not used")
    clock.advance(by: .seconds(15))
    let state4 = await post.load()
    XCTAssertEqual(state4, .loaded("post 1 #4"))
  }

  func testADefinitionsOwnSettingsReplaceTheDefaults() async {
    let clock = ManualClock()
    let store = LoaderStore(
      clock: clock, connectivity: Connectivity(),
      defaults: LoadDefaults(staleTime: .seconds(1), maxAttempts: 3))
    let server = Server(failing: 1)
    let post = store.loader(for: FreshPostQuery(id: 7, server: server))
    XCTAssertEqual(
      post.settings.description,
      #"LoadSettings(staleTime: 60.0 seconds, policy: "timeout(5.0 seconds)", "#
        + "waitsForNetwork: false, refreshTriggers: 0, isPersisted: false)")
    // Its own policy replaces the default retry: one failure is the end of the load.
    guard case .error(let error as TestError) = await post.load() else {
      return XCTFail("expected the first failure, got \(post.state)")
    }
    XCTAssertEqual(error, TestError(code: 1))
    let state5 = await post.load()
    XCTAssertEqual(state5, .loaded("post 7 #2"))
    clock.advance(by: .seconds(59))
    let state6 = await post.load()
    XCTAssertEqual(state6, .loaded("post 7 #2"), "the store's stale time was used")
  }

  func testSettingsShowTheNetworkWaitOnlyInAStoreWithAConnectivity() {
    let withNetwork = LoaderStore(connectivity: Connectivity())
    let server = Server()
    let waiting = withNetwork.loader(for: PostQuery(id: 1, server: server))
    XCTAssertTrue(waiting.settings.waitsForNetwork)
    XCTAssertEqual(waiting.settings.policy, "waitsForNetwork")
    let plain = LoaderStore().loader(for: PostQuery(id: 1, server: server))
    XCTAssertFalse(plain.settings.waitsForNetwork, "a store without a connectivity waits")
    XCTAssertEqual(plain.settings.policy, "none")
  }

  func testALaterCallersSettingsAreReportedOnceAndNotUsed() async {
    let store = LoaderStore()
    var reported: [StoreDiagnostic] = []
    store.onDiagnostic = { reported.append($0) }
    let server = Server()
    let first = store.loader(for: PostQuery(id: 3, server: server))
    let second = store.loader(for: FreshPostQuery(id: 3, server: server))
    _ = store.loader(for: FreshPostQuery(id: 3, server: server))
    XCTAssertTrue(first === second)
    XCTAssertEqual(second.settings.staleTime, .zero, "a later caller's stale time was used")
    XCTAssertEqual(
      reported.map(\.description),
      [
        #"LoaderStore.loader(for: ["posts", 3]): the entry was made with staleTime 0.0 seconds; "#
          + "a later caller asked for 60.0 seconds, which is not used",
        #"LoaderStore.loader(for: ["posts", 3]): the entry was made with waitsForNetwork true; "#
          + "a later caller asked for false, which is not used",
        #"LoaderStore.loader(for: ["posts", 3]): the entry was made with persisted true; "#
          + "a later caller asked for false, which is not used",
      ])
    XCTAssertEqual(store.recentDiagnostics, reported)
  }

  /// The one rule for `settingsIgnored`, as `LoadDefinition`, `LoaderStore.loader(for:)` and
  /// Sharing State Across Screens state it: every caller that finds the entry already made
  /// (a key-based call, a definition of another type, another instance of the same
  /// definition type) has each setting it states that differs reported once, and not used.
  func testEveryKindOfLaterCallerHasItsOtherSettingsReportedOnce() {
    struct TimedQuery: LoadDefinition {
      let staleTime: Duration?
      let isPersisted: Bool?
      var key: LoadKey { ["timed"] }
      func fetch() async throws -> Int { 1 }
    }
    struct OtherTimedQuery: LoadDefinition {
      var key: LoadKey { ["timed"] }
      var waitsForNetwork: Bool? { false }
      func fetch() async throws -> Int { 1 }
    }
    let store = LoaderStore()
    let first = store.loader(for: TimedQuery(staleTime: .seconds(10), isPersisted: nil))
    // The same type and settings, and callers stating nothing: nothing to report.
    XCTAssertTrue(
      store.loader(for: TimedQuery(staleTime: .seconds(10), isPersisted: nil)) === first)
    XCTAssertTrue(store.loader(for: TimedQuery(staleTime: nil, isPersisted: nil)) === first)
    XCTAssertTrue(store.loader(for: ["timed"]) { 2 } === first)
    XCTAssertEqual(store.recentDiagnostics, [], "a caller with the entry's settings was reported")
    // Another instance of the same type, with other stored settings (twice: reported once).
    for _ in 1...2 {
      XCTAssertTrue(
        store.loader(for: TimedQuery(staleTime: .seconds(30), isPersisted: false)) === first)
    }
    // A definition of another type, and a key-based call.
    XCTAssertTrue(store.loader(for: OtherTimedQuery()) === first)
    XCTAssertTrue(store.loader(for: ["timed"], staleTime: .seconds(99)) { 3 } === first)
    XCTAssertEqual(first.settings.staleTime, .seconds(10), "a later caller's stale time was used")
    XCTAssertEqual(
      store.recentDiagnostics,
      [
        .settingsIgnored(
          key: ["timed"], setting: "staleTime", used: "10.0 seconds", asked: "30.0 seconds"),
        .settingsIgnored(key: ["timed"], setting: "persisted", used: "true", asked: "false"),
        .settingsIgnored(key: ["timed"], setting: "waitsForNetwork", used: "true", asked: "false"),
      ],
      "each setting is reported once per key, whoever states it")
  }

  func testTwoDefinitionsOfOneKeyWithDifferentTypesAreKeptApart() async {
    struct PostTitle: LoadDefinition {
      var key: LoadKey { ["posts", 9] }
      func fetch() async throws -> String { "title" }
    }
    struct PostLikes: LoadDefinition {
      var key: LoadKey { ["posts", 9] }
      func fetch() async throws -> Int { 12 }
    }
    let store = LoaderStore()
    var asserted: [LoadKeyTypeMismatch] = []
    store.typeMismatchAssertion = { asserted.append($0) }
    let title = store.loader(for: PostTitle())
    let likes = store.loader(for: PostLikes())
    XCTAssertEqual(asserted.map(\.heldType), ["Swift.String"])
    XCTAssertEqual(asserted.map(\.askedType), ["Swift.Int"])
    XCTAssertTrue(store.loader(for: PostLikes()) === likes, "the apart entry is not shared")
    let state7 = await title.load()
    XCTAssertEqual(state7, .loaded("title"))
    let state8 = await likes.load()
    XCTAssertEqual(state8, .loaded(12))
    XCTAssertFalse(likes.settings.isPersisted, "an entry kept apart would save under one key")
    // Both answer to the key's family, and both leave when trimmed.
    store.invalidate(["posts"])
    XCTAssertTrue(title.isStale)
    XCTAssertTrue(likes.isStale)
    store.trim()
    XCTAssertEqual(store.count, 0)
    XCTAssertEqual(asserted.count, 1)
  }

  func testTheExistingKeyBasedCallKeepsWorkingWithDefaults() async {
    let clock = ManualClock()
    let store = LoaderStore(clock: clock, defaults: LoadDefaults(staleTime: .seconds(10)))
    let server = Server()
    let post = store.loader(for: ["posts", 5]) { try server.post(5) }
    XCTAssertEqual(post.settings.staleTime, .seconds(10))
    let explicit = store.loader(for: ["posts", 6], staleTime: .zero) { try server.post(6) }
    XCTAssertEqual(explicit.settings.staleTime, .zero, "an explicit zero took the default")
    await post.load()
    await post.load()
    XCTAssertEqual(server.calls, 1)
    XCTAssertEqual(store.defaults.staleTime, .seconds(10))
  }
}

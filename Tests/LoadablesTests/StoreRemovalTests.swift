import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// Logging out: `remove(_:)` and `reset(_:)` of every entry under a key prefix, with its saved
/// records and, on request only, its outbox edits.
@MainActor
final class StoreRemovalTests: XCTestCase {
  struct Profile: Codable, Equatable, Sendable {
    var name: String
  }

  let launch = Date(timeIntervalSince1970: 1_800_000_000)

  func testRemoveTakesEveryEntryUnderThePrefixAndNothingElse() async {
    let store = LoaderStore()
    let profile = store.loader(for: ["user", "profile"]) { Profile(name: "Ann") }
    let inbox = store.loader(for: ["user", "inbox", 1]) { [1, 2] }
    let weather = store.loader(for: ["weather"]) { 21 }
    await profile.load()
    await inbox.load()
    await weather.load()

    let removal = store.remove(["user"])
    XCTAssertEqual(removal.entryCount, 2)
    XCTAssertEqual(store.keys, [["weather"]])
    XCTAssertEqual(profile.state, .absent, "a removed entry still shows the user's data")
    XCTAssertEqual(inbox.state, .absent)
    XCTAssertEqual(weather.state, .loaded(21), "an entry outside the prefix was touched")

    // Asking again makes a new entry, which fetches.
    var fetches = 0
    let again = store.loader(for: ["user", "profile"]) {
      fetches += 1
      return Profile(name: "Bob")
    }
    XCTAssertFalse(again === profile, "the removed entry is still the store's")
    await again.load()
    XCTAssertEqual(again.state, .loaded(Profile(name: "Bob")))
    XCTAssertEqual(fetches, 1)
  }

  func testRemovingAPrefixWithNothingUnderItIsANoOp() async {
    let store = LoaderStore(persistence: .inMemory(version: "1"))
    let weather = store.loader(for: ["weather"]) { 21 }
    await weather.load()
    let removal = store.remove(["user"])
    XCTAssertEqual(removal.entryCount, 0)
    XCTAssertEqual(removal.keptEdits + removal.discardedEdits.map(\.id), [])
    XCTAssertEqual(store.reset(["nobody", 1]).entryCount, 0)
    await store.flushPersistence()
    XCTAssertEqual(store.keys, [["weather"]])
    XCTAssertEqual(weather.state, .loaded(21))
    XCTAssertEqual(store.recentPersistenceEvents, [])
  }

  func testAKeyPrefixMatchesWholePartsOnly() async {
    let store = LoaderStore()
    let users = store.loader(for: ["users"]) { 1 }
    let user = store.loader(for: ["user", 1]) { 2 }
    await users.load()
    await user.load()
    store.remove(["user"])
    XCTAssertEqual(store.keys, [["users"]], "\"users\" is not under [\"user\"]")
    XCTAssertEqual(store.remove(["user", 1, "more"]).entryCount, 0)
  }

  func testRemoveStopsARunningFetchAndItNeverStores() async {
    let store = LoaderStore()
    let gate = Gate<Int>()
    let entry = store.loader(for: ["user", "count"]) { try await gate.passIgnoringCancellation() }
    let loading = Task { await entry.load() }
    await gate.arrival()
    XCTAssertTrue(store.isRunning)

    store.remove(["user"])
    XCTAssertFalse(store.isRunning, "a removed entry's fetch still counts")
    XCTAssertFalse(entry.isRunning)
    gate.open(7)
    _ = await loading.value
    XCTAssertEqual(entry.state, .absent, "the stopped fetch stored its result")
    XCTAssertEqual(store.count, 0)
  }

  func testARemovedEntryKeepsWorkingForItsHolderButNeverWritesBack() async {
    let saved = StorePersistence.inMemory(version: "1")
    let store = LoaderStore(persistence: saved, startDate: launch)
    let server = PostServer()
    server.title = "Ann"
    let profile = store.loader(for: ["user", "profile"]) { Profile(name: server.title) }
    await profile.load()
    store.remove(["user"])

    // The holder loads the removed object: no crash, it shows what it loads ...
    server.title = "Ann again"
    let token = profile.observe()
    await profile.refresh()
    XCTAssertEqual(profile.state, .loaded(Profile(name: "Ann again")))
    XCTAssertFalse(store.isRunning)
    token.end()
    // ... but the store neither holds it nor saved it.
    XCTAssertEqual(store.count, 0)
    await store.flushPersistence()
    let relaunched = LoaderStore(persistence: saved, startDate: launch)
    let restored = relaunched.loader(for: ["user", "profile"]) { Profile(name: "fetched") }
    XCTAssertEqual(restored.state, .absent, "a removed entry saved its value again")
  }

  func testRemoveDeletesSavedRecordsAlsoOfEntriesNotInMemory() async {
    let saved = StorePersistence.inMemory(version: "1")
    // An earlier launch saved two of the user's entries and one other.
    let earlier = LoaderStore(persistence: saved, startDate: launch)
    for key: LoadKey in [["user", "profile"], ["user", "settings"], ["weather"]] {
      await earlier.loader(for: key) { Profile(name: "\(key)") }.load()
    }
    await earlier.flushPersistence()

    // This launch made only one of them, and logs out.
    let store = LoaderStore(persistence: saved, startDate: launch)
    let profile = store.loader(for: ["user", "profile"]) { Profile(name: "fetched") }
    XCTAssertEqual(profile.state.data?.name, "[\"user\", \"profile\"]")
    store.remove(["user"])
    await store.flushPersistence()

    let relaunched = LoaderStore(persistence: saved, startDate: launch)
    let never: @MainActor () async throws -> Profile = { Profile(name: "fetched") }
    XCTAssertEqual(relaunched.loader(for: ["user", "profile"], fetch: never).state, .absent)
    XCTAssertEqual(relaunched.loader(for: ["user", "settings"], fetch: never).state, .absent)
    XCTAssertEqual(
      relaunched.loader(for: ["weather"], fetch: never).state,
      .loaded(Profile(name: "[\"weather\"]")), "a record outside the prefix was removed")
  }

  func testRemoveDeletesSavedRecordsInADirectory() async throws {
    let directory = temporaryDirectory("logout")
    let earlier = LoaderStore(persistence: .directory(directory, version: "1"), startDate: launch)
    await earlier.loader(for: ["user", 1]) { Profile(name: "Ann") }.load()
    await earlier.loader(for: ["weather"]) { Profile(name: "sun") }.load()
    await earlier.flushPersistence()

    let store = LoaderStore(persistence: .directory(directory, version: "1"), startDate: launch)
    store.remove(["user"])
    await store.flushPersistence()
    XCTAssertEqual(store.recentPersistenceEvents, [])

    let relaunched = LoaderStore(
      persistence: .directory(directory, version: "1"), startDate: launch)
    let never: @MainActor () async throws -> Profile = { Profile(name: "fetched") }
    XCTAssertEqual(relaunched.loader(for: ["user", 1], fetch: never).state, .absent)
    XCTAssertEqual(
      relaunched.loader(for: ["weather"], fetch: never).state, .loaded(Profile(name: "sun")))
  }

  func testResetKeepsTheEntriesAndTheirObserversButNotTheirValuesOrRecords() async {
    let saved = StorePersistence.inMemory(version: "1")
    let store = LoaderStore(persistence: saved, startDate: launch)
    let profile = store.loader(for: ["user", "profile"]) { Profile(name: "Ann") }
    await profile.load()
    let token = profile.observe()
    @Loadable var shown: LoadableState<Profile>
    await $shown.load(from: profile)

    XCTAssertEqual(store.reset(["user"]).entryCount, 1)
    XCTAssertEqual(profile.state, .absent)
    XCTAssertEqual(shown, .absent, "a follower still shows the reset entry's old value")
    XCTAssertTrue(store.existingLoader(for: ["user", "profile"], as: Profile.self) === profile)
    XCTAssertEqual(profile.observerCount, 2)
    await store.flushPersistence()
    let relaunched = LoaderStore(persistence: saved, startDate: launch)
    XCTAssertEqual(
      relaunched.loader(for: ["user", "profile"]) { Profile(name: "x") }.state, .absent)

    // It loads again as an entry with no value, and saves again.
    await profile.load()
    XCTAssertEqual(shown, .loaded(Profile(name: "Ann")))
    token.end()
  }

  func testAnExactRemovalTakesThatKeysSavedRecordEvenOutOfMemoryAndNoLongerKeys() async {
    let saved = StorePersistence.inMemory(version: "1")
    let earlier = LoaderStore(persistence: saved, startDate: launch)
    for key: LoadKey in [["user"], ["user", "settings"]] {
      await earlier.loader(for: key) { Profile(name: "\(key)") }.load()
    }
    await earlier.flushPersistence()

    // This launch made neither entry.
    let store = LoaderStore(persistence: saved, startDate: launch)
    let removal = store.remove(["user"], matching: .exact)
    XCTAssertEqual(removal.entryCount, 0)
    await store.flushPersistence()

    let relaunched = LoaderStore(persistence: saved, startDate: launch)
    let never: @MainActor () async throws -> Profile = { Profile(name: "fetched") }
    XCTAssertEqual(
      relaunched.loader(for: ["user"], fetch: never).state, .absent,
      "the exact key's saved record stayed")
    XCTAssertEqual(
      relaunched.loader(for: ["user", "settings"], fetch: never).state,
      .loaded(Profile(name: "[\"user\", \"settings\"]")), "a longer key's record was removed")
  }

  // MARK: - Outbox edits under the prefix

  func testAnExactKeySettlesOnlyTheEditsScopedToThatKey() async throws {
    let server = PostServer()
    let store = LoaderStore(connectivity: Loadables.Connectivity(isOnline: false))
    store.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    let first = store.edit(RenamePost(id: 1, title: "mine")).id
    let other = store.edit(RenamePost(id: 2, title: "other")).id
    let parent = store.reset(["posts"], matching: .exact, pendingEdits: .discard)
    XCTAssertEqual(parent.discardedEdits, [], "an edit of a longer key was discarded")
    XCTAssertEqual(parent.keptEdits, [])
    XCTAssertEqual(store.outbox.pendingCount, 2)
    let one = store.remove(["posts", 1], matching: .exact, pendingEdits: .discard)
    XCTAssertEqual(one.discardedEdits.map(\.id), [first])
    XCTAssertEqual(store.outbox.items.map(\.id), [other])
  }

  func testPendingEditsUnderThePrefixStayUnlessDiscardedOnPurpose() async throws {
    let server = PostServer()
    let store = LoaderStore(connectivity: Loadables.Connectivity(isOnline: false))
    store.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    let post = server.entry(1, in: store)
    await post.load()
    let first = store.edit(RenamePost(id: 1, title: "mine")).id
    let other = store.edit(RenamePost(id: 2, title: "other")).id
    let removal = store.remove(["posts", 1])
    XCTAssertEqual(removal.keptEdits, [first], "an edit under the prefix was not kept")
    XCTAssertEqual(removal.discardedEdits, [])
    XCTAssertEqual(store.outbox.pendingCount, 2, "removing entries lost an unsent edit")
    // A new entry under the prefix shows the kept edit's change, as any entry made does.
    let again = server.entry(1, in: store)
    await again.load()
    XCTAssertEqual(again.state.data?.title, "mine")

    let reset = store.reset(["posts", 1], pendingEdits: .discard)
    XCTAssertEqual(reset.discardedEdits.map(\.id), [first])
    XCTAssertEqual(store.outbox.items.map(\.id), [other], "an edit outside the prefix went")
    XCTAssertEqual(store.pendingEditCount, 1)
    await again.load()
    XCTAssertEqual(again.state.data?.title, "old", "a discarded edit's change stayed")
  }

  func testResetLaysKeptEditsOverTheResetEntry() async {
    let server = PostServer()
    let store = LoaderStore(connectivity: Loadables.Connectivity(isOnline: false))
    store.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    let post = server.entry(1, in: store)
    await post.load()
    store.edit(RenamePost(id: 1, title: "mine"))
    store.reset(["posts"])
    XCTAssertNil(post.state.data)
    await post.load()
    XCTAssertEqual(post.state.data?.title, "mine", "the kept edit's change left the entry")
  }

  func testAnEditBeingSentIsDiscardedAndReportedAsBeingSent() async throws {
    let server = PostServer()
    let store = LoaderStore()
    let sending = Gate<Void>()
    store.register(RenamePost.self) { edit, context in
      try await server.rename(edit, context, waitingAt: sending)
    }
    let post = server.entry(1, in: store)
    await post.load()
    let id = store.edit(RenamePost(id: 1, title: "mine")).id
    await sending.arrival()
    let removal = store.remove(["posts"], pendingEdits: .discard)
    XCTAssertEqual(removal.keptEdits, [])
    XCTAssertEqual(removal.discardedEdits.map(\.id), [id])
    XCTAssertEqual(removal.discardedEdits.map(\.status), [.sending])
    // Its send goes on (the server may apply it), but its change never shows again.
    let after = server.entry(1, in: store)
    let like = store.edit(LikePost(id: 1))  // waits behind the discarded send in its scope
    store.register(LikePost.self) { _, _ in }
    sending.open()
    let liked = try await withDeadline { await like.outcome() }
    XCTAssertTrue(liked.isCommitted, "saw \(liked)")
    XCTAssertEqual(server.applied.count, 1)
    await after.load()
    XCTAssertEqual(after.state.data?.title, "old", "the discarded edit's change showed again")
  }

  // MARK: - Store-wide activity

  func testIsFetchingCountsEntriesFetchingAndIsObservable() async {
    let store = LoaderStore()
    let gates = [Gate<Int>(), Gate<Int>()]
    let first = store.loader(for: ["a"]) { try await gates[0].pass() }
    let second = store.loader(for: ["b"]) { try await gates[1].pass() }
    let fetchingChanges = ChangeCounter { _ = store.isRunning }
    let countChanges = ChangeCounter { _ = store.runningCount }
    XCTAssertFalse(store.isRunning)
    XCTAssertEqual(store.runningCount, 0)

    let loadingFirst = Task { await first.load() }
    await gates[0].arrival()
    let loadingSecond = Task { await second.load() }
    await gates[1].arrival()
    XCTAssertTrue(store.isRunning)
    XCTAssertEqual(store.runningCount, 2)
    // A load joining a running fetch, and a refresh superseding one, count it once.
    let joining = Task { await first.load() }
    let refreshing = Task { await first.refresh() }
    await gates[0].arrival(count: 2)
    XCTAssertEqual(store.runningCount, 2)

    gates[0].open(1)
    _ = await loadingFirst.value
    _ = await joining.value
    _ = await refreshing.value
    XCTAssertEqual(store.runningCount, 1)
    XCTAssertTrue(store.isRunning)
    second.cancel()
    _ = await loadingSecond.value
    XCTAssertEqual(store.runningCount, 0)
    XCTAssertFalse(store.isRunning)
    XCTAssertEqual(fetchingChanges.count, 2, "isFetching woke its observers at each fetch")
    XCTAssertEqual(countChanges.count, 4)
  }

  func testAFirstObserverArrivingDuringAFetchIsToldWhenItEndsAndWhenTheNextStarts() async {
    let store = LoaderStore()
    // A gate for each fetch: an opened gate stays open, so the refresh needs a new one to
    // be held at.
    let gates = [Gate<Int>(), Gate<Int>()]
    var fetches = 0
    let entry = store.loader(for: ["a"]) { () async throws -> Int in
      fetches += 1
      return try await gates[fetches - 1].pass()
    }
    let loading = Task { await entry.load() }
    await gates[0].arrival()
    // Nobody has read the store's activity yet: its first observers come while it counts one.
    let fetchingChanges = ChangeCounter { _ = store.isRunning }
    let countChanges = ChangeCounter { _ = store.runningCount }
    XCTAssertTrue(store.isRunning)
    gates[0].open(1)
    _ = await loading.value
    XCTAssertFalse(store.isRunning)
    XCTAssertEqual(fetchingChanges.count, 1, "the fetch's end did not wake the observer")
    XCTAssertEqual(countChanges.count, 1)
    let refreshing = Task { await entry.refresh() }
    await gates[1].arrival()
    XCTAssertTrue(store.isRunning)
    XCTAssertEqual(fetchingChanges.count, 2, "the next fetch's start did not wake the observer")
    gates[1].open(2)
    _ = await refreshing.value
    XCTAssertEqual(fetchingChanges.count, 3)
    XCTAssertEqual(countChanges.count, 3)
  }

  func testAFailedFetchAndAFreshReadLeaveTheCountAtZero() async {
    let store = LoaderStore()
    let entry = store.loader(for: ["a"], staleTime: .seconds(60)) { () async throws -> Int in
      throw TestError(code: 1)
    }
    await entry.load()
    XCTAssertEqual(store.runningCount, 0, "a failed fetch still counts")
    let fresh = store.loader(for: ["b"], staleTime: .seconds(60)) { 1 }
    await fresh.load()
    let changes = ChangeCounter { _ = store.runningCount }
    await fresh.load()
    XCTAssertEqual(changes.count, 0, "a fresh read moved the count")
  }

  func testTheCountComesBackToZeroHoweverAFetchEnds() async {
    let store = LoaderStore()
    let gate = Gate<Int>()
    let entry = store.loader(for: ["a"]) { try await gate.pass() }
    let token = entry.observe()

    // Cancelled, reset, superseded by an invalidation, then stopped by a trim.
    for end in ["cancel", "reset", "invalidate", "trim"] {
      let loading = Task { await entry.refresh() }
      await gate.arrival(count: gate.arrived + 1)
      XCTAssertEqual(store.runningCount, 1, end)
      switch end {
      case "cancel": entry.cancel()
      case "reset": entry.reset()
      case "invalidate":
        store.invalidate(["a"])  // a new fetch supersedes the running one: still one
        await gate.arrival(count: gate.arrived + 1)
        XCTAssertEqual(store.runningCount, 1, "a superseding fetch was counted twice")
        entry.cancel()
      default:
        token.end()
        store.trim()
      }
      _ = await loading.value
      XCTAssertEqual(store.runningCount, 0, "the count stayed up after \(end)")
      XCTAssertFalse(store.isRunning)
    }
  }

  func testPendingEditCountForwardsTheOutbox() async {
    let server = PostServer()
    let store = LoaderStore(connectivity: Loadables.Connectivity(isOnline: false))
    store.register(RenamePost.self) { edit, context in try await server.rename(edit, context) }
    let changes = ChangeCounter { _ = store.pendingEditCount }
    store.edit(RenamePost(id: 1, title: "mine"))
    XCTAssertEqual(store.pendingEditCount, 1)
    XCTAssertGreaterThanOrEqual(changes.count, 1)
  }
}

import Loadables
import LoadablesTesting
import XCTest

/// Shared state across screens: one entry per key in a `LoaderStore`, invalidation,
/// optimistic edits that roll back, freshness and memory limits, through every form.
@MainActor
final class SharedStateTests: XCTestCase {
  // MARK: - One entry per key, shared

  func testTwoScreensAskingForOneKeyCauseOneFetch() async {
    let store = LoaderStore()
    let server = CountingServer()
    let gate = Gate<String>()
    func post() -> SharedLoader<String> {
      store.loader(for: ["posts", 1]) { try await server.answer(gate) }
    }
    let feed = post()
    let detail = post()
    XCTAssertTrue(feed === detail, "one key gave two entries")
    let first = Task { await feed.load() }
    await gate.arrival()
    let second = Task { await detail.load() }  // joins the running fetch
    await yieldUntil { feed.isRunning == false }
    gate.open("hello")
    let states = await [first.value, second.value]
    XCTAssertEqual(states, [.loaded("hello"), .loaded("hello")])
    XCTAssertEqual(server.calls, 1, "the second screen fetched again")
  }

  func testCancellingOneWaitingCallerLeavesTheFetchForTheOthers() async {
    let store = LoaderStore()
    let gate = Gate<String>()
    let entry = store.loader(for: ["k"]) { try await gate.pass() }
    let first = Task { await entry.load() }
    await gate.arrival()
    let second = Task { await entry.load() }
    first.cancel()
    _ = await first.value
    XCTAssertTrue(entry.isRunning, "a cancelled caller stopped the shared fetch")
    gate.open("v")
    let state = await second.value
    XCTAssertEqual(state, .loaded("v"))
  }

  // MARK: - Freshness

  func testAFreshValueIsReusedAndAStaleOneRefreshesSilently() async {
    let clock = ManualClock()
    let store = LoaderStore(clock: clock)
    let server = CountingServer()
    let entry = store.loader(for: ["profile"], staleTime: .seconds(60)) {
      try await server.answer(nil, "v\(server.calls + 1)")
    }
    await entry.load()
    XCTAssertEqual(entry.state, .loaded("v1"))
    XCTAssertFalse(entry.isStale)
    await entry.load()
    XCTAssertEqual(server.calls, 1, "a fresh value was fetched again")

    clock.advance(by: .seconds(60))
    XCTAssertTrue(entry.isStale, "the value did not turn stale after its stale time")

    let subscribed = Gate<Void>()
    let seen = Task { () -> [LoadableState<String>] in
      var states: [LoadableState<String>] = []
      for await state in entry.states {
        states.append(state)
        subscribed.open()
        if state == .loaded("v2") { break }
      }
      return states
    }
    try? await subscribed.pass()
    let state = await entry.load()
    XCTAssertEqual(state, .loaded("v2"))
    XCTAssertEqual(server.calls, 2)
    let states = await seen.value
    XCTAssertEqual(states, [.loaded("v1"), .loaded("v2")], "a stale refresh blanked the value")
  }

  // MARK: - Invalidation

  func testInvalidatingAPrefixRefreshesObservedEntriesAndMarksTheOthers() async {
    // Values stay fresh for an hour on a clock that never moves: only invalidation refreshes.
    let store = LoaderStore(clock: ManualClock())
    let server = CountingServer()
    func entry(_ key: LoadKey, _ value: String) -> SharedLoader<String> {
      store.loader(for: key, staleTime: .seconds(3600)) { try await server.answer(nil, value) }
    }
    let observed = entry(["posts", 1], "one")
    let unobserved = entry(["posts", 2], "two")
    let other = entry(["users", 1], "user")
    await observed.load()
    await unobserved.load()
    await other.load()
    XCTAssertEqual(server.calls, 3)
    let token = observed.observe()

    store.invalidate(["posts"])
    XCTAssertTrue(observed.isRunning, "an observed entry did not refresh")
    XCTAssertEqual(observed.state, .loaded("one"), "the refresh blanked the value")
    XCTAssertFalse(unobserved.isRunning, "an unobserved entry refreshed at once")
    XCTAssertTrue(unobserved.isStale)
    XCTAssertFalse(other.isRunning, "an entry outside the prefix refreshed")
    await yieldUntil { !observed.isRunning }
    XCTAssertEqual(server.calls, 4)

    await unobserved.load()  // next observed: refreshes
    XCTAssertEqual(server.calls, 5)
    token.end()
  }

  func testInvalidatingAnObservedEntryWithNoValueShowsTheSpinner() async {
    let store = LoaderStore()
    let gate = Gate<String>()
    let entry = store.loader(for: ["k"]) { try await gate.pass() }
    let first = Task { await entry.load() }
    await gate.arrival()
    gate.fail(TestError(code: 1))
    _ = await first.value
    XCTAssertEqual(entry.state, .error(TestError(code: 1)))
    let token = entry.observe()
    store.invalidate(["k"])
    XCTAssertEqual(entry.state, .loading, "a refresh with no value to keep hid its spinner")
    entry.cancel()
    token.end()
  }

  func testAFetchOlderThanAnInvalidationNeverStores() async {
    let store = LoaderStore()
    let old = Gate<String>()
    let new = Gate<String>()
    let server = CountingServer()
    let entry = store.loader(for: ["k"]) {
      try await server.answer(server.calls == 0 ? old : new)
    }
    let load = Task { await entry.load() }
    await old.arrival()
    store.invalidate(["k"])  // the running fetch is superseded
    await new.arrival()
    old.open("old")
    new.open("new")
    _ = await load.value
    XCTAssertEqual(entry.state, .loaded("new"))
  }

  // MARK: - Optimistic edits

  func testAFailedEditRollsBackAndASuccessfulOneInvalidates() async {
    let store = LoaderStore()
    let server = CountingServer()
    let post = store.loader(for: ["posts", 1]) { try await server.answer(nil, "server") }
    await post.load()
    let token = post.observe()

    do {
      try await store.edit {
        $0.set(post, to: "liked")
      } perform: {
        XCTAssertEqual(post.state, .loaded("liked"), "the edit did not show at once")
        throw TestError(code: 409)
      }
      XCTFail("edit did not rethrow")
    } catch {
      XCTAssertEqual(error as? TestError, TestError(code: 409))
    }
    XCTAssertEqual(post.state, .loaded("server"), "a failed edit was not rolled back")

    try? await store.edit(invalidating: [["posts"]]) {
      $0.set(post, to: "liked")
    } perform: {
    }
    XCTAssertEqual(post.state, .loaded("liked"))
    XCTAssertTrue(post.isRunning, "a successful edit did not invalidate")
    await yieldUntil { !post.isRunning }
    XCTAssertEqual(post.state, .loaded("server"))
    token.end()
  }

  func testAnEditOfAStaleEntryLeavesItStaleAndARollBackLeavesItsFreshness() async throws {
    let clock = ManualClock()
    let store = LoaderStore(clock: clock)
    let server = CountingServer()
    let post = store.loader(for: ["posts", 1], staleTime: .seconds(10)) {
      try await server.answer(nil, "v\(server.calls)")
    }
    await post.load()  // v0, fresh
    clock.advance(by: .seconds(11))
    XCTAssertTrue(post.isStale)
    try await store.edit {
      $0.set(post, to: "liked")
    } perform: {
    }
    XCTAssertEqual(post.state, .loaded("liked"))
    XCTAssertTrue(post.isStale, "an edit said what the server holds now")
    await post.load()
    XCTAssertEqual(server.calls, 2, "a load of the stale entry did not refresh")

    // Fresh now; a failed edit's roll-back keeps it fresh, and time still counts from the
    // fetch, not from the roll-back.
    clock.advance(by: .seconds(6))
    try? await store.edit {
      $0.set(post, to: "disliked")
    } perform: {
      throw TestError(code: 409)
    }
    XCTAssertFalse(post.isStale)
    clock.advance(by: .seconds(5))
    XCTAssertTrue(post.isStale, "the roll-back restarted the stale time")
  }

  func testAPendingEditStaysOverARefreshAndRollsBackToIt() async {
    let store = LoaderStore()
    let server = CountingServer()
    let post = store.loader(for: ["posts", 1]) { try await server.answer(nil, "v\(server.calls)") }
    await post.load()  // v0
    let job = Gate<Void>()
    let edit = Task {
      try await store.edit {
        $0.set(post, to: "mine")
      } perform: {
        try await job.pass()
      }
    }
    await job.arrival()
    await post.refresh()  // lands while the edit's job runs
    XCTAssertEqual(post.state, .loaded("mine"), "a background refresh made a pending edit vanish")
    job.fail(TestError(code: 1))
    _ = try? await edit.value
    XCTAssertEqual(post.state, .loaded("v1"), "the rollback did not go back to the newer fetch")
  }

  func testAnUpdateRunsAgainOverANewerFetchedValue() async {
    let store = LoaderStore()
    var fetches = 0
    let likes = store.loader(for: ["likes"]) { () async -> Int in
      defer { fetches += 1 }
      await Task.yield()
      return fetches * 10
    }
    await likes.load()  // 0
    let job = Gate<Void>()
    let edit = Task {
      try await store.edit {
        $0.update(likes) { $0 += 1 }
      } perform: {
        try await job.pass()
      }
    }
    await job.arrival()
    XCTAssertEqual(likes.state, .loaded(1))
    await likes.refresh()  // the server says 10 now
    XCTAssertEqual(likes.state, .loaded(11), "the pending update was not laid over the new value")
    job.open()
    _ = try? await edit.value
    XCTAssertEqual(likes.state, .loaded(11), "a committed update left before a fetch carried it")
    await likes.refresh()  // started after the commit: the server's 20 carries the like
    XCTAssertEqual(likes.state, .loaded(20), "a fetch after the commit did not replace the edit")
  }

  func testAResetDiscardsThePendingEdits() async {
    let store = LoaderStore()
    let post = store.loader(for: ["p"]) { "server" }
    await post.load()
    let job = Gate<Void>()
    let edit = Task {
      try await store.edit {
        $0.set(post, to: "mine")
      } perform: {
        try await job.pass()
      }
    }
    await job.arrival()
    post.reset()
    XCTAssertEqual(post.state, .absent)
    await post.load()
    XCTAssertEqual(post.state, .loaded("server"), "a reset kept a pending edit")
    job.fail(TestError(code: 1))
    _ = try? await edit.value
    XCTAssertEqual(post.state, .loaded("server"))
  }

  func testAKeyAskedForWithAnotherValueTypeIsReportedAndKeptApart() async {
    let store = LoaderStore()
    var asserted: [LoadKeyTypeMismatch] = []
    store.typeMismatchAssertion = { asserted.append($0) }
    let count = store.loader(for: ["posts", 1]) { 1 }
    let words = store.loader(for: ["posts", 1]) { "one" }
    let expected =
      #"LoaderStore.loader(for: ["posts", 1]): the entry holds Swift.Int, asked for Swift.String; "#
      + "the two are kept apart"
    XCTAssertEqual(
      asserted.map(\.description), [expected], "the assertion hook was not called once")
    XCTAssertEqual(asserted.first?.key, ["posts", 1])
    XCTAssertEqual(store.recentDiagnostics, asserted.map(StoreDiagnostic.typeMismatch))
    let state1 = await count.load()
    XCTAssertEqual(state1, .loaded(1))
    let state2 = await words.load()
    XCTAssertEqual(state2, .loaded("one"), "the entry kept apart does not work")
    XCTAssertTrue(store.existingLoader(for: ["posts", 1], as: Int.self) === count)
    XCTAssertTrue(store.existingLoader(for: ["posts", 1], as: String.self) === words)
    XCTAssertTrue(store.loader(for: ["posts", 1]) { "two" } === words, "not shared by type")
    XCTAssertEqual(asserted.count, 1, "a second caller with the same type was reported again")
    XCTAssertEqual(store.count, 2)
    XCTAssertEqual(store.keys, [["posts", 1], ["posts", 1]])
  }

  func testTwoOverlappingEditsNeverUndoEachOther() async {
    for firstFails in [true, false] {
      for order in ["first ends first", "second ends first"] {
        let store = LoaderStore()
        let post = store.loader(for: ["p"]) { "server" }
        await post.load()
        let a = Gate<Void>()
        let b = Gate<Void>()
        let editA = Task {
          try await store.edit {
            $0.set(post, to: "A")
          } perform: {
            try await a.pass()
          }
        }
        await a.arrival()
        let editB = Task {
          try await store.edit {
            $0.set(post, to: "B")
          } perform: {
            try await b.pass()
          }
        }
        await b.arrival()
        // The second edit fails; the first one fails or succeeds.
        let endA = { firstFails ? a.fail(TestError(code: 1)) : a.open() }
        if order == "first ends first" {
          endA()
          _ = try? await editA.value
          XCTAssertEqual(post.state, .loaded("B"), "\(order): A's end changed B's value")
          b.fail(TestError(code: 2))
          _ = try? await editB.value
        } else {
          b.fail(TestError(code: 2))
          _ = try? await editB.value
          XCTAssertEqual(post.state, .loaded("A"), "\(order): B's rollback lost A's value")
          endA()
          _ = try? await editA.value
        }
        let expected: LoadableState<String> = firstFails ? .loaded("server") : .loaded("A")
        XCTAssertEqual(post.state, expected, "A \(firstFails ? "failed" : "succeeded"), \(order)")
      }
    }
  }

  // The article and `edit(...)`'s doc comment: edits are values laid over the base, so when
  // an earlier edit fails, a later `update` runs again without it and the earlier change goes.
  func testAnEarlierEditsFailureLeavesALaterUpdateLaidOverTheBase() async {
    for laterFails in [false, true] {
      let store = LoaderStore()
      let list = store.loader(for: ["list"]) { [0] }
      await list.load()
      let a = Gate<Void>()
      let b = Gate<Void>()
      let editA = Task {
        try await store.edit {
          $0.update(list) { $0.append(1) }
        } perform: {
          try await a.pass()
        }
      }
      await a.arrival()
      let editB = Task {
        try await store.edit {
          $0.update(list) { $0.append(2) }
        } perform: {
          try await b.pass()
        }
      }
      await b.arrival()
      XCTAssertEqual(list.state, .loaded([0, 1, 2]))

      a.fail(TestError(code: 1))
      _ = try? await editA.value
      XCTAssertEqual(
        list.state, .loaded([0, 2]), "the failed earlier edit's change stayed on screen")

      if laterFails { b.fail(TestError(code: 2)) } else { b.open() }
      _ = try? await editB.value
      let expected: LoadableState<[Int]> = laterFails ? .loaded([0]) : .loaded([0, 2])
      XCTAssertEqual(list.state, expected, "the later edit \(laterFails ? "failed" : "succeeded")")
    }
  }

  func testAnEditRunsAsAProcessAndItsFailureShowsThere() async {
    let store = LoaderStore()
    let post = store.loader(for: ["p"]) { "server" }
    await post.load()
    @LoadableProcess var saving: ProcessState<String>
    await $saving.run("like") {
      try await store.edit {
        $0.update(post) { $0 += "+like" }
      } perform: {
        throw TestError(code: 500)
      }
    }
    XCTAssertEqual(saving, .failed(process: "like", error: TestError(code: 500)))
    XCTAssertEqual(post.state, .loaded("server"))
  }

  func testAnEditStopsAFetchThatStartedBeforeIt() async {
    let store = LoaderStore()
    let gate = Gate<String>()
    let post = store.loader(for: ["p"]) { try await gate.passIgnoringCancellation() }
    let load = Task { await post.load() }
    await gate.arrival()
    try? await store.edit {
      $0.set(post, to: "edited")
    } perform: {
    }
    gate.open("older")
    _ = await load.value
    XCTAssertEqual(post.state, .loaded("edited"), "a fetch older than the edit stored")
  }

  // MARK: - Triggers

  func testPollingRunsWhileObservedAndStopsWithTheLastObserver() async throws {
    let clock = ManualClock()
    let store = LoaderStore(graceTime: .seconds(3600), clock: clock)
    let server = CountingServer()
    let feed = store.loader(
      for: ["feed"], staleTime: .seconds(3600), refreshing: [.every(.seconds(10))]
    ) {
      try await server.answer(nil, "feed")
    }
    await feed.load()
    let token = feed.observe()
    // Sleepers: the store's grace sweeper, the stale timer (observed entries only) and the
    // poll.
    try await clock.sleepers(count: 3)
    clock.advance(by: .seconds(10))
    await yieldUntil { server.calls == 2 && !feed.isRunning && clock.sleeperCount == 3 }
    XCTAssertEqual(server.calls, 2, "polling did not refresh")
    token.end()
    // Sleepers: the grace sweeper only; the poll and the stale timer have stopped.
    await yieldUntil { clock.sleeperCount == 1 }
    clock.advance(by: .seconds(10))
    await yieldUntil { server.calls > 2 }
    XCTAssertEqual(server.calls, 2, "polling went on with no observer")
  }

  func testASignalRefreshesWhileObserved() async {
    let store = LoaderStore()
    let server = CountingServer()
    let (signals, signal) = AsyncStream.makeStream(of: Void.self)
    let feed = store.loader(for: ["feed"], refreshing: [.signals { signals }]) {
      try await server.answer(nil, "feed")
    }
    await feed.load()
    let token = feed.observe()
    signal.yield()
    await yieldUntil { server.calls == 2 }
    XCTAssertEqual(server.calls, 2, "the signal did not refresh")
    token.end()
  }

  // MARK: - Memory

  func testAnUnobservedEntryLeavesAfterItsGraceTime() async throws {
    let clock = ManualClock()
    let store = LoaderStore(graceTime: .seconds(30), clock: clock)
    let entry = store.loader(for: ["gone"]) { 1 }
    let kept = store.loader(for: ["kept"]) { 2 }
    let token = kept.observe()
    await entry.load()
    try await clock.sleepers(count: 1)
    clock.advance(by: .seconds(30))
    await yieldUntil { store.count == 1 }
    XCTAssertEqual(store.keys, [["kept"]], "the grace time did not drop the unobserved entry")
    XCTAssertFalse(store.existingLoader(for: ["gone"], as: Int.self) === entry)
    token.end()
  }

  func testAnEntryWhoseFetchACallerAwaitsOutlivesItsGraceTimeUntilTheFetchEnds() async throws {
    // A caller waiting in `load()` does not observe the entry, but its fetch is in use: the
    // grace time must not drop the entry (and cancel the fetch) under it.
    let clock = ManualClock()
    let store = LoaderStore(graceTime: .seconds(2), clock: clock)
    let gate = Gate<Int>()
    let entry = store.loader(for: ["slow"]) { try await gate.pass() }
    let caller = Task { @MainActor in await entry.load() }
    await gate.arrival()
    try await clock.sleepers(count: 1)  // the sweeper
    clock.advance(by: .seconds(2))
    await yieldUntil { clock.sleeperDeadlines == [.seconds(4)] }
    XCTAssertEqual(store.count, 1, "the grace time dropped an entry whose fetch was in use")
    XCTAssertEqual(gate.waiting, 1, "the fetch a caller awaited was cancelled")
    gate.open(5)
    let state = await caller.value
    XCTAssertEqual(state, .loaded(5))
    // Once the fetch has ended, the grace time drops the unobserved entry.
    clock.advance(by: .seconds(2))
    await yieldUntil { store.count == 0 }
    XCTAssertEqual(store.count, 0, "the entry stayed after its fetch ended")
  }

  func testTheBoundNeverEvictsAnEntryWhoseFetchIsRunning() async {
    let store = LoaderStore(maxEntries: 1)
    let gate = Gate<Int>()
    let slow = store.loader(for: ["slow"]) { try await gate.pass() }
    let caller = Task { @MainActor in await slow.load() }
    await gate.arrival()
    _ = store.loader(for: ["new"]) { 2 }
    XCTAssertTrue(
      store.existingLoader(for: ["slow"], as: Int.self) === slow,
      "the bound evicted an entry whose fetch a caller awaited")
    gate.open(1)
    let state = await caller.value
    XCTAssertEqual(state, .loaded(1))
  }

  func testAnAcceptedEditShowsItsChangeOnceThenTheRefreshedValue() async throws {
    // What a following screen sees when an edit commits and its invalidation refreshes:
    // the optimistic change, then the server's answer; a commit that changes nothing on
    // screen writes nothing.
    let store = LoaderStore()
    var server = 12
    let gate = Gate<Void>()
    let entry = store.loader(for: ["likes", 1]) { () async throws -> Int in
      if server != 12 { try await gate.pass() }
      return server
    }
    @Loadable var likes: LoadableState<Int>
    await $likes.load(from: entry)
    let recorder = StateRecorder($likes)
    try await store.edit(invalidating: [["likes"]]) { edit in
      edit.update(entry) { $0 += 1 }
    } perform: {
      server = 14  // the server counted another reader's like too
    }
    await gate.arrival()
    XCTAssertEqual(recorder.states, [.loaded(12), .loaded(13)], "a commit wrote again")
    gate.open()
    await entry.load()
    XCTAssertEqual(recorder.states, [.loaded(12), .loaded(13), .loaded(14)])
    recorder.stop()
  }

  func testAnEarlierEditsCommitKeepsALaterPendingEditOnAFollowersScreen() async throws {
    let store = LoaderStore()
    let entry = store.loader(for: ["count"]) { 0 }
    @Loadable var count: LoadableState<Int>
    await $count.load(from: entry)
    let first = Gate<Void>()
    let second = Gate<Void>()
    let earlier = Task { @MainActor in
      try await store.edit {
        $0.update(entry) { $0 += 1 }
      } perform: {
        try await first.pass()
      }
    }
    await first.arrival()
    let later = Task { @MainActor in
      try await store.edit {
        $0.update(entry) { $0 += 10 }
      } perform: {
        try await second.pass()
      }
    }
    await second.arrival()
    XCTAssertEqual(count, .loaded(11))
    first.open()
    try await earlier.value
    XCTAssertEqual(count, .loaded(11), "the earlier edit's commit hid the later pending edit")
    XCTAssertEqual(entry.state, .loaded(11))
    second.open()
    try await later.value
    XCTAssertEqual(count, .loaded(11))
  }

  func testTheLeastRecentlyUsedUnobservedEntryLeavesPastTheBound() async {
    let store = LoaderStore(maxEntries: 2)
    let a = store.loader(for: ["a"]) { 1 }
    let token = a.observe()
    _ = store.loader(for: ["b"]) { 2 }
    _ = store.loader(for: ["c"]) { 3 }
    XCTAssertEqual(Set(store.keys), [["a"], ["c"]], "the observed or the newest entry left")
    store.trim()
    XCTAssertEqual(store.keys, [["a"]], "trim() kept an unobserved entry")
    token.end()
  }

  // MARK: - Every form follows an entry

  func testAWrapperFollowsAnEntryUntilItLoadsSomethingElse() async {
    let store = LoaderStore()
    let post = store.loader(for: ["p"]) { "server" }
    @Loadable var shown: LoadableState<String>
    await $shown.load(from: post)
    XCTAssertEqual(shown, .loaded("server"))
    XCTAssertEqual(post.observerCount, 1)

    try? await store.edit {
      $0.set(post, to: "edited elsewhere")
    } perform: {
    }
    XCTAssertEqual(shown, .loaded("edited elsewhere"), "the wrapper missed another screen's edit")

    await $shown.load { "its own" }
    await yieldUntil { post.observerCount == 0 }
    XCTAssertEqual(post.observerCount, 0, "a wrapper that loads on its own still follows")
    try? await store.edit {
      $0.set(post, to: "later")
    } perform: {
    }
    XCTAssertEqual(shown, .loaded("its own"))
  }

  func testAKeyPathFollowsAnEntryForItsOwnersLife() async {
    let store = LoaderStore()
    let post = store.loader(for: ["p"]) { "server" }
    var model: SharedPostModel? = SharedPostModel()
    await model!.load(\.post, from: post)
    XCTAssertEqual(model!.post, .loaded("server"))
    store.invalidate(["p"])
    await yieldUntil { !post.isRunning }
    try? await store.edit {
      $0.set(post, to: "edited")
    } perform: {
    }
    XCTAssertEqual(model!.post, .loaded("edited"))
    weak let released = model
    model = nil
    XCTAssertNil(released, "following kept the owner alive")
    try? await store.edit {
      $0.set(post, to: "after")
    } perform: {
    }  // the orphan stops here
    await yieldUntil { post.observerCount == 0 }
    XCTAssertEqual(post.observerCount, 0, "a released owner still observes the entry")
  }

  func testAReleasedKeyPathOwnerStopsObservingAtOnce() async {
    let store = LoaderStore()
    let post = store.loader(for: ["p"]) { "server" }
    var model: SharedPostModel? = SharedPostModel()
    await model!.load(\.post, from: post)
    XCTAssertEqual(post.observerCount, 1)
    model = nil
    XCTAssertEqual(post.observerCount, 0, "a released owner still observes the entry")
    store.trim()
    XCTAssertEqual(store.count, 0, "trim() kept an entry whose only follower is gone")
  }

  func testAReleasedKeyPathOwnersEntryIsNotRefreshedOnInvalidation() async {
    let store = LoaderStore()
    let server = CountingServer()
    let post = store.loader(for: ["p"]) { try await server.answer(nil, "server") }
    var model: SharedPostModel? = SharedPostModel()
    await model!.load(\.post, from: post)
    XCTAssertEqual(server.calls, 1)
    model = nil
    store.invalidate(["p"])
    XCTAssertFalse(post.isRunning, "an entry followed only by a released owner refreshed")
    await yieldUntil { server.calls > 1 }
    XCTAssertEqual(server.calls, 1, "an entry followed only by a released owner refreshed")
    XCTAssertTrue(post.isStale)
  }

  func testAReleasedKeyPathOwnersEntryLeavesAfterTheGraceTime() async throws {
    let clock = ManualClock()
    let store = LoaderStore(graceTime: .seconds(30), clock: clock)
    let post = store.loader(for: ["p"]) { "server" }
    var model: SharedPostModel? = SharedPostModel()
    await model!.load(\.post, from: post)
    try await clock.sleepers(count: 1)  // the sweeper, checking the owner's life
    clock.advance(by: .seconds(10))
    model = nil
    // Nobody asks about the entry: the sweeper finds the owner gone on its next check, and
    // the grace time counts from then.
    clock.advance(by: .seconds(20))
    await yieldUntil { clock.sleeperDeadlines == [.seconds(60)] }
    XCTAssertEqual(clock.sleeperDeadlines, [.seconds(60)], "the sweeper did not check the owner")
    XCTAssertEqual(store.count, 1, "the entry left before its grace time")
    clock.advance(by: .seconds(30))
    await yieldUntil { store.count == 0 }
    XCTAssertEqual(store.count, 0, "the grace time never dropped the entry of a released owner")
  }

  func testAReleasedKeyPathOwnersGraceTimeCountsFromWhenItWasFoundGone() async throws {
    let clock = ManualClock()
    let store = LoaderStore(graceTime: .seconds(30), clock: clock)
    let post = store.loader(for: ["p"]) { "server" }
    var model: SharedPostModel? = SharedPostModel()
    await model!.load(\.post, from: post)
    try await clock.sleepers(count: 1)
    model = nil
    XCTAssertEqual(post.observerCount, 0)  // found gone now
    clock.advance(by: .seconds(29))
    await yieldUntil { store.count == 0 }
    XCTAssertEqual(store.count, 1, "the entry left before its grace time")
    clock.advance(by: .seconds(1))
    await yieldUntil { store.count == 0 }
    XCTAssertEqual(store.count, 0, "the grace time did not drop the entry of a released owner")
  }

  func testAStateStreamObservesTheEntryWhileItLasts() async {
    let store = LoaderStore()
    let post = store.loader(for: ["p"]) { "server" }
    let subscribed = Gate<Void>()
    let observer = Task {
      for await state in post.states {
        subscribed.open()
        if state == .loaded("server") { break }
      }
    }
    try? await subscribed.pass()
    XCTAssertEqual(post.observerCount, 1)
    await post.load()
    await observer.value
    await yieldUntil { post.observerCount == 0 }
    XCTAssertEqual(post.observerCount, 0)
  }

  // MARK: - Keys

  func testKeysMatchByPrefix() {
    let key: LoadKey = ["posts", 42]
    XCTAssertTrue(key.hasPrefix(["posts"]))
    XCTAssertTrue(key.hasPrefix(["posts", 42]))
    XCTAssertFalse(key.hasPrefix(["posts", 4]))
    XCTAssertFalse(key.hasPrefix(["posts", 42, "comments"]))
    XCTAssertEqual(LoadKey(["posts"]).appending(42), key)
    XCTAssertEqual(key.description, #"["posts", 42]"#)
  }
}

/// A fake server that counts its calls.
@MainActor
final class CountingServer {
  private(set) var calls = 0

  func answer(_ gate: Gate<String>?, _ value: String = "") async throws -> String {
    calls += 1
    if let gate { return try await gate.pass() }
    await Task.yield()
    return value
  }
}

@MainActor
final class SharedPostModel: LoadableSupport {
  var post: LoadableState<String> = .absent
}

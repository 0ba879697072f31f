import Foundation
import Loadables

/// The scenes of the demo, in order. Each mounts a view of the model, triggers an action
/// and waits for it; the renderer prints a frame for every state the view goes through.
@MainActor
struct DemoScript {
  let model: DemoModel
  let pace: Pace
  let screen = TerminalRenderer()

  func play() async {
    await scene("Initial load: absent → loading → loaded", view: DemoScreen.numbers) {
      await model.loadNumbers().value
      expect(model.numbers == .loaded([1, 2, 3]))
    }

    await scene("Streaming: a new state per yield, until the stream ends", view: DemoScreen.feed) {
      await model.streamFeed().value
      expect(model.feed.data?.count == 3)
    }

    await scene("Silent refresh: the list stays while it reloads", view: DemoScreen.feed) {
      await model.refreshFeed().value
      expect(model.feed.data?.count == 4)
    }

    await scene(
      "A failed refresh keeps the list; the error shows beside it", view: DemoScreen.feed
    ) {
      await model.pullToRefreshFeed(failing: true).value
      expect(model.feed.data?.count == 4 && model.$feed.refreshError != nil)
      await note("pull again:")
      await model.pullToRefreshFeed(failing: false).value
      expect(model.feed.data?.count == 5 && model.$feed.refreshError == nil)
    }

    await scene("Failing load (key path, LoadableSupport)", view: DemoScreen.profile) {
      await model.loadProfile(failing: true).value
      expect(model.profile.isError)
      await note("retry:")
      await model.loadProfile(failing: false).value
      expect(model.profile == .loaded(Profile(name: "Ada", role: "admin")))
    }

    await scene(
      "Cancelled reload: the value it replaced comes back, the late result is dropped",
      view: DemoScreen.numbers
    ) {
      let before = model.numbers
      let load = model.loadNumbersIgnoringCancellation()
      await wait(.milliseconds(250))
      await note("cancel():")
      model.cancelNumbers()
      await screen.settle()
      expect(model.numbers == before && !model.$numbers.isRunning)
      await load.value  // ends once the request has answered, late
      await note(
        "the request answered \(FakeAPI.lateNumbers) anyway; numbers is still "
          + "\(String(reflecting: model.numbers)). reset():")
      expect(model.numbers == before)
      model.resetNumbers()
      expect(model.numbers == .absent)
    }

    await scene(
      "Saving with @LoadableProcess: idle → running → finished",
      view: DemoScreen.saving
    ) {
      await model.save().value
      expect(model.saving.hasFinished)
    }

    await scene("Publishing by key path (ProcessSupport)", view: DemoScreen.publishing) {
      await model.publish().value
      expect(model.publishing.hasFinished)
    }

    await pagingScene()
    await retryScene()
    await timeoutScene()
    await debounceScene()
    await downloadsScene()
    await sharedStateScene()
    await newsReaderScene()
    await offlineScene()

    print("\nDone.")
  }

  // MARK: - Paging

  private func pagingScene() async {
    await scene(
      "Infinite feed: pages arrive, a failed page is retried from the footer, a refresh "
        + "replaces the list without blanking it",
      view: DemoScreen.pagedFeed
    ) {
      await model.loadPosts().value
      expect(model.pagedFeed.items.count == 3)
      await note("the last row appears: the next page")
      await model.loadMorePosts().value
      expect(model.pagedFeed.items.count == 6 && model.pagedFeed.nextPage == .idle)
      await note("the last row appears again: page 3 fails, the list stays")
      await model.loadMorePosts().value
      expect(model.pagedFeed.items.count == 6 && model.pagedFeed.nextPage.error is APIError)
      await note("retry in the footer:")
      await model.loadMorePosts().value
      expect(model.pagedFeed.items.count == 9 && model.pagedFeed.nextPage == .idle)
      await model.feedPages.publish()
      await note("pull to refresh: the list stays until the new first page replaces it")
      await model.refreshPosts().value
      expect(model.pagedFeed.items == ["new 3", "new 2", "new 1"])
      expect(await model.feedPages.requests == [1, 2, 3, 3, 1])
    }
  }

  // MARK: - Policies

  private func retryScene() async {
    await scene(
      "Retry: fails twice, then answers; the attempts show beside a steady loading…",
      view: DemoScreen.quote
    ) {
      let endpoint = model.api.flakyQuote(failing: 2)
      let states = record(model.$quote.states)
      await model.loadQuote(from: endpoint, showsFailedAttempts: false).value
      expect(model.quote == .loaded(FakeAPI.quote))
      let written = await states.value
      await note("states written: \(describe(written))")
      expect(!written.contains(where: \.isError))
      expect(await endpoint.calls == 3)

      await note("the same with showsFailedAttempts: true, each failure shows:")
      let flashing = model.api.flakyQuote(failing: 2)
      let flashed = record(model.$quote.states)
      await model.loadQuote(from: flashing, showsFailedAttempts: true).value
      expect(model.quote == .loaded(FakeAPI.quote))
      let writtenAgain = await flashed.value
      await note("states written: \(describe(writtenAgain))")
      expect(writtenAgain.filter(\.isError).count == 2)
      expect(await flashing.calls == 3)
    }
  }

  private func timeoutScene() async {
    await scene(
      "Timeout: a request that outlasts its limit fails with TimeoutError",
      view: DemoScreen.report
    ) {
      await model.loadReport(slow: true).value
      expect(model.report.error is TimeoutError)
      await note("a quick one, well within the limit:")
      await model.loadReport(slow: false).value
      expect(model.report == .loaded("quick report"))
    }
  }

  private func debounceScene() async {
    let keystrokes = ["s", "sw", "swi", "swif", "swift"]
    let found = FakeAPI.packages.filter { $0.hasPrefix("swift") }

    await scene(
      "Debounced search: typing \"swift\"; only the pause after the last key searches",
      view: DemoScreen.search
    ) {
      await type(keystrokes) { model.search($0) }
      let searches = await model.api.log.takeSearches()
      await note("searches that reached the server: \(searches)")
      expect(searches == ["swift"])
      expect(model.results == .loaded(found))

      await note(
        "again with a leading-edge Debouncer: the first key after a pause searches at once")
      model.clearSearch()
      await type(keystrokes) { model.search($0, leading: true) }
      let leadingSearches = await model.api.log.takeSearches()
      await note("searches that reached the server: \(leadingSearches)")
      expect(leadingSearches == ["s", "swift"])
      expect(model.results == .loaded(found))
    }
  }

  private func downloadsScene() async {
    await scene(
      "Downloads: \(model.downloads.count) loader objects share one ConcurrencyLimiter(limit: 2)",
      view: DemoScreen.downloads
    ) {
      await model.downloadAll()
      let peak = await model.api.log.downloadsPeak
      let ended = await model.api.log.downloadsEnded
      await note("the server saw at most \(peak) downloads at once")
      expect(peak <= model.downloadLimiter.limit)
      expect(ended == model.downloads.count)
      expect(model.downloads.allSatisfy { $0.state == .loaded($0.chunks) })
      expect(model.downloadLimiter.runningCount == 0 && model.downloadLimiter.waitingCount == 0)
    }
  }

  // MARK: - Shared state

  private func sharedStateScene() async {
    let feed = model.feedScreen
    let detail = model.detailScreen
    let server = model.posts.server
    await scene(
      "Shared state: the feed's row and the detail follow one entry of one LoaderStore",
      view: DemoScreen.sharedPosts
    ) {
      // Both screens open at once: the second to ask for ["posts", 1] joins the first's fetch.
      async let feedOpened: Void = feed.open()
      async let detailOpened: Void = detail.open()
      _ = await (feedOpened, detailOpened)
      let original = Post(id: 1, title: "Loadables 1.0 is out", likes: 12, isLiked: false)
      expect(detail.post == .loaded(original) && feed.rows.first?.post == detail.post)
      let opened = await server.requests
      await note("requests that reached the server: \(describe(opened))")
      expect(opened["GET /posts/1"] == 1)

      await note("like post 1; the edit shows at once on both screens, and the server refuses:")
      let refusedInDetail = record(detail.$post.states, count: 2)
      let refusedInRow = record(feed.rows[0].$post.states, count: 2)
      await detail.like().value
      let refused = [await refusedInDetail.value, await refusedInRow.value]
      await note("likes shown by the detail, then the row: \(describeLikes(refused))")
      expect(refused.allSatisfy { $0 == [.loaded(original.liked), .loaded(original)] })
      expect(
        (detail.liking.error as? APIError) == .likeRefused && feed.rows[0].post == .loaded(original)
      )

      await note("like it again; the server accepts, and every entry under [\"posts\"] refreshes")
      let acceptedInDetail = record(detail.$post.states, count: 2)
      let acceptedInRow = record(feed.rows[0].$post.states, count: 2)
      await detail.like().value
      expect(detail.liking.hasFinished && feed.entry.isRunning && detail.entry.isRunning)
      // Loading an entry while its fetch runs joins that fetch: wait for the refreshes.
      await feed.entry.load()
      await detail.entry.load()
      let accepted = [await acceptedInDetail.value, await acceptedInRow.value]
      await note("likes shown by the detail, then the row: \(describeLikes(accepted))")
      // The server counted another reader's like too: its answer replaces the guess.
      var truth = original.liked
      truth.likes += 1
      expect(accepted.allSatisfy { $0 == [.loaded(original.liked), .loaded(truth)] })
      expect(feed.rows[0].post == .loaded(truth) && detail.post == .loaded(truth))
      let requests = await server.requests
      await note("requests that reached the server: \(describe(requests))")
      expect(requests["GET /posts"] == 2 && requests["GET /posts/1"] == 2)
    }
  }

  // MARK: - News reader

  private func newsReaderScene() async {
    let reader = NewsReader(pace: pace)
    let view: @MainActor (DemoModel) -> String = { _ in DemoScreen.newsReader(reader) }
    await scene(
      "A news reader's data in one store: a paged feed two screens share, a detail that starts "
        + "from its row, prefetches behind the screen, a rename on both, a logout",
      view: view
    ) {
      await reader.play(
        note: { await note($0) },
        check: { condition, what in expect(condition, what) })
    }
  }

  // MARK: - Offline

  private func offlineScene() async {
    let world = OfflineWorld(pace: pace)
    defer { world.removeDirectory() }
    // Yesterday, online: the app fetched the feed, saved it, and was closed.
    let yesterday = Date().addingTimeInterval(-86_400)
    let before = world.launch(startDate: yesterday)
    await world.feed(in: before).load()
    await before.flushPersistence()

    // Today, on a train: the app launches offline.
    world.connectivity.update(isOnline: false)
    let store = world.launch()
    let feed = world.feed(in: store)
    let now = Date()
    let view: @MainActor (DemoModel) -> String = { _ in
      DemoScreen.offlineFeed(store, feed, now: now)
    }
    await scene(
      "Offline first: yesterday's feed at launch, edits that wait and say why, then sync in order",
      view: view
    ) {
      expect(feed.state.data?.count == 2 && feed.isStale)
      await note("rename an article: it shows at once, saved, waiting for the network:")
      store.edit(RenameArticle(id: 1, title: "Trains run on tme"))
      expect(feed.state.data?.first?.title == "Trains run on tme")
      expect(store.outbox.items.map(\.status) == [.waitingForNetwork])
      await note("fix the typo: the second rename waits behind the first, to be sent in order:")
      let first = store.outbox.items[0].id
      store.edit(RenameArticle(id: 1, title: "Trains run on time"))
      expect(feed.state.data?.first?.title == "Trains run on time")
      expect(store.outbox.items.map(\.status) == [.waitingForNetwork, .waitingBehind(first)])
      await note("pull to refresh while offline: the feed stays on screen, the fetch waits:")
      let refresh = Task { await feed.refresh() }
      await until { feed.isWaitingForNetwork }
      await note("the network comes back: the renames are sent, one after the other:")
      world.connectivity.update(isOnline: true)
      _ = await refresh.value
      await store.outbox.untilIdle()
      await feed.load()  // the edits invalidated the feed: its refresh carries the change
      await note("the server applied \(world.renames) renames, in order; the outbox is empty")
      expect(world.renames == 2 && store.outbox.pendingCount == 0)
      expect(feed.state.data?.first?.title == "Trains run on time")
    }
  }

  /// Waits, a turn at a time, until `condition` holds; stops the demo after five seconds.
  private func until(_ condition: () -> Bool, file: StaticString = #fileID, line: Int = #line)
    async
  {
    let deadline = ContinuousClock.now + .seconds(5)
    while !condition() {
      guard ContinuousClock.now < deadline else { return expect(false, file: file, line: line) }
      try? await Task.sleep(for: .milliseconds(1))
    }
  }

  /// `GET /posts ×1, GET /posts/1 ×1`.
  private func describe(_ requests: [String: Int]) -> String {
    requests.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }
      .joined(separator: ", ")
  }

  /// `♥ 13 → ♥ 12 | ♥ 13 → ♥ 12`: the likes in each screen's states, loaded ones only.
  private func describeLikes(_ screens: [[LoadableState<Post>]]) -> String {
    screens.map { states in
      states.map { $0.data.map { "♥ \($0.likes)" } ?? "\($0)" }.joined(separator: " → ")
    }.joined(separator: " | ")
  }

  // MARK: - Helpers

  /// Types `keystrokes` a short pause apart, each calling `search`, and returns once the
  /// last keystroke's search has ended.
  private func type(_ keystrokes: [String], search: (String) -> Task<Void, Never>) async {
    var last: Task<Void, Never>?
    for text in keystrokes {
      if last != nil { await wait(.milliseconds(100)) }
      last = search(text)
    }
    await last?.value
  }

  /// Every state written to a property from now until it is `.loaded`, in order, none
  /// merged away: what a view could have shown, frame by frame. Await it only once the
  /// state is known to be `.loaded`, or it waits for ever.
  private func record<Value>(_ states: StateStream<LoadableState<Value>>)
    -> Task<[LoadableState<Value>], Never>
  {
    Task {
      var written: [LoadableState<Value>] = []
      // The first element is the state at the time of subscribing, not a written one.
      for await state in states.dropFirst() {
        written.append(state)
        if state.isLoaded { break }
      }
      return written
    }
  }

  /// The next `count` states written to a property, in order: what a view could have shown.
  /// Await it only once that many states are known to have been written, or it waits for
  /// ever.
  private func record<Value>(_ states: StateStream<LoadableState<Value>>, count: Int)
    -> Task<[LoadableState<Value>], Never>
  {
    Task {
      var written: [LoadableState<Value>] = []
      // The first element is the state at the time of subscribing, not a written one.
      for await state in states.dropFirst() {
        written.append(state)
        if written.count == count { break }
      }
      return written
    }
  }

  /// `loading → error → loaded`.
  private func describe<Value>(_ states: [LoadableState<Value>]) -> String {
    states.map { state in
      switch state {
      case .absent: "absent"
      case .loading: "loading"
      case .error: "error"
      case .loaded: "loaded"
      }
    }.joined(separator: " → ")
  }

  /// Prints a heading, shows `view`, runs `actions`, then lets the last frame print and
  /// pauses a moment before the next scene.
  func scene(
    _ title: String,
    view: @escaping @MainActor (DemoModel) -> String,
    actions: () async -> Void
  ) async {
    print("\n== \(title)")
    let model = model
    screen.mount { view(model) }
    await actions()
    await screen.settle()
    await wait(.milliseconds(150))
  }

  /// Prints a line between frames, once the frames so far are on screen.
  func note(_ text: String) async {
    await screen.settle()
    print("     \(text)")
  }

  private func wait(_ delay: Duration) async {
    try? await Task.sleep(for: pace.scaled(delay))
  }

  /// Stops the demo with exit code 1, saying `what` was expected, if the library did not do
  /// what the scene shows.
  func expect(_ condition: Bool, _ what: String) {
    guard !condition else { return }
    FileHandle.standardError.write(Data("unexpected state: \(what)\n".utf8))
    exit(1)
  }

  /// Stops the demo with exit code 1 if the library did not do what the scene shows.
  func expect(_ condition: Bool, file: StaticString = #fileID, line: Int = #line) {
    guard !condition else { return }
    FileHandle.standardError.write(Data("unexpected state (\(file):\(line))\n".utf8))
    exit(1)
  }
}

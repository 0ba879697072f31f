import Loadables

// The shared-state scenarios: reading a fresh entry of a `LoaderStore`, and an optimistic
// edit whose job throws, rolled back; each against the hand-written store of
// SharedBaselines.swift doing the same.

/// What the edit scenario's optimistic write shows: the same array every time, so neither
/// side allocates a new one per edit.
let editedNumbers = [4, 5, 6]

/// The error the edit scenario's job throws.
struct EditRefused: Error {}

/// How long the read scenario's values stay fresh, and the stores keep unobserved entries:
/// longer than any run.
let benchmarkStaleTime = Duration.seconds(3600)

/// The read scenario's entry described once, as an app describes a kind of entry: its key is
/// built from the id at every read.
struct BenchPostQuery: LoadDefinition {
  let id: Int
  var key: LoadKey { ["posts", id] }
  var staleTime: Duration? { benchmarkStaleTime }
  func fetch() async throws -> [Int] { loaderNumbers }
}

/// The synced item of `shared.sync.detail`.
struct SyncedPost: Identifiable, Equatable, Sendable {
  var id: Int
  var title: String
}

/// How many rows the synced feed holds, and the row the detail refreshes.
let syncedFeedCount = 1_000
let syncedPostID = 500

/// The two titles the detail's fetch alternates between, made once so neither side builds a
/// string per fetch.
let syncedTitles = ["first title", "second title"]

@MainActor
let sharedScenarios: [Scenario] = [
  Scenario(
    name: "shared.sync.detail",
    unit: "detail refresh whose item shows in a 1,000-item feed (both observed)",
    library: { iterations in
      let store = LoaderStore(graceTime: benchmarkStaleTime)
      store.keepInSync(SyncedPost.self)
      let rows = (0..<syncedFeedCount).map { SyncedPost(id: $0, title: "row") }
      let feed = store.loader(for: ["feed"], staleTime: benchmarkStaleTime) { rows }
      var fetches = 0
      let detail = store.loader(for: ["posts", syncedPostID]) {
        fetches += 1
        return SyncedPost(id: syncedPostID, title: syncedTitles[fetches & 1])
      }
      await feed.load()
      await observing({
        _ = feed.state
        _ = detail.state
      }) {
        for _ in 0..<iterations { await detail.refresh() }
      }
      precondition(feed.state.data?[syncedPostID] == detail.state.data)
    },
    baseline: { iterations in
      let store = HandSyncStore()
      let feed = HandFeedBox(
        items: (0..<syncedFeedCount).map { HandPost(id: $0, title: "row") })
      store.feeds[.feed] = feed
      var fetches = 0
      let detail = HandDetailBox(store: store) {
        fetches += 1
        return HandPost(id: syncedPostID, title: syncedTitles[fetches & 1])
      }
      store.details[syncedPostID] = detail
      await observing({
        _ = feed.items
        _ = detail.post
      }) {
        for _ in 0..<iterations { await detail.refresh() }
      }
      precondition(feed.items[syncedPostID] == detail.post)
    }
  ),
  Scenario(
    name: "shared.read.fresh", unit: "read (look up the key, load a fresh value)",
    library: { iterations in
      let store = LoaderStore(graceTime: benchmarkStaleTime)
      let fetch: @MainActor () async throws -> [Int] = { loaderNumbers }
      await store.loader(for: ["posts", 1], staleTime: benchmarkStaleTime, fetch: fetch).load()
      for _ in 0..<iterations {
        let entry = store.loader(for: ["posts", 1], staleTime: benchmarkStaleTime, fetch: fetch)
        let state = await entry.load()
        precondition(state.isLoaded)
      }
    },
    baseline: { iterations in
      let store = HandSharedStore()
      let fetch: @MainActor () async throws -> [Int] = { loaderNumbers }
      await store.box(for: .post(1), staleTime: benchmarkStaleTime, fetch: fetch).load()
      for _ in 0..<iterations {
        let box = store.box(for: .post(1), staleTime: benchmarkStaleTime, fetch: fetch)
        let state = await box.load()
        precondition(state.isLoaded)
      }
    }
  ),
  Scenario(
    name: "shared.read.definition", unit: "read (a definition's key looked up, a fresh value)",
    library: { iterations in
      let store = LoaderStore(graceTime: benchmarkStaleTime)
      await store.loader(for: BenchPostQuery(id: 1)).load()
      for _ in 0..<iterations {
        let state = await store.loader(for: BenchPostQuery(id: 1)).load()
        precondition(state.isLoaded)
      }
    },
    baseline: { iterations in
      let store = HandSharedStore()
      let fetch: @MainActor () async throws -> [Int] = { loaderNumbers }
      await store.box(for: .post(1), staleTime: benchmarkStaleTime, fetch: fetch).load()
      for _ in 0..<iterations {
        let box = store.box(for: .post(1), staleTime: benchmarkStaleTime, fetch: fetch)
        let state = await box.load()
        precondition(state.isLoaded)
      }
    }
  ),
  Scenario(
    name: "shared.edit.rollback", unit: "optimistic edit, job throws, rolled back",
    library: { iterations in
      let store = LoaderStore(graceTime: benchmarkStaleTime)
      let entry = store.loader(for: ["posts", 1]) { loaderNumbers }
      await entry.load()
      await observing({ _ = entry.state }) {
        for _ in 0..<iterations {
          do {
            try await store.edit {
              $0.set(entry, to: editedNumbers)
            } perform: {
              throw EditRefused()
            }
          } catch {}
        }
      }
      precondition(entry.state == .loaded(loaderNumbers))
    },
    baseline: { iterations in
      let store = HandSharedStore()
      let box = store.box(for: .post(1), staleTime: .zero) { loaderNumbers }
      await box.load()
      await observing({ _ = box.state }) {
        for _ in 0..<iterations {
          do {
            try await box.edit(to: editedNumbers) { throw EditRefused() }
          } catch {}
        }
      }
      precondition(box.state.value == loaderNumbers)
    }
  ),
]

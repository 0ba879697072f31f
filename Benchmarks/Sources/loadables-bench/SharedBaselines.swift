import Observation

// The hand-written shared store the shared-state scenarios are measured against: what an
// engineer writes without the library — a dictionary of `@Observable` boxes keyed by their
// own key type, their own state enum, a fetch that callers join, a freshness check on the
// clock, and an optimistic write that is taken back unless something newer was written.
// Nothing of the library's is used here.

/// The engineer's own key type.
enum HandPostKey: Hashable {
  case feed
  case post(Int)
}

/// The engineer's own state enum.
enum HandFetchState {
  case idle
  case loading
  case loaded([Int])
  case failed(any Error)

  var isLoaded: Bool {
    if case .loaded = self { return true }
    return false
  }

  var value: [Int]? {
    if case .loaded(let value) = self { return value }
    return nil
  }
}

/// The store: one box per key, made on first use.
@MainActor
final class HandSharedStore {
  private var boxes: [HandPostKey: HandBox] = [:]

  nonisolated init() {}

  func box(
    for key: HandPostKey, staleTime: Duration,
    fetch: @escaping @MainActor () async throws -> [Int]
  ) -> HandBox {
    if let box = boxes[key] { return box }
    let box = HandBox(staleTime: staleTime, fetch: fetch)
    boxes[key] = box
    return box
  }
}

/// One shared entry: the state views observe, the running fetch that callers join, when the
/// value was written, and a write counter so a rollback never undoes a newer write. Not
/// generic, so its observed key paths are built once.
@MainActor @Observable
final class HandBox {
  private(set) var state: HandFetchState = .idle
  @ObservationIgnored private var task: Task<Void, Never>?
  @ObservationIgnored private var updatedAt: ContinuousClock.Instant?
  @ObservationIgnored private var writes: UInt64 = 0
  @ObservationIgnored private let staleTime: Duration
  @ObservationIgnored private let fetch: @MainActor () async throws -> [Int]

  init(staleTime: Duration, fetch: @escaping @MainActor () async throws -> [Int]) {
    self.staleTime = staleTime
    self.fetch = fetch
  }

  /// Joins a running fetch; returns a fresh value as it is; otherwise fetches (silently when
  /// there is a value to keep).
  @discardableResult
  func load() async -> HandFetchState {
    if let task {
      await task.value
      return state
    }
    if state.isLoaded, let updatedAt, updatedAt.duration(to: .now) < staleTime {
      return state
    }
    if !state.isLoaded { write(.loading) }
    let task = Task { [weak self] in
      guard let self else { return }
      do {
        let value = try await self.fetch()
        self.write(.loaded(value))
        self.updatedAt = .now
      } catch {
        self.write(.failed(error))
      }
      self.task = nil
    }
    self.task = task
    await task.value
    return state
  }

  /// Shows `value` at once, runs `job`, and takes the value back if `job` throws, unless
  /// something newer was written meanwhile.
  func edit(to value: [Int], _ job: () async throws -> Void) async throws {
    task?.cancel()  // an older fetch must not land over the edit
    task = nil
    let before = state
    write(.loaded(value))
    let mark = writes
    do {
      try await job()
    } catch {
      if writes == mark { write(before) }
      throw error
    }
  }

  private func write(_ new: HandFetchState) {
    state = new
    writes &+= 1
  }
}

// The hand-written side of `shared.sync.detail`: the app keeps its feed and its detail in
// its own `@Observable` boxes, and after the detail's fetch it patches the feed's row by
// hand (find the row by id, replace it if it changed).

/// The app's own item type.
struct HandPost: Equatable, Sendable {
  var id: Int
  var title: String
}

/// The feed: its rows, observed.
@MainActor @Observable
final class HandFeedBox {
  var items: [HandPost]
  init(items: [HandPost]) { self.items = items }
}

/// A detail: its post, observed, refreshed in a task; its fetch patches every feed holding
/// the post.
@MainActor @Observable
final class HandDetailBox {
  private(set) var post: HandPost?
  @ObservationIgnored private var task: Task<Void, Never>?
  @ObservationIgnored private let fetch: @MainActor () async throws -> HandPost
  @ObservationIgnored private unowned let store: HandSyncStore

  init(store: HandSyncStore, fetch: @escaping @MainActor () async throws -> HandPost) {
    self.store = store
    self.fetch = fetch
  }

  /// Fetches now, superseding a running fetch, and patches the feeds.
  func refresh() async {
    task?.cancel()
    let task = Task { [weak self] in
      guard let self else { return }
      guard let post = try? await self.fetch(), !Task.isCancelled else { return }
      self.post = post
      self.store.patch(post)
    }
    self.task = task
    await task.value
  }
}

/// The app's dictionary of boxes.
@MainActor
final class HandSyncStore {
  var feeds: [HandPostKey: HandFeedBox] = [:]
  var details: [Int: HandDetailBox] = [:]

  nonisolated init() {}

  /// Shows `post` in every feed holding it.
  func patch(_ post: HandPost) {
    for feed in feeds.values {
      guard let index = feed.items.firstIndex(where: { $0.id == post.id }),
        feed.items[index] != post
      else { continue }
      feed.items[index] = post
    }
  }
}

import Foundation
import Loadables
import Observation

// Hand-written code that does the library's job, the way a careful engineer writes it by
// hand: cancel the previous task, write `.loading` unless already loading, check
// cancellation before every write. These are the baselines every ratio is taken against.

/// The hand-written equivalent of `@Loadable` in an `@Observable` class.
@MainActor @Observable
final class HandObservableModel {
  var value: LoadableState<Int> = .absent
  @ObservationIgnored private var task: Task<Void, Never>?

  nonisolated init() {}

  /// Cancel, then start a new task; the task checks cancellation before it writes.
  @discardableResult
  func load(silently: Bool = false, _ block: @escaping @MainActor () async throws -> Int)
    -> Task<Void, Never>
  {
    task?.cancel()
    if !silently, !value.isLoading { value = .loading }
    let task = Task { [weak self] in
      do {
        let result = try await block()
        guard !Task.isCancelled, let self else { return }
        self.value = .loaded(result)
      } catch {
        guard !Task.isCancelled, let self else { return }
        self.value = .error(error)
      }
    }
    self.task = task
    return task
  }

  /// The same load run inline in the caller's task, with no new `Task`.
  func loadInline(silently: Bool = false, _ block: @MainActor () async throws -> Int) async {
    if !silently, !value.isLoading { value = .loading }
    do {
      let result = try await block()
      if !Task.isCancelled { value = .loaded(result) }
    } catch {
      if !Task.isCancelled { value = .error(error) }
    }
  }

  /// Writes `count` states in one inline load, dropping them once the task is cancelled.
  func yieldInline(count: Int) async {
    if !value.isLoading { value = .loading }
    for index in 0..<count {
      if Task.isCancelled { return }
      value = .loaded(index)
    }
  }
}

/// The hand-written equivalent of `LoadableSupport` on a plain class.
@MainActor
final class HandPlainModel {
  var value: LoadableState<Int> = .absent
  private var task: Task<Void, Never>?

  nonisolated init() {}

  @discardableResult
  func load(_ block: @escaping @MainActor () async throws -> Int) -> Task<Void, Never> {
    task?.cancel()
    if !value.isLoading { value = .loading }
    let task = Task { [weak self] in
      do {
        let result = try await block()
        guard !Task.isCancelled, let self else { return }
        self.value = .loaded(result)
      } catch {
        guard !Task.isCancelled, let self else { return }
        self.value = .error(error)
      }
    }
    self.task = task
    return task
  }

  func loadInline(_ block: @MainActor () async throws -> Int) async {
    if !value.isLoading { value = .loading }
    do {
      let result = try await block()
      if !Task.isCancelled { value = .loaded(result) }
    } catch {
      if !Task.isCancelled { value = .error(error) }
    }
  }
}

// The library's forms, holding the same state.

/// `@Loadable` in an `@Observable` class, as the README shows it.
@MainActor @Observable
final class WrapperModel {
  @ObservationIgnored @Loadable var value: LoadableState<Int>

  nonisolated init() {}
}

/// `LoadableSupport` on a plain class.
@MainActor
final class KeyPathModel: LoadableSupport {
  var value: LoadableState<Int> = .absent

  nonisolated init() {}
}

// MARK: - Loader objects

/// What the loader scenarios' fetch returns: the same array every time, so neither side
/// allocates a new one per load.
let loaderNumbers = [1, 2, 3]

/// The library's loader object: a `BaseLoader` subclass whose fetch returns at once.
final class NumbersLoader: BaseLoader<[Int]> {
  override func fetch() async throws -> [Int] { loaderNumbers }
}

/// The hand-written equivalent of a loader object: an `@Observable` `@MainActor` class (not
/// generic, so its observed key paths are built once) holding the state and the task it
/// cancels and replaces on each load; a generation check before every write; `load()`
/// awaits the task, and cancelling the caller cancels it.
@MainActor @Observable
final class HandLoader {
  private(set) var state: LoadableState<[Int]> = .absent
  @ObservationIgnored private var task: Task<Void, Never>?
  @ObservationIgnored private var generation: UInt64 = 0

  nonisolated init() {}

  func fetch() async throws -> [Int] { loaderNumbers }

  @discardableResult
  func load() async -> LoadableState<[Int]> {
    task?.cancel()
    generation &+= 1
    let generation = generation
    if !state.isLoading { state = .loading }
    let task = Task { [weak self] in
      guard let self else { return }
      do {
        let value = try await self.fetch()
        guard generation == self.generation, !Task.isCancelled else { return }
        self.state = .loaded(value)
      } catch {
        guard generation == self.generation, !Task.isCancelled else { return }
        self.state = .error(error)
      }
    }
    self.task = task
    await withTaskCancellationHandler {
      await task.value
    } onCancel: {
      task.cancel()
    }
    return state
  }
}

// MARK: - Policies

/// A hand-written retry loop: up to `maxAttempts` attempts, an exponential backoff with full
/// jitter between them (1 s doubling, capped at 30 s), never retrying cancellation.
@MainActor
func retrying<T>(
  maxAttempts: Int,
  _ operation: @MainActor () async throws -> T
) async throws -> T {
  var attempt = 1
  while true {
    do {
      return try await operation()
    } catch {
      guard attempt < maxAttempts, !Task.isCancelled, !(error is CancellationError) else {
        throw error
      }
      let cap = min(Double(1 << (attempt - 1)), 30)
      try await Task.sleep(for: .seconds(Double.random(in: 0...cap)))
      attempt += 1
    }
  }
}

/// A hand-written async semaphore: a lock, a count of free permits and a first-in,
/// first-out line of waiters; usable from any actor, and run on the caller's actor, so an
/// uncontended permit costs two locked updates and no hop.
final class HandSemaphore: @unchecked Sendable {
  // Safe to share: `available` and `waiters` are read and written only while holding `lock`,
  // and each continuation is resumed exactly once, outside it.
  private let lock = NSLock()
  private var available: Int
  private var waiters: [CheckedContinuation<Void, Never>] = []

  init(limit: Int) { available = limit }

  func withPermit<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> T
  ) async rethrows -> T {
    await wait(isolation: isolation)
    defer { signal() }
    return try await operation()
  }

  private func wait(isolation: isolated (any Actor)?) async {
    let acquired = lock.withLock {
      guard available > 0 else { return false }
      available -= 1
      return true
    }
    if acquired { return }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let acquiredNow = lock.withLock {
        guard available > 0 else {
          waiters.append(continuation)
          return false
        }
        available -= 1
        return true
      }
      if acquiredNow { continuation.resume() }
    }
  }

  private func signal() {
    let next: CheckedContinuation<Void, Never>? = lock.withLock {
      guard !waiters.isEmpty else {
        available += 1
        return nil
      }
      return waiters.removeFirst()
    }
    next?.resume()
  }
}

// MARK: - Paging

/// The items per page in `paging.next`.
let pageSize = 20

/// `@Paged` in an `@Observable` class.
@MainActor @Observable
final class PagedModel {
  @ObservationIgnored @Paged var feed: PagedState<Int, Int>

  nonisolated init() {}
}

/// A list that pages, written by hand with the engineer's own types: the items, the next
/// cursor, the footer's phase, and a generation so that a superseded fetch never writes.
@MainActor @Observable
final class HandPagedFeed {
  enum NextPhase {
    case idle
    case loading
    case failed(any Error)
    case end
  }

  private(set) var items: [Int] = []
  private(set) var nextPhase = NextPhase.idle
  @ObservationIgnored private var nextCursor: Int?
  @ObservationIgnored private var generation = 0

  nonisolated init() {}

  /// Replaces the list (a refresh's first page), superseding a fetch in flight.
  func replace(items: [Int], nextCursor: Int?) {
    generation += 1
    self.items = items
    self.nextCursor = nextCursor
    nextPhase = nextCursor == nil ? .end : .idle
  }

  /// Fetches and appends the next page, unless one is loading or the list has ended.
  func loadNextPage(_ fetch: @MainActor (Int) async throws -> ([Int], Int?)) async {
    if case .loading = nextPhase { return }
    guard let cursor = nextCursor else { return }
    let current = generation
    nextPhase = .loading
    do {
      let (page, next) = try await fetch(cursor)
      guard current == generation, !Task.isCancelled else { return }
      items += page
      nextCursor = next
      nextPhase = next == nil ? .end : .idle
    } catch {
      guard current == generation, !Task.isCancelled else { return }
      nextPhase = .failed(error)
    }
  }
}

import Foundation
import Loadables
import Observation

// Hand-written code that does the library's job, the way a careful engineer writes it
// without the library: their own state enum, their own task handle, in this module; nothing
// of the library's inside. These are the baselines every ratio is taken against. (The one
// exception, `SameStateModel`, holds the library's `LoadableState` and is reported only as
// extra information.)

/// The state enum an engineer writes for a screen that loads one value. `Equatable` (with
/// errors never equal, since `any Error` is not `Equatable`), so an `@Observable` setter
/// compares old and new values as it does for `LoadableState`.
enum HandState<Value> {
  case absent
  case loading
  case error(any Error)
  case loaded(Value)

  var isLoading: Bool {
    if case .loading = self { return true }
    return false
  }
}

extension HandState: Sendable where Value: Sendable {}

extension HandState: Equatable where Value: Equatable {
  static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.absent, .absent), (.loading, .loading): true
    case (.loaded(let l), .loaded(let r)): l == r
    default: false
    }
  }
}

/// The state enum an engineer writes for a job (save, delete) that runs one at a time.
enum HandJobState<Kind> {
  case idle
  case running(Kind)
  case failed(Kind, any Error)
  case finished(Kind)
}

extension HandJobState: Equatable where Kind: Equatable {
  static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.idle, .idle): true
    case (.running(let l), .running(let r)), (.finished(let l), .finished(let r)): l == r
    default: false
    }
  }
}

/// The job kind of the state-write scenario.
enum Job: Equatable, Sendable {
  case save
  case delete
}

/// The hand-written equivalent of `@Loadable` in an `@Observable` class.
@MainActor @Observable
final class HandObservableModel {
  var value: HandState<Int> = .absent
  @ObservationIgnored private var task: Task<Void, Never>?
  @ObservationIgnored private var child: UnsafeCurrentTask?
  @ObservationIgnored private var generation: UInt64 = 0

  nonisolated init() {}

  /// Cancel, then start a new task; the task checks cancellation before it writes.
  @discardableResult
  func load(silently: Bool = false, _ block: @escaping @MainActor () async throws -> Int)
    -> Task<Void, Never>
  {
    stopCurrent()
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

  /// An awaited load with the library's guarantee: the block runs in a child task of the
  /// caller's, registered here, so a newer load (or `cancel()`) cancels that child and never
  /// the caller; cancelling the caller cancels the child.
  func loadAwaited(silently: Bool = false, _ block: @MainActor () async throws -> Int) async {
    stopCurrent()
    let generation = generation
    if !silently, !value.isLoading { value = .loading }
    async let child: Void = runChild(generation, block)
    await child
  }

  private func runChild(_ generation: UInt64, _ block: @MainActor () async throws -> Int) async {
    guard generation == self.generation else { return }
    withUnsafeCurrentTask { child = $0 }
    // The child may be held only while it runs: drop it before returning.
    defer { if generation == self.generation { child = nil } }
    do {
      let result = try await block()
      guard generation == self.generation, !Task.isCancelled else { return }
      value = .loaded(result)
    } catch {
      guard generation == self.generation, !Task.isCancelled else { return }
      value = .error(error)
    }
  }

  /// Stops the current load, Task or awaited.
  func cancel() { stopCurrent() }

  private func stopCurrent() {
    generation &+= 1
    task?.cancel()
    task = nil
    child?.cancel()
    child = nil
  }

  /// The same load run inline in the caller's task, with no new task: no way for a newer
  /// load to stop it without cancelling the caller. Reported beside the awaited rows.
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

/// `HandObservableModel` holding the library's `LoadableState` instead of its own enum: the
/// "same state type" figure, extra information only.
@MainActor @Observable
final class SameStateModel {
  var value: LoadableState<Int> = .absent
  @ObservationIgnored private var task: Task<Void, Never>?
  @ObservationIgnored private var child: UnsafeCurrentTask?
  @ObservationIgnored private var generation: UInt64 = 0

  nonisolated init() {}

  @discardableResult
  func load(_ block: @escaping @MainActor () async throws -> Int) -> Task<Void, Never> {
    stopCurrent()
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

  func loadAwaited(_ block: @MainActor () async throws -> Int) async {
    stopCurrent()
    let generation = generation
    if !value.isLoading { value = .loading }
    async let child: Void = runChild(generation, block)
    await child
  }

  private func runChild(_ generation: UInt64, _ block: @MainActor () async throws -> Int) async {
    guard generation == self.generation else { return }
    withUnsafeCurrentTask { child = $0 }
    defer { if generation == self.generation { child = nil } }
    do {
      let result = try await block()
      guard generation == self.generation, !Task.isCancelled else { return }
      value = .loaded(result)
    } catch {
      guard generation == self.generation, !Task.isCancelled else { return }
      value = .error(error)
    }
  }

  private func stopCurrent() {
    generation &+= 1
    task?.cancel()
    task = nil
    child?.cancel()
    child = nil
  }
}

/// The hand-written equivalent of `LoadableSupport` on a plain class, writing its property
/// directly (what the key-path forms are also compared with, as extra information).
@MainActor
final class HandPlainModel {
  var value: HandState<Int> = .absent
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

/// The hand-written key-path baseline, with the key-path forms' guarantees: a plain class
/// that loads into a property named by a `ReferenceWritableKeyPath`, writing (and reading)
/// through that key path as the library must; every load holds the owner weakly (a running
/// load never keeps it alive, and a load whose owner is gone writes nothing), and checks a
/// generation before each write, so a superseded load never writes, a yield included. One
/// task handle and one generation per instance: the cheapest bookkeeping that gives those
/// guarantees for one key path (a table keyed by key path, as a helper for any key path
/// needs, would cost more).
///
/// Holding an object weakly gives it a side table, and from then on every retain and release
/// of it takes the runtime's slow path, here as in the library.
@MainActor
final class HandKeyPathModel {
  typealias Path = ReferenceWritableKeyPath<HandKeyPathModel, HandState<Int>>

  /// How a running load refers to its owner.
  struct Owner {
    weak var model: HandKeyPathModel?
  }

  var value: HandState<Int> = .absent
  private var task: Task<Void, Never>?
  private var child: UnsafeCurrentTask?
  private var generation: UInt64 = 0

  nonisolated init() {}

  /// The key path the running load writes to (a key path to a main-actor property is not
  /// `Sendable`, so its task reads it from here rather than capturing it).
  private var taskPath: Path?

  @discardableResult @inline(never)
  func load(_ keyPath: Path, _ block: @escaping @MainActor () async throws -> Int)
    -> Task<Void, Never>
  {
    let generation = start(keyPath)
    let task = Task { [weak self] in
      do {
        let result = try await block()
        self?.complete(generation, .loaded(result))
      } catch {
        self?.complete(generation, .error(error))
      }
    }
    self.task = task
    return task
  }

  private func complete(_ generation: UInt64, _ state: HandState<Int>) {
    guard generation == self.generation, !Task.isCancelled, let taskPath else { return }
    task = nil
    self[keyPath: taskPath] = state
  }

  /// An awaited load in a registered child task, as `HandObservableModel.loadAwaited`; the
  /// child holds the owner weakly.
  @inline(never)
  func loadAwaited(_ keyPath: Path, _ block: @MainActor () async throws -> Int) async {
    let generation = start(keyPath)
    async let child: Void = Self.runChild(Owner(model: self), generation, block)
    await child
  }

  private static func runChild(
    _ owner: Owner, _ generation: UInt64, _ block: @MainActor () async throws -> Int
  ) async {
    guard let model = owner.model, generation == model.generation else { return }
    withUnsafeCurrentTask { model.child = $0 }
    let state: HandState<Int>
    do {
      state = .loaded(try await block())
    } catch {
      state = .error(error)
    }
    guard let model = owner.model, generation == model.generation else { return }
    // The child may be held only while it runs: drop it before returning.
    model.child = nil
    guard !Task.isCancelled, let keyPath = model.taskPath else { return }
    model[keyPath: keyPath] = state
  }

  /// The same awaited load inline in the caller's task: no child task, so nothing can stop
  /// it but cancelling the caller, and no weak reference. Extra information.
  @inline(never)
  func loadInline(_ keyPath: Path, _ block: @MainActor () async throws -> Int) async {
    if !self[keyPath: keyPath].isLoading { self[keyPath: keyPath] = .loading }
    do {
      let result = try await block()
      if !Task.isCancelled { self[keyPath: keyPath] = .loaded(result) }
    } catch {
      if !Task.isCancelled { self[keyPath: keyPath] = .error(error) }
    }
  }

  /// One load that writes `count` states through the key path, each only while the load is
  /// current, its task uncancelled and its owner (held weakly) alive.
  @inline(never)
  func yieldInline(_ keyPath: Path, count: Int) async {
    let generation = start(keyPath)
    let owner = Owner(model: self)
    for index in 0..<count {
      guard let model = owner.model, generation == model.generation, !Task.isCancelled
      else { return }
      model[keyPath: keyPath] = .loaded(index)
    }
  }

  /// Supersedes the current load, writes `.loading` and returns the new load's generation.
  private func start(_ keyPath: Path) -> UInt64 {
    stopCurrent()
    taskPath = keyPath
    if !self[keyPath: keyPath].isLoading { self[keyPath: keyPath] = .loading }
    return generation
  }

  private func stopCurrent() {
    generation &+= 1
    task?.cancel()
    task = nil
    child?.cancel()
    child = nil
  }
}

// The library's forms, holding the same state.

/// `@Loadable` in an `@Observable` class, as the README shows it.
@MainActor @Observable
final class WrapperModel {
  @ObservationIgnored @Loadable var value: LoadableState<Int>

  nonisolated init() {}

  /// A model whose state has been read once, as a view reads it. A wrapper makes its
  /// observation registrar on the first read, and an unread one writes its state without
  /// notifying anyone (nobody can observe it); a hand-written `@Observable` class always has
  /// its registrar. The scenarios compare the two in the state an app has them in.
  static func shown() -> WrapperModel {
    let model = WrapperModel()
    _ = model.value
    return model
  }
}

/// `LoadableSupport` on a plain class.
@MainActor
final class KeyPathModel: LoadableSupport {
  var value: LoadableState<Int> = .absent

  nonisolated init() {}
}

// MARK: - State writes

/// A user's `@Observable` class storing the library's `LoadableState` and `ProcessState`:
/// each write compares the old and new values (Swift 6.2's `@Observable` setter does, for an
/// `Equatable` type), calling their `==` from this module.
@MainActor @Observable
final class LibraryStateHolder {
  var state: LoadableState<Int> = .absent
  var job: ProcessState<Job> = .idle

  nonisolated init() {}
}

/// The same class storing the user's own enums.
@MainActor @Observable
final class HandStateHolder {
  var state: HandState<Int> = .absent
  var job: HandJobState<Job> = .idle

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
/// generic, so its observed key paths are built once) holding its own state enum and the
/// task it cancels and replaces on each load; a generation check before every write;
/// `load()` awaits the task, and cancelling the caller cancels it.
@MainActor @Observable
final class HandLoader {
  private(set) var state: HandState<[Int]> = .absent
  @ObservationIgnored private var task: Task<Void, Never>?
  @ObservationIgnored private var generation: UInt64 = 0

  nonisolated init() {}

  func fetch() async throws -> [Int] { loaderNumbers }

  @discardableResult
  func load() async -> HandState<[Int]> {
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

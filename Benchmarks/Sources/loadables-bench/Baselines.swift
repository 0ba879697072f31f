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

@testable import Loadables

/// How one load of the model test is started.
struct LoadSpec: Sendable {
  /// The `async` overload, run in a caller task of its own; otherwise the `Task`-returning one.
  var awaited: Bool
  /// The caller task is cancelled before it calls `load` (awaited loads only).
  var cancelledCaller: Bool
  var yielding: Bool
  var silently: Bool
  /// The job kind of a process.
  var kind: Int
}

/// One public form of the library, driven by the model test through its public API only.
@MainActor
protocol ModelForm {
  associatedtype Owner: AnyObject

  nonisolated static var name: String { get }
  nonisolated static var isProcess: Bool { get }
  nonisolated static var isKeyPath: Bool { get }

  static func makeOwner(_ initial: ModelState) -> Owner
  /// The owner's state, or `nil` when it holds something the model never writes.
  static func state(of owner: Owner) -> ModelState?
  static func isRunning(_ owner: Owner) -> Bool
  /// How many times the state has been written (observers woken, for a wrapper).
  static func writes(_ owner: Owner) -> Int
  /// Whether the key-path slot table holds a slot for the owner's state (key-path forms).
  static func hasSlot(_ owner: Owner) -> Bool

  /// Starts a load whose block is `script`. Returns the load's task, or for an awaited load
  /// the caller task it runs in.
  static func start(_ spec: LoadSpec, on owner: Owner, script: LoadScript) -> Task<Void, Never>
  static func cancel(_ owner: Owner)
  static func reset(_ owner: Owner)
  static func assign(_ state: ModelState, to owner: Owner)
}

// MARK: - @Loadable

@MainActor
final class ModelLoadableOwner {
  @Loadable var state: LoadableState<Int>
  private var counter: ChangeCounter?

  init(_ initial: LoadableState<Int>) {
    _state = Loadable(wrappedValue: initial)
    counter = ChangeCounter { [weak self] in _ = self?.state }
  }

  var writes: Int { counter?.count ?? 0 }
}

enum LoadableWrapperForm: ModelForm {
  nonisolated static let name = "@Loadable"
  nonisolated static let isProcess = false
  nonisolated static let isKeyPath = false

  static func makeOwner(_ initial: ModelState) -> ModelLoadableOwner {
    ModelLoadableOwner(initial.loadable)
  }
  static func state(of owner: ModelLoadableOwner) -> ModelState? { ModelState(owner.state) }
  static func isRunning(_ owner: ModelLoadableOwner) -> Bool { owner.$state.isRunning }
  static func writes(_ owner: ModelLoadableOwner) -> Int { owner.writes }
  static func hasSlot(_ owner: ModelLoadableOwner) -> Bool { false }
  static func cancel(_ owner: ModelLoadableOwner) { owner.$state.cancel() }
  static func reset(_ owner: ModelLoadableOwner) { owner.$state.reset() }
  static func assign(_ state: ModelState, to owner: ModelLoadableOwner) {
    owner.state = state.loadable
  }

  static func start(
    _ spec: LoadSpec, on owner: ModelLoadableOwner, script: LoadScript
  ) -> Task<Void, Never> {
    guard spec.awaited else {
      if spec.yielding {
        return owner.$state.load(silently: spec.silently) { yield in
          try await script.yielding { yield($0.loadable) }
        }
      }
      return owner.$state.load(silently: spec.silently) { try await script.returning() }
    }
    // The caller holds the owner weakly, as a view's `.task` does not own its model.
    return Task { [weak owner] in
      if spec.cancelledCaller { withUnsafeCurrentTask { $0?.cancel() } }
      if spec.yielding {
        await owner?.$state.load(silently: spec.silently) { yield in
          try await script.yielding { yield($0.loadable) }
        }
      } else {
        await owner?.$state.load(silently: spec.silently) { try await script.returning() }
      }
      script.record(.callerReturned)
    }
  }
}

// MARK: - LoadableSupport

@MainActor
final class ModelLoadableSupportOwner: LoadableSupport {
  var state: LoadableState<Int> { didSet { writes += 1 } }
  private(set) var writes = 0

  init(_ initial: LoadableState<Int>) { state = initial }
}

enum LoadableSupportForm: ModelForm {
  nonisolated static let name = "LoadableSupport"
  nonisolated static let isProcess = false
  nonisolated static let isKeyPath = true

  static func makeOwner(_ initial: ModelState) -> ModelLoadableSupportOwner {
    ModelLoadableSupportOwner(initial.loadable)
  }
  static func state(of owner: ModelLoadableSupportOwner) -> ModelState? {
    ModelState(owner.state)
  }
  static func isRunning(_ owner: ModelLoadableSupportOwner) -> Bool {
    owner.handle(\.state).isRunning
  }
  static func writes(_ owner: ModelLoadableSupportOwner) -> Int { owner.writes }
  static func hasSlot(_ owner: ModelLoadableSupportOwner) -> Bool {
    SlotRegistry.existingSlot(owner, \.state) != nil
  }
  static func cancel(_ owner: ModelLoadableSupportOwner) { owner.cancel(\.state) }
  static func reset(_ owner: ModelLoadableSupportOwner) { owner.reset(\.state) }
  static func assign(_ state: ModelState, to owner: ModelLoadableSupportOwner) {
    owner.state = state.loadable
  }

  static func start(
    _ spec: LoadSpec, on owner: ModelLoadableSupportOwner, script: LoadScript
  ) -> Task<Void, Never> {
    guard spec.awaited else {
      if spec.yielding {
        return owner.load(\.state, silently: spec.silently) { yield in
          try await script.yielding { yield($0.loadable) }
        }
      }
      return owner.load(\.state, silently: spec.silently) { try await script.returning() }
    }
    return Task { [weak owner] in
      if spec.cancelledCaller { withUnsafeCurrentTask { $0?.cancel() } }
      if spec.yielding {
        await owner?.load(\.state, silently: spec.silently) { yield in
          try await script.yielding { yield($0.loadable) }
        }
      } else {
        await owner?.load(\.state, silently: spec.silently) { try await script.returning() }
      }
      script.record(.callerReturned)
    }
  }
}

// MARK: - @LoadableProcess

@MainActor
final class ModelProcessOwner {
  @LoadableProcess var state: ProcessState<Int>
  private var counter: ChangeCounter?

  init(_ initial: ProcessState<Int>) {
    _state = LoadableProcess(wrappedValue: initial)
    counter = ChangeCounter { [weak self] in _ = self?.state }
  }

  var writes: Int { counter?.count ?? 0 }
}

enum ProcessWrapperForm: ModelForm {
  nonisolated static let name = "@LoadableProcess"
  nonisolated static let isProcess = true
  nonisolated static let isKeyPath = false

  static func makeOwner(_ initial: ModelState) -> ModelProcessOwner {
    ModelProcessOwner(initial.process)
  }
  static func state(of owner: ModelProcessOwner) -> ModelState? { ModelState(owner.state) }
  static func isRunning(_ owner: ModelProcessOwner) -> Bool { owner.$state.isRunning }
  static func writes(_ owner: ModelProcessOwner) -> Int { owner.writes }
  static func hasSlot(_ owner: ModelProcessOwner) -> Bool { false }
  static func cancel(_ owner: ModelProcessOwner) { owner.$state.cancel() }
  static func reset(_ owner: ModelProcessOwner) { owner.$state.reset() }
  static func assign(_ state: ModelState, to owner: ModelProcessOwner) {
    owner.state = state.process
  }

  static func start(
    _ spec: LoadSpec, on owner: ModelProcessOwner, script: LoadScript
  ) -> Task<Void, Never> {
    guard spec.awaited else {
      return owner.$state.run(spec.kind, silently: spec.silently) {
        _ = try await script.returning()
      }
    }
    return Task { [weak owner] in
      if spec.cancelledCaller { withUnsafeCurrentTask { $0?.cancel() } }
      await owner?.$state.run(spec.kind, silently: spec.silently) {
        _ = try await script.returning()
      }
      script.record(.callerReturned)
    }
  }
}

// MARK: - ProcessSupport

@MainActor
final class ModelProcessSupportOwner: ProcessSupport {
  var state: ProcessState<Int> { didSet { writes += 1 } }
  private(set) var writes = 0

  init(_ initial: ProcessState<Int>) { state = initial }
}

enum ProcessSupportForm: ModelForm {
  nonisolated static let name = "ProcessSupport"
  nonisolated static let isProcess = true
  nonisolated static let isKeyPath = true

  static func makeOwner(_ initial: ModelState) -> ModelProcessSupportOwner {
    ModelProcessSupportOwner(initial.process)
  }
  static func state(of owner: ModelProcessSupportOwner) -> ModelState? {
    ModelState(owner.state)
  }
  static func isRunning(_ owner: ModelProcessSupportOwner) -> Bool { owner.handle(\.state).isRunning }
  static func writes(_ owner: ModelProcessSupportOwner) -> Int { owner.writes }
  static func hasSlot(_ owner: ModelProcessSupportOwner) -> Bool {
    SlotRegistry.existingSlot(owner, \.state) != nil
  }
  static func cancel(_ owner: ModelProcessSupportOwner) { owner.cancel(\.state) }
  static func reset(_ owner: ModelProcessSupportOwner) { owner.reset(\.state) }
  static func assign(_ state: ModelState, to owner: ModelProcessSupportOwner) {
    owner.state = state.process
  }

  static func start(
    _ spec: LoadSpec, on owner: ModelProcessSupportOwner, script: LoadScript
  ) -> Task<Void, Never> {
    guard spec.awaited else {
      return owner.run(\.state, as: spec.kind, silently: spec.silently) {
        _ = try await script.returning()
      }
    }
    return Task { [weak owner] in
      if spec.cancelledCaller { withUnsafeCurrentTask { $0?.cancel() } }
      await owner?.run(\.state, as: spec.kind, silently: spec.silently) {
        _ = try await script.returning()
      }
      script.record(.callerReturned)
    }
  }
}

// MARK: - Conversions

extension ModelState {
  var loadable: LoadableState<Int> {
    switch self {
    case .absent: .absent
    case .loading: .loading
    case .loaded(let value): .loaded(value)
    case .error(let error): .error(error.thrown)
    case .idle, .running, .finished, .failed: preconditionFailure("\(self) is a process state")
    }
  }

  var process: ProcessState<Int> {
    switch self {
    case .idle: .idle
    case .running(let kind): .running(kind)
    case .finished(let kind): .finished(kind)
    case .failed(let kind, let error): .failed(process: kind, error: error.thrown)
    case .absent, .loading, .loaded, .error: preconditionFailure("\(self) is a loadable state")
    }
  }

  init?(_ state: LoadableState<Int>) {
    switch state {
    case .absent: self = .absent
    case .loading: self = .loading
    case .loaded(let value): self = .loaded(value)
    case .error(let error):
      guard let error = ModelError(error) else { return nil }
      self = .error(error)
    }
  }

  init?(_ state: ProcessState<Int>) {
    switch state {
    case .idle: self = .idle
    case .running(let kind): self = .running(kind)
    case .finished(let kind): self = .finished(kind)
    case .failed(let kind, let error):
      guard let error = ModelError(error) else { return nil }
      self = .failed(kind, error)
    }
  }
}

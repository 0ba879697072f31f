import Loadables
import LoadablesTesting
import XCTest

/// One composed policy run through every form, each observed the way a view observes it:
/// its `states` stream, its `progress` and its `attempt`. Every form must show the same
/// states in the same order, the attempt while the retry waits and runs, and the progress
/// the block reports.
@MainActor
final class PolicyFormsTests: XCTestCase {
  enum Job: Equatable, Sendable { case sync }

  @MainActor final class Feed: LoadableSupport, ProcessSupport {
    var numbers: LoadableState<Int> = .absent
    var job: ProcessState<Job> = .idle
  }

  private static let loadableStates: [LoadableState<Int>] = [
    .absent, .loading, .error(TestError(code: 1)), .loading, .loaded(7),
  ]
  private static let processStates: [ProcessState<Job>] = [
    .idle, .running(.sync), .failed(process: .sync, error: TestError(code: 1)), .running(.sync),
    .finished(.sync),
  ]

  func testTheLoadableWrapperStartingATask() async throws {
    let numbers = Loadable<Int>()
    try await exercise(output: 7, expected: Self.loadableStates) { policy, block in
      Face(
        start: { numbers.projectedValue.load(policy: policy, block: block) },
        binding: numbers.projectedValue)
    }
  }

  func testTheLoadableWrapperAwaited() async throws {
    let numbers = Loadable<Int>()
    try await exercise(output: 7, expected: Self.loadableStates) { policy, block in
      Face(
        start: { Task { await numbers.projectedValue.load(policy: policy, block: block) } },
        binding: numbers.projectedValue)
    }
  }

  func testTheLoadableKeyPathStartingATask() async throws {
    let feed = Feed()
    try await exercise(output: 7, expected: Self.loadableStates) { policy, block in
      Face(
        start: { feed.load(\.numbers, policy: policy, block: block) },
        states: { feed.handle(\.numbers).states }, progress: { feed.handle(\.numbers).progress },
        attempt: { feed.handle(\.numbers).attempt }, isRunning: { feed.handle(\.numbers).isRunning })
    }
  }

  func testTheLoadableKeyPathAwaited() async throws {
    let feed = Feed()
    try await exercise(output: 7, expected: Self.loadableStates) { policy, block in
      Face(
        start: { Task { await feed.load(\.numbers, policy: policy, block: block) } },
        states: { feed.handle(\.numbers).states }, progress: { feed.handle(\.numbers).progress },
        attempt: { feed.handle(\.numbers).attempt }, isRunning: { feed.handle(\.numbers).isRunning })
    }
  }

  func testTheProcessWrapperStartingATask() async throws {
    let job = LoadableProcess<Job>()
    try await exercise(output: (), expected: Self.processStates) { policy, block in
      Face(
        start: { job.projectedValue.run(.sync, policy: policy, block: block) },
        binding: job.projectedValue)
    }
  }

  func testTheProcessWrapperAwaited() async throws {
    let job = LoadableProcess<Job>()
    try await exercise(output: (), expected: Self.processStates) { policy, block in
      Face(
        start: { Task { await job.projectedValue.run(.sync, policy: policy, block: block) } },
        binding: job.projectedValue)
    }
  }

  func testTheProcessKeyPathStartingATask() async throws {
    let feed = Feed()
    try await exercise(output: (), expected: Self.processStates) { policy, block in
      Face(
        start: { feed.run(\.job, as: .sync, policy: policy, block: block) },
        states: { feed.handle(\.job).states }, progress: { feed.handle(\.job).progress },
        attempt: { feed.handle(\.job).attempt }, isRunning: { feed.handle(\.job).isRunning })
    }
  }

  func testTheProcessKeyPathAwaited() async throws {
    let feed = Feed()
    try await exercise(output: (), expected: Self.processStates) { policy, block in
      Face(
        start: { Task { await feed.run(\.job, as: .sync, policy: policy, block: block) } },
        states: { feed.handle(\.job).states }, progress: { feed.handle(\.job).progress },
        attempt: { feed.handle(\.job).attempt }, isRunning: { feed.handle(\.job).isRunning })
    }
  }

  func testALoaderObject() async throws {
    var loader: BlockLoader<Int>?
    try await exercise(output: 7, expected: Self.loadableStates) { policy, block in
      let made = BlockLoader(policy: policy, fetch: block)
      loader = made
      return Face(
        start: { Task { await made.load() } }, states: { made.states },
        progress: { made.progress }, attempt: { made.attempt }, isRunning: { made.isRunning })
    }
    XCTAssertEqual(loader?.state, .loaded(7))
  }

  func testSingleProcessRunsTakeAPolicyInEveryForm() async throws {
    @MainActor final class Saver: ProcessSupport {
      var saving: SingleProcessState = .idle
    }
    let saver = Saver()
    let wrapper = LoadableProcess<SingleProcess>()
    var calls = 0
    func flaky() throws {
      calls += 1
      if calls % 2 == 1 { throw TestError(code: calls) }
    }
    let policy = LoadPolicy<Void>.retry(maxAttempts: 2, backoff: .immediate, clock: ManualClock())
    await wrapper.projectedValue.run(policy: policy) { try flaky() }
    await wrapper.projectedValue.run(policy: policy) { try flaky() }.value
    await saver.run(\.saving, policy: policy) { try flaky() }
    await saver.run(\.saving, policy: policy) { try flaky() }.value
    XCTAssertEqual(calls, 8, "each of the four runs needed its retry")
    XCTAssertTrue(wrapper.wrappedValue.hasFinished)
    XCTAssertTrue(saver.saving.hasFinished)
  }

  // MARK: - The scenario

  /// What a view of one form reads.
  struct Face<State: Sendable> {
    var start: @MainActor () -> Task<Void, Never>
    var states: @MainActor () -> StateStream<State>
    var progress: @MainActor () -> LoadingProgress?
    var attempt: @MainActor () -> RetryAttempt?
    var isRunning: @MainActor () -> Bool
  }

  /// Runs `.timeout(30 s).retry(maxAttempts: 2, showsFailedAttempts: true)` on the form
  /// `make` builds: attempt 1 fails, attempt 2 reports progress, waits at a gate, and
  /// returns `output`.
  private func exercise<State: Equatable & Sendable, Output: Sendable>(
    output: Output,
    expected: [State],
    file: StaticString = #filePath,
    line: UInt = #line,
    make: (LoadPolicy<Output>, @escaping @MainActor () async throws -> Output) -> Face<State>
  ) async throws {
    let clock = ManualClock()
    let gate = Gate<Void>()
    var calls = 0
    let policy = LoadPolicy<Output>
      .timeout(.seconds(30), clock: clock)
      .retry(
        maxAttempts: 2, backoff: .constant(.seconds(1)), showsFailedAttempts: true, clock: clock)
    let face = make(policy) {
      calls += 1
      if calls == 1 { throw TestError(code: 1) }
      LoadingProgress.report(fraction: 0.5, message: "half")
      try await gate.pass()
      return output
    }
    XCTAssertNil(face.progress(), "progress before any load", file: file, line: line)
    XCTAssertNil(face.attempt(), "attempt before any load", file: file, line: line)
    let stream = face.states()
    let last = expected.last
    let observer = Task { @MainActor in
      var seen: [State] = []
      for await state in stream {
        seen.append(state)
        if state == last || seen.count == expected.count { break }
      }
      return seen
    }

    let task = face.start()
    try await clock.sleepers(count: 2)  // the overall timeout and the backoff
    let waiting = face.attempt()
    XCTAssertEqual(waiting?.number, 2, "attempt while the retry waits", file: file, line: line)
    XCTAssertEqual(waiting?.delay, .seconds(1), file: file, line: line)
    XCTAssertEqual(waiting?.lastError as? TestError, TestError(code: 1), file: file, line: line)
    XCTAssertTrue(face.isRunning(), file: file, line: line)

    clock.advance(by: .seconds(1))
    await gate.arrival()
    XCTAssertEqual(
      face.progress(), LoadingProgress(fraction: 0.5, message: "half"), file: file, line: line)
    XCTAssertEqual(face.attempt()?.number, 2, file: file, line: line)
    XCTAssertEqual(face.attempt()?.isWaiting, false, file: file, line: line)

    gate.open()
    await task.value
    let seen = await observer.value
    XCTAssertEqual(seen, expected, "the states the stream delivered", file: file, line: line)
    XCTAssertNil(face.progress(), "progress outlived the load", file: file, line: line)
    XCTAssertNil(face.attempt(), "attempt outlived the load", file: file, line: line)
    XCTAssertFalse(face.isRunning(), file: file, line: line)
    XCTAssertEqual(calls, 2, file: file, line: line)
  }
}

extension PolicyFormsTests.Face {
  init<Value>(start: @escaping @MainActor () -> Task<Void, Never>, binding: Loadable<Value>.Binding)
  where State == LoadableState<Value> {
    self.init(
      start: start, states: { binding.states }, progress: { binding.progress },
      attempt: { binding.attempt }, isRunning: { binding.isRunning })
  }

  init<Kind>(
    start: @escaping @MainActor () -> Task<Void, Never>, binding: LoadableProcess<Kind>.Binding
  )
  where State == ProcessState<Kind> {
    self.init(
      start: start, states: { binding.states }, progress: { binding.progress },
      attempt: { binding.attempt }, isRunning: { binding.isRunning })
  }
}

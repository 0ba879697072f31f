import Loadables
import LoadablesTesting
import XCTest

/// A job that must not run twice: `LoadPolicy.ignoreStartsWhileRunning()` ignores a start
/// while the slot's job runs, instead of cancelling that job, in every form.
@MainActor
final class IgnoreStartsWhileRunningTests: XCTestCase {
  enum Step: Equatable, Sendable { case pay }

  @MainActor
  final class Checkout: ProcessSupport {
    var paying: ProcessState<Step> = .idle
    var saving: SingleProcessState = .idle
  }

  // MARK: - The wrapper

  func testASecondWrapperStartWhileTheFirstIsHeldRunsNoBlockAndCancelsNothing() async throws {
    @Loadables.Process var checkout: SingleProcessState
    let recorder = StateRecorder($checkout)
    defer { recorder.stop() }
    let gate = Gate<Void>()
    var payments = 0
    let first = $checkout.start(policy: .ignoreStartsWhileRunning()) {
      payments += 1
      try await gate.pass()
    }
    await gate.arrival()
    let running = checkout

    // The Task-returning forms: `start`, and `run` from synchronous code.
    let second = $checkout.start(policy: .ignoreStartsWhileRunning()) { payments += 1 }
    let third: Task<Void, Never> = $checkout.run(policy: .ignoreStartsWhileRunning()) {
      payments += 1
    }
    // What they return has finished already; cancelling it cancels nothing.
    second.cancel()
    await second.value
    await third.value
    // The awaited form returns at once, while the first job still runs.
    await $checkout.run(policy: .ignoreStartsWhileRunning()) { payments += 1 }

    XCTAssertEqual(payments, 1, "an ignored start ran its block")
    XCTAssertEqual(checkout, running, "an ignored start wrote the state")
    XCTAssertTrue($checkout.isRunning, "an ignored start stopped the running job")
    XCTAssertEqual(gate.waiting, 1, "the running job was cancelled at its gate")
    XCTAssertEqual(recorder.states.count, 2, "writes: \(recorder.states)")

    gate.open()
    await first.value
    guard case .running(let process) = running else { return XCTFail("got \(running)") }
    XCTAssertEqual(checkout, .finished(process), "the first job did not finish")

    // Nothing runs now: the next start is a start like any other.
    await $checkout.run(policy: .ignoreStartsWhileRunning()) { payments += 1 }
    XCTAssertEqual(payments, 2, "a start after the job ended was ignored")
  }

  func testAStartWithoutThePolicyStillCancelsTheRunningJob() async throws {
    @Loadables.Process var checkout: SingleProcessState
    let gate = Gate<Void>()
    var cancelled = false
    let first = $checkout.start(policy: .ignoreStartsWhileRunning()) {
      do { try await gate.pass() } catch { cancelled = true }
    }
    await gate.arrival()
    await $checkout.run {}
    await first.value
    XCTAssertTrue(cancelled, "the starting call's policy decides: a plain start supersedes")
  }

  func testCancelAndResetStillStopTheRunningJob() async throws {
    @Loadables.Process var checkout: SingleProcessState
    for stop in ["cancel", "reset"] {
      let gate = Gate<Void>()
      var stopped = false
      let first = $checkout.start(policy: .ignoreStartsWhileRunning()) {
        do { try await gate.pass() } catch { stopped = true }
      }
      await gate.arrival()
      if stop == "cancel" { $checkout.cancel() } else { $checkout.reset() }
      await first.value
      XCTAssertTrue(stopped, "\(stop)() did not stop the job")
      XCTAssertFalse($checkout.isRunning)
      var ran = false
      await $checkout.run(policy: .ignoreStartsWhileRunning()) { ran = true }
      XCTAssertTrue(ran, "after \(stop)() the next start was ignored")
    }
  }

  func testALoadOfAValueIgnoresAStartToo() async {
    @Loadable var total: LoadableState<Int> = .loaded(1)
    let gate = Gate<Int>()
    let first = $total.start(policy: .ignoreStartsWhileRunning()) { try await gate.pass() }
    await gate.arrival()
    await $total.load(silently: true, policy: .ignoreStartsWhileRunning()) { 3 }
    XCTAssertEqual(total, .loading, "an ignored load wrote over the running load's spinner")
    gate.open(2)
    await first.value
    XCTAssertEqual(total, .loaded(2), "the first load did not write its value")
  }

  // MARK: - Key paths

  func testAKeyPathStartWhileTheJobIsHeldIsIgnoredInEveryShape() async throws {
    let model = Checkout()
    let gate = Gate<Void>()
    var payments = 0
    let policy = LoadPolicy<Void>.ignoreStartsWhileRunning()
    let first: Task<Void, Never> = model.run(\.paying, as: .pay, policy: policy) {
      payments += 1
      try await gate.pass()
    }
    await gate.arrival()

    let second: Task<Void, Never> = model.run(\.paying, as: .pay, policy: policy) {
      payments += 1
    }
    await second.value
    model.start(\.paying, as: .pay, policy: policy) { payments += 1 }
    await model.run(\.paying, as: .pay, policy: policy) { payments += 1 }
    await model.run(\.saving, policy: policy) {}  // another key path runs as usual
    XCTAssertEqual(model.saving.hasFinished, true, "the other key path's job did not run")

    XCTAssertEqual(payments, 1, "an ignored key-path start ran its block")
    XCTAssertEqual(model.paying, .running(.pay))
    XCTAssertTrue(model.handle(\.paying).isRunning)
    gate.open()
    await first.value
    XCTAssertEqual(model.paying, .finished(.pay), "the first job did not finish")
  }

  func testTwoObjectsOfOneClassDoNotIgnoreEachOther() async throws {
    let one = Checkout()
    let two = Checkout()
    let gate = Gate<Void>()
    let first: Task<Void, Never> = one.run(\.saving, policy: .ignoreStartsWhileRunning()) {
      try await gate.pass()
    }
    await gate.arrival()
    var ran = false
    await two.run(\.saving, policy: .ignoreStartsWhileRunning()) { ran = true }
    XCTAssertTrue(ran, "a start on another object was ignored")
    gate.open()
    await first.value
  }

  // MARK: - Loaders

  func testALoaderLoadWhileOneRunsReturnsAtOnceAndFetchesNothing() async throws {
    let gate = Gate<Int>()
    var fetches = 0
    let totals = BlockLoader<Int>(policy: .ignoreStartsWhileRunning()) {
      fetches += 1
      return try await gate.pass()
    }
    let first = totals.start()
    await gate.arrival()

    // Each awaited call runs in a task with a deadline: one that waited for the held load
    // fails the test instead of hanging it.
    let ignored = Task {
      let state = await totals.load()
      XCTAssertEqual(state, .loading, "an ignored load did not return the state as it is")
      do {
        let value = try await totals.value()
        XCTFail("value() of an ignored load returned \(value)")
      } catch {
        XCTAssertTrue(error is CancellationError, "value() threw \(error)")
      }
    }
    guard await finishes(ignored, "an ignored load() and value() to return at once") else { return }
    guard await finishes(totals.start(), "an ignored start()'s task to end") else { return }
    XCTAssertEqual(fetches, 1, "an ignored load fetched")
    XCTAssertTrue(totals.isRunning, "an ignored load stopped the running one")

    gate.open(42)
    await first.value
    XCTAssertEqual(totals.state, .loaded(42))
    let again = try await totals.value()
    XCTAssertEqual(again, 42)
    XCTAssertEqual(fetches, 2, "a load after the first ended was ignored")
  }

  // MARK: - Composition

  func testAStartDuringARetryIsIgnoredAndTheRetryGoesOn() async throws {
    @Loadables.Process var checkout: SingleProcessState
    let gate = Gate<Void>()
    var attempts = 0
    let policy = LoadPolicy<Void>.retry(maxAttempts: 2, backoff: .immediate)
      .ignoreStartsWhileRunning()
    let first = $checkout.start(policy: policy) {
      attempts += 1
      if attempts == 1 { throw TestError(code: 1) }
      try await gate.pass()
    }
    await gate.arrival()
    await $checkout.run(policy: policy) { attempts += 100 }
    XCTAssertEqual(attempts, 2, "the ignored start ran, or restarted the retry")
    XCTAssertEqual($checkout.attempt?.number, 2, "the ignored start cleared the attempt")
    gate.open()
    await first.value
    XCTAssertTrue(checkout.hasFinished, "the retried job did not finish: \(checkout)")
  }

  func testWithADebounceTheFirstStartWins() async throws {
    @Loadables.Process var checkout: ProcessState<String>
    let clock = ManualClock()
    let policy = LoadPolicy<Void>.ignoreStartsWhileRunning()
      .debounce(for: .milliseconds(300), clock: clock)
    var ran: [String] = []
    let first = $checkout.start("first", policy: policy) { ran.append("first") }
    try await clock.sleepers(count: 1)
    let second = $checkout.start("second", policy: policy) { ran.append("second") }
    guard await finishes(second, "the ignored start's task to end at once") else { return }
    XCTAssertEqual(checkout, .running("first"), "the ignored start wrote its kind")
    clock.advance(by: .milliseconds(300))
    await first.value
    XCTAssertEqual(ran, ["first"])
    XCTAssertEqual(checkout, .finished("first"))
  }

  func testWhereItStandsInAChainDoesNotMatter() {
    let retry = LoadPolicy<Void>.retry(maxAttempts: 2, backoff: .immediate)
    XCTAssertEqual(
      retry.ignoreStartsWhileRunning().description,
      "\(retry.description) → ignoreStartsWhileRunning")
    XCTAssertEqual(
      LoadPolicy<Void>.ignoreStartsWhileRunning().description, "ignoreStartsWhileRunning")
  }

  // MARK: - Events

  func testAnIgnoredStartReportsIgnoredAndNoStart() async throws {
    let model = Checkout()
    let events = LoadEventRecorder { $0.subject.objectID == ObjectIdentifier(model) }
    defer { events.stop() }
    let gate = Gate<Void>()
    let first: Task<Void, Never> = model.run(\.saving, policy: .ignoreStartsWhileRunning()) {
      try await gate.pass()
    }
    await gate.arrival()
    await model.run(\.saving, policy: .ignoreStartsWhileRunning()) {}
    gate.open()
    await first.value
    XCTAssertEqual(events.kinds, [.started, .ignored, .finished])
    XCTAssertEqual(
      events.events.map(\.subject), Array(repeating: events.events[0].subject, count: 3))
    XCTAssertEqual(LoadEventKind.ignored.level, .info)
    XCTAssertFalse(LoadEventKind.ignored.endsLoad)
  }

  // MARK: - Shared entries

  func testAnEntryFetchStillSupersedesAStaleOneUnderThePolicy() async throws {
    let store = LoaderStore()
    let gate = Gate<Int>()
    var fetches = 0
    let entry = store.loader(for: ["ignoreStarts", "entry"], policy: .ignoreStartsWhileRunning()) {
      fetches += 1
      return fetches == 1 ? try await gate.pass() : 2
    }
    let first = entry.start()
    await gate.arrival()
    store.invalidate(["ignoreStarts", "entry"])
    gate.open(1)
    let state = await entry.load()
    await first.value
    XCTAssertEqual(fetches, 2, "an invalidation did not refetch a running entry")
    XCTAssertEqual(state, .loaded(2), "the fetch the invalidation made stale stored")
  }

  func testAPagedEntryFetchStillSupersedesAStaleOneUnderThePolicy() async throws {
    let store = LoaderStore()
    let gate = Gate<Page<Int, Int>>()
    var fetches = 0
    let source = PagedSource<Int, Int>(first: 0, policy: .ignoreStartsWhileRunning()) { _ in
      fetches += 1
      return fetches == 1 ? try await gate.pass() : Page(items: [2], next: nil)
    }
    let entry = store.pagedLoader(for: ["ignoreStarts", "paged"], source: source)
    let first = entry.start()
    await gate.arrival()
    store.invalidate(["ignoreStarts", "paged"])
    gate.open(Page(items: [1], next: nil))
    let state = await entry.load()
    await first.value
    XCTAssertEqual(fetches, 2, "an invalidation did not refetch a running paged entry")
    XCTAssertEqual(state.items, [2], "the fetch the invalidation made stale stored")
  }
}

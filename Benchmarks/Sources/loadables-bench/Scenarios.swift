import Loadables

/// One measured job, in the library's form and in the hand-written form.
struct Scenario: Sendable {
  let name: String
  /// What one iteration is, for the report.
  let unit: String
  let library: @MainActor @Sendable (_ iterations: Int) async -> Void
  let baseline: @MainActor @Sendable (_ iterations: Int) async -> Void
}

/// Restarts per storm and yields per load in the storm and yield scenarios.
let restartsPerStorm = 10_000

/// The permits of the limiters in `policy.limit`.
let permits = 4

/// Observer wake-ups counted by the scenarios that observe their state, for `run` to print.
@MainActor var scenarioWakeUps = 0

/// Runs `body` with an observer tracking `read` the way SwiftUI does (re-armed after each
/// change), so the Observation cost of every write is paid, and counts its wake-ups.
@MainActor
func observing(_ read: @escaping @MainActor () -> Void, _ body: () async -> Void) async {
  let counter = WakeUpCounter(read)
  await body()
  scenarioWakeUps += counter.count
}

@MainActor
let scenarios: [Scenario] =
  [
    Scenario(
      name: "cycle.task.wrapper", unit: "load cycle",
      library: { iterations in
        let model = WrapperModel()
        for index in 0..<iterations {
          let task: Task<Void, Never> = model.$value.load { index }
          await task.value
        }
      },
      baseline: { iterations in
        let model = HandObservableModel()
        for index in 0..<iterations {
          await model.load { index }.value
        }
      }
    ),
    Scenario(
      name: "cycle.task.keypath", unit: "load cycle",
      library: { iterations in
        let model = KeyPathModel()
        for index in 0..<iterations {
          let task: Task<Void, Never> = model.load(\.value) { index }
          await task.value
        }
      },
      baseline: { iterations in
        let model = HandPlainModel()
        for index in 0..<iterations {
          await model.load { index }.value
        }
      }
    ),
    Scenario(
      name: "cycle.await.wrapper", unit: "load cycle",
      library: { iterations in
        let model = WrapperModel()
        for index in 0..<iterations {
          await model.$value.load { index }
        }
      },
      baseline: { iterations in
        let model = HandObservableModel()
        for index in 0..<iterations {
          await model.loadInline { index }
        }
      }
    ),
    Scenario(
      name: "cycle.await.keypath", unit: "load cycle",
      library: { iterations in
        let model = KeyPathModel()
        for index in 0..<iterations {
          await model.load(\.value) { index }
        }
      },
      baseline: { iterations in
        let model = HandPlainModel()
        for index in 0..<iterations {
          await model.loadInline { index }
        }
      }
    ),
    Scenario(
      name: "restart.storm", unit: "storm of 10,000 restarts",
      library: { iterations in
        let model = WrapperModel()
        for _ in 0..<iterations {
          var last: Task<Void, Never>?
          for index in 0..<restartsPerStorm {
            last = model.$value.load { index }
          }
          await last?.value
          precondition(model.value == .loaded(restartsPerStorm - 1))
        }
      },
      baseline: { iterations in
        let model = HandObservableModel()
        for _ in 0..<iterations {
          var last: Task<Void, Never>?
          for index in 0..<restartsPerStorm {
            last = model.load { index }
          }
          await last?.value
          precondition(model.value == .loaded(restartsPerStorm - 1))
        }
      }
    ),
    Scenario(
      name: "yield", unit: "yield",
      library: { iterations in
        let model = WrapperModel()
        await model.$value.load { yield in
          for index in 0..<iterations { yield(.loaded(index)) }
        }
      },
      baseline: { iterations in
        let model = HandObservableModel()
        await model.yieldInline(count: iterations)
      }
    ),
    Scenario(
      name: "loader.cycle", unit: "load cycle",
      library: { iterations in
        let loader = NumbersLoader()
        await observing({ _ = loader.state }) {
          for _ in 0..<iterations { await loader.load() }
        }
      },
      baseline: { iterations in
        let loader = HandLoader()
        await observing({ _ = loader.state }) {
          for _ in 0..<iterations { await loader.load() }
        }
      }
    ),
    Scenario(
      name: "policy.retry.success", unit: "load cycle",
      library: { iterations in
        let model = WrapperModel()
        await observing({ _ = model.value }) {
          for index in 0..<iterations {
            await model.$value.load(policy: .retry(maxAttempts: 3)) { index }
          }
        }
      },
      baseline: { iterations in
        let model = WrapperModel()
        await observing({ _ = model.value }) {
          for index in 0..<iterations {
            await model.$value.load { try await retrying(maxAttempts: 3) { index } }
          }
        }
      }
    ),
    Scenario(
      name: "policy.limit", unit: "load cycle",
      library: { iterations in
        let model = WrapperModel()
        let limiter = ConcurrencyLimiter(limit: permits)
        await observing({ _ = model.value }) {
          for index in 0..<iterations {
            await model.$value.load(policy: .limit(limiter)) { index }
          }
        }
      },
      baseline: { iterations in
        let model = WrapperModel()
        let semaphore = HandSemaphore(limit: permits)
        await observing({ _ = model.value }) {
          for index in 0..<iterations {
            await model.$value.load { await semaphore.withPermit { index } }
          }
        }
      }
    ),
    Scenario(
      name: "paging.next", unit: "next-page append",
      library: { iterations in
        let model = PagedModel()
        let page = Array(0..<pageSize)
        let source = PagedSource<Int, Int>(first: 1) { cursor in Page(items: page, next: cursor + 1)
        }
        await model.$feed.load(from: source)
        let onePage = model.feed
        await observing({ _ = model.feed }) {
          for _ in 0..<iterations {
            model.feed = onePage
            await model.$feed.loadNextPage(from: source)
          }
        }
      },
      baseline: { iterations in
        let feed = HandPagedFeed()
        let page = Array(0..<pageSize)
        let fetch: @MainActor (Int) async throws -> ([Int], Int?) = { cursor in (page, cursor + 1) }
        await observing({
          _ = feed.items
          _ = feed.nextPhase
        }) {
          for _ in 0..<iterations {
            feed.replace(items: page, nextCursor: 2)
            await feed.loadNextPage(fetch)
          }
        }
      }
    ),
  ] + sharedScenarios

import Loadables

/// One measured job, in the library's form and in the hand-written form, and any extra
/// variants reported beside them for information.
struct Scenario: Sendable {
  let name: String
  /// What one iteration is, for the report.
  let unit: String
  let library: @MainActor @Sendable (_ iterations: Int) async -> Void
  let baseline: @MainActor @Sendable (_ iterations: Int) async -> Void
  /// Other hand-written variants, by name ("inline": no child task; "samestate": the
  /// library's state type in hand-written code; "direct": a plain property write instead
  /// of a key path), reported beside the ratio, never checked.
  var extras: [(name: String, body: @MainActor @Sendable (_ iterations: Int) async -> Void)] = []

  /// The variant `name` names: "library", "baseline" or one of the extras.
  func variant(_ name: String) -> (@MainActor @Sendable (_ iterations: Int) async -> Void)? {
    switch name {
    case "library": library
    case "baseline": baseline
    default: extras.first { $0.name == name }?.body
    }
  }
}

/// Restarts per storm in the storm scenarios.
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
        let model = WrapperModel.shown()
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
      },
      extras: [
        (
          "samestate",
          { iterations in
            let model = SameStateModel()
            for index in 0..<iterations {
              await model.load { index }.value
            }
          }
        )
      ]
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
        let model = HandKeyPathModel()
        for index in 0..<iterations {
          await model.load(\.value) { index }.value
        }
      },
      extras: [
        (
          "direct",
          { iterations in
            let model = HandPlainModel()
            for index in 0..<iterations {
              await model.load { index }.value
            }
          }
        )
      ]
    ),
    Scenario(
      name: "cycle.await.wrapper", unit: "load cycle",
      library: { iterations in
        let model = WrapperModel.shown()
        for index in 0..<iterations {
          await model.$value.load { index }
        }
      },
      baseline: { iterations in
        let model = HandObservableModel()
        for index in 0..<iterations {
          await model.loadAwaited { index }
        }
      },
      extras: [
        (
          "inline",
          { iterations in
            let model = HandObservableModel()
            for index in 0..<iterations {
              await model.loadInline { index }
            }
          }
        ),
        (
          "samestate",
          { iterations in
            let model = SameStateModel()
            for index in 0..<iterations {
              await model.loadAwaited { index }
            }
          }
        ),
      ]
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
        let model = HandKeyPathModel()
        for index in 0..<iterations {
          await model.loadAwaited(\.value) { index }
        }
      },
      extras: [
        (
          "inline",
          { iterations in
            let model = HandKeyPathModel()
            for index in 0..<iterations {
              await model.loadInline(\.value) { index }
            }
          }
        )
      ]
    ),
    Scenario(
      name: "restart.storm", unit: "restart",
      library: { iterations in
        let model = WrapperModel.shown()
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
      name: "restart.storm.keypath", unit: "restart",
      library: { iterations in
        let model = KeyPathModel()
        for _ in 0..<iterations {
          var last: Task<Void, Never>?
          for index in 0..<restartsPerStorm {
            last = model.load(\.value) { index }
          }
          await last?.value
          precondition(model.value == .loaded(restartsPerStorm - 1))
        }
      },
      baseline: { iterations in
        let model = HandKeyPathModel()
        for _ in 0..<iterations {
          var last: Task<Void, Never>?
          for index in 0..<restartsPerStorm {
            last = model.load(\.value) { index }
          }
          await last?.value
          precondition(model.value == .loaded(restartsPerStorm - 1))
        }
      }
    ),
    Scenario(
      name: "yield", unit: "yield",
      library: { iterations in
        let model = WrapperModel.shown()
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
      name: "yield.keypath", unit: "yield",
      library: { iterations in
        let model = KeyPathModel()
        await model.load(\.value) { yield in
          for index in 0..<iterations { yield(.loaded(index)) }
        }
      },
      baseline: { iterations in
        let model = HandKeyPathModel()
        await model.yieldInline(\.value, count: iterations)
      }
    ),
    Scenario(
      name: "state.write", unit: "write",
      library: { iterations in
        let holder = LibraryStateHolder()
        for index in 0..<iterations { holder.state = .loaded(index) }
      },
      baseline: { iterations in
        let holder = HandStateHolder()
        for index in 0..<iterations { holder.state = .loaded(index) }
      }
    ),
    Scenario(
      name: "state.write.process", unit: "write",
      library: { iterations in
        let holder = LibraryStateHolder()
        for index in 0..<iterations {
          holder.job = .finished(index.isMultiple(of: 2) ? .save : .delete)
        }
      },
      baseline: { iterations in
        let holder = HandStateHolder()
        for index in 0..<iterations {
          holder.job = .finished(index.isMultiple(of: 2) ? .save : .delete)
        }
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
        let model = WrapperModel.shown()
        await observing({ _ = model.value }) {
          for index in 0..<iterations {
            await model.$value.load(policy: .retry(maxAttempts: 3)) { index }
          }
        }
      },
      baseline: { iterations in
        let model = HandObservableModel()
        await observing({ _ = model.value }) {
          for index in 0..<iterations {
            await model.loadAwaited { try await retrying(maxAttempts: 3) { index } }
          }
        }
      }
    ),
    Scenario(
      name: "policy.network.online", unit: "load cycle",
      library: { iterations in
        let model = WrapperModel.shown()
        let connectivity = Connectivity(isOnline: true)
        await observing({ _ = model.value }) {
          for index in 0..<iterations {
            await model.$value.load(
              policy: .retry(maxAttempts: 3).waitsForNetwork(connectivity)
            ) { index }
          }
        }
      },
      baseline: { iterations in
        let model = WrapperModel.shown()
        await observing({ _ = model.value }) {
          for index in 0..<iterations {
            await model.$value.load(policy: .retry(maxAttempts: 3)) { index }
          }
        }
      }
    ),
    Scenario(
      name: "policy.limit", unit: "load cycle",
      library: { iterations in
        let model = WrapperModel.shown()
        let limiter = ConcurrencyLimiter(limit: permits)
        await observing({ _ = model.value }) {
          for index in 0..<iterations {
            await model.$value.load(policy: .limit(limiter)) { index }
          }
        }
      },
      baseline: { iterations in
        let model = HandObservableModel()
        let semaphore = HandSemaphore(limit: permits)
        await observing({ _ = model.value }) {
          for index in 0..<iterations {
            await model.loadAwaited { await semaphore.withPermit { index } }
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
  ] + sharedScenarios + offlineScenarios + eventScenarios + pollScenarios

import Foundation
import Loadables
import MainThreadExecutor
import MallocCounter
import Observation

#if canImport(Glibc)
  import Glibc
#endif

/// The benchmark runner. `compare` drives it; run it by hand as
///
///     loadables-bench list
///     loadables-bench run <scenario> <variant> <iterations>   (one variant; for callgrind)
///     loadables-bench time <scenario> <iterations> <rounds>            (interleaved medians)
///     loadables-bench wakeups                                           (observer wake-ups)
///     loadables-bench memory                                            (bytes per idle state)
///     loadables-bench memory-restored                        (bytes per entry restored at launch)
///     loadables-bench prepare <directory>          (the restore scenarios' saved entries)
@main
struct Runner {
  @MainActor
  static func main() async {
    let arguments = Array(CommandLine.arguments.dropFirst())
    switch arguments.first {
    case "list":
      for scenario in scenarios {
        print(
          ([scenario.name, "library", "baseline"] + scenario.extras.map(\.name)).joined(
            separator: " "))
      }
    case "run" where arguments.count == 4:
      guard let scenario = scenario(named: arguments[1]), let iterations = Int(arguments[3])
      else { usage() }
      guard let variant = scenario.variant(arguments[2]) else { usage() }
      // One thread: the global executor's jobs run on the main thread, so the counts do not
      // depend on whether a worker thread happened to be awake (see MainThreadExecutor.h).
      guard loadables_run_global_jobs_on_main_thread() == 0 else {
        print("run: could not send the global executor's jobs to the main thread")
        exit(1)
      }
      let before = loadables_allocation_count()
      await variant(iterations)
      let after = loadables_allocation_count()
      print("allocations=\(after - before) wakeups=\(scenarioWakeUps)")
    case "time" where arguments.count == 4:
      guard let scenario = scenario(named: arguments[1]), let iterations = Int(arguments[2]),
        let rounds = Int(arguments[3]), iterations > 0, rounds > 0
      else { usage() }
      await time(scenario, iterations: iterations, rounds: rounds)
    case "wakeups":
      await wakeups()
    case "memory":
      memory()
    case "prepare" where arguments.count == 2:
      await prepareSavedEntries(in: URL(fileURLWithPath: arguments[1], isDirectory: true))
    case "memory-restored":
      let bytes = await restoredMemory()
      print(
        "restored_bytes=\(bytes.library) baseline_values_bytes=\(bytes.values)",
        "baseline_boxes_bytes=\(bytes.boxes) count=\(savedEntryCount)")
    default:
      usage()
    }
  }

  static func scenario(named name: String) -> Scenario? {
    MainActor.assumeIsolated { scenarios.first { $0.name == name } }
  }

  static func usage() -> Never {
    print(
      """
      usage: loadables-bench list
             loadables-bench run <scenario> <variant> <iterations>
             loadables-bench time <scenario> <iterations> <rounds>
             loadables-bench wakeups
             loadables-bench memory
             loadables-bench memory-restored
             loadables-bench prepare <directory>
      """)
    exit(2)
  }

  // MARK: - Wall-clock time

  /// Runs library and baseline alternately, `rounds` times each (swapping which goes first
  /// every round), and prints the median nanoseconds per iteration of each, and the median
  /// of the per-round ratios: each round's pair ran back to back, so a ratio taken within a
  /// round cancels most of the drift in the machine's load between rounds.
  @MainActor
  static func time(_ scenario: Scenario, iterations: Int, rounds: Int) async {
    let clock = ContinuousClock()
    var library: [Double] = []
    var baseline: [Double] = []
    await scenario.library(min(iterations, 100))  // warm up both
    await scenario.baseline(min(iterations, 100))
    for round in 0..<rounds {
      let order = round.isMultiple(of: 2) ? [true, false] : [false, true]
      for isLibrary in order {
        let run = isLibrary ? scenario.library : scenario.baseline
        let elapsed = await clock.measure { await run(iterations) }
        let nanoseconds =
          Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        if isLibrary {
          library.append(nanoseconds / Double(iterations))
        } else {
          baseline.append(nanoseconds / Double(iterations))
        }
      }
    }
    let ratios = zip(library, baseline).map { $0 / $1 }
    print(
      "library_ns=\(median(library)) baseline_ns=\(median(baseline))",
      "paired_ratio=\(median(ratios))")
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
  }

  // MARK: - Observation

  /// Prints how often an observer of the state is woken by one load cycle and by one silent
  /// reload, for each form.
  @MainActor
  static func wakeups() async {
    let wrapper = WrapperModel()
    let keyPathModel = ObservableKeyPathModel()
    let hand = HandObservableModel()

    let wrapperCycle = await count(
      reading: { _ = wrapper.value },
      during: {
        await wrapper.$value.load { 1 }
      })
    let wrapperSilent = await count(
      reading: { _ = wrapper.value },
      during: {
        await wrapper.$value.load(silently: true) { 2 }
      })
    let keyPathCycle = await count(
      reading: { _ = keyPathModel.value },
      during: {
        await keyPathModel.load(\.value) { 1 }
      })
    let keyPathSilent = await count(
      reading: { _ = keyPathModel.value },
      during: {
        await keyPathModel.load(\.value, silently: true) { 2 }
      })
    let handCycle = await count(
      reading: { _ = hand.value },
      during: {
        await hand.loadAwaited { 1 }
      })
    let handSilent = await count(
      reading: { _ = hand.value },
      during: {
        await hand.loadAwaited(silently: true) { 2 }
      })
    print(
      "wrapper_cycle=\(wrapperCycle) wrapper_silent=\(wrapperSilent)",
      "keypath_cycle=\(keyPathCycle) keypath_silent=\(keyPathSilent)",
      "baseline_cycle=\(handCycle) baseline_silent=\(handSilent)")
  }

  /// Counts observer wake-ups while `action` runs, re-arming after each, as SwiftUI does.
  @MainActor
  static func count(reading read: @escaping @MainActor () -> Void, during action: () async -> Void)
    async -> Int
  {
    let counter = WakeUpCounter(read)
    await action()
    return counter.count
  }

  // MARK: - Memory

  /// Prints the heap bytes per idle state holder, from glibc's count of bytes in use.
  @MainActor
  static func memory() {
    let count = 10_000
    let wrapper = bytesPerInstance(count) { WrapperModel() }
    // The same holder once its state has been read (as a view reads it): its observation
    // registrar is made then.
    let wrapperRead = bytesPerInstance(count) { () -> WrapperModel in
      let model = WrapperModel()
      _ = model.value
      return model
    }
    let handObservable = bytesPerInstance(count) { HandObservableModel() }
    let keyPath = bytesPerInstance(count) { KeyPathModel() }
    let handPlain = bytesPerInstance(count) { HandPlainModel() }
    print(
      "wrapper_bytes=\(wrapper) wrapper_read_bytes=\(wrapperRead)",
      "baseline_observable_bytes=\(handObservable)",
      "keypath_bytes=\(keyPath) baseline_plain_bytes=\(handPlain) count=\(count)")
  }

  static func bytesPerInstance<T>(_ count: Int, _ make: () -> T) -> Int {
    var instances: [T] = []
    instances.reserveCapacity(count)
    let before = loadables_heap_bytes_in_use()
    for _ in 0..<count { instances.append(make()) }
    let after = loadables_heap_bytes_in_use()
    withExtendedLifetime(instances) {}
    return before < 0 ? -1 : Int(after - before) / count
  }
}

/// `LoadableSupport` on an `@Observable` class, for the wake-up count.
@MainActor @Observable
final class ObservableKeyPathModel: LoadableSupport {
  var value: LoadableState<Int> = .absent
}

/// Counts observer wake-ups the way SwiftUI sees them: tracks `read`, re-arms after each
/// change.
@MainActor
final class WakeUpCounter {
  private(set) var count = 0
  private let read: @MainActor () -> Void

  init(_ read: @escaping @MainActor () -> Void) {
    self.read = read
    arm()
  }

  private func arm() {
    withObservationTracking {
      read()
    } onChange: { [weak self] in
      MainActor.assumeIsolated {
        guard let self else { return }
        self.count += 1
        self.arm()
      }
    }
  }
}

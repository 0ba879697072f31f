import Loadables
import XCTest

@MainActor
final class ProgressTests: XCTestCase {
  func testProgressShowsBesideTheStateAndClearsWhenTheLoadEnds() async {
    @Loadable var numbers: LoadableState<[Int]>
    XCTAssertNil($numbers.progress, "progress before any load")  // a view shows it
    let gate = Gate<Void>()
    let task: Task<Void, Never> = $numbers.load {
      reportHalfway()
      try await gate.pass()
      return [1]
    }
    await gate.arrival()
    XCTAssertEqual($numbers.progress, LoadingProgress(fraction: 0.5, message: "halfway"))
    XCTAssertEqual(numbers, .loading, "progress must not change the state")
    gate.open()
    await task.value
    XCTAssertEqual(numbers, .loaded([1]))
    XCTAssertNil($numbers.progress, "progress outlived its load")
  }

  func testAReportedFractionOutOfRangeIsClampedAndTheLoadGoesOn() async {
    @Loadable var download: LoadableState<Int>
    _ = $download.progress  // a view shows it
    var shown: [Double?] = []
    await $download.load {
      // Byte counts: one more than expected, a negative count, an empty file (0 / 0 = nan).
      for (received, expected) in [(1_000_001, 1_000_000), (-1, 10), (0, 0)] {
        LoadingProgress.report(fraction: Double(received) / Double(expected))
        shown.append($download.progress?.fraction)
      }
      LoadingProgress.report(LoadingProgress(percent: .infinity))
      shown.append($download.progress?.fraction)
      return 1
    }
    XCTAssertEqual(shown, [1, 0, 0, 1])
    XCTAssertEqual(download, .loaded(1))
  }

  func testAnAwaitedLoadReportsProgressToo() async {
    @Loadable var numbers: LoadableState<[Int]>
    _ = $numbers.progress  // a view shows it
    await $numbers.load {
      LoadingProgress.report(fraction: 0.3)
      XCTAssertEqual($numbers.progress?.fraction, 0.3)
      return [1]
    }
    XCTAssertNil($numbers.progress)
  }

  func testProgressFromAnotherThreadArrives() async {
    @Loadable var numbers: LoadableState<[Int]>
    _ = $numbers.progress  // a view shows it
    let gate = Gate<Void>()
    let task: Task<Void, Never> = $numbers.load {
      await reportFromBackground(percent: 25)
      try await gate.pass()
      return [1]
    }
    await gate.arrival()
    // The report hopped to the main actor before the block came back to it.
    XCTAssertEqual($numbers.progress?.percent, 25)
    gate.open()
    await task.value
  }

  func testASupersededLoadsReportsAreIgnored() async {
    @Loadable var numbers: LoadableState<[Int]>
    _ = $numbers.progress  // a view shows it
    let first = Gate<Void>()
    let firstTask: Task<Void, Never> = $numbers.load {
      try await first.passIgnoringCancellation()
      LoadingProgress.report(fraction: 0.9, message: "stale")
      return [1]
    }
    await first.arrival()
    let second = Gate<Void>()
    let secondTask: Task<Void, Never> = $numbers.load {
      LoadingProgress.report(fraction: 0.1)
      try await second.pass()
      return [2]
    }
    await second.arrival()
    first.open()
    await firstTask.value
    XCTAssertEqual($numbers.progress?.fraction, 0.1, "a superseded load's report was shown")
    second.open()
    await secondTask.value
  }

  func testProgressIsObservable() async {
    @Loadable var numbers: LoadableState<[Int]>
    let counter = ChangeCounter { _ = $numbers.progress }
    await $numbers.load {
      LoadingProgress.report(fraction: 0.5)
      LoadingProgress.report(fraction: 1)
      return [1]
    }
    XCTAssertEqual(counter.count, 3, "expected two reports and the clear at the end")
  }

  func testProgressReachesOnlyLoadsStartedAfterItWasFirstRead() async {
    @Loadable var numbers: LoadableState<[Int]>
    let gate = Gate<Void>()
    let unobserved: Task<Void, Never> = $numbers.load {
      LoadingProgress.report(fraction: 0.5)
      try await gate.pass()
      return [1]
    }
    await gate.arrival()
    XCTAssertNil($numbers.progress, "a load nobody showed progress for paid to deliver it")
    gate.open()
    await unobserved.value
    await $numbers.load {
      LoadingProgress.report(fraction: 0.5)
      XCTAssertEqual($numbers.progress?.fraction, 0.5)
      return [2]
    }
  }

  func testKeyPathAndProcessFormsShowProgress() async {
    let model = NumbersModel()
    _ = model.handle(\.numbers).progress  // a view shows it
    let gate = Gate<Void>()
    let task: Task<Void, Never> = model.load(\.numbers) {
      LoadingProgress.report(fraction: nil, message: "connecting")
      try await gate.pass()
      return [1]
    }
    await gate.arrival()
    XCTAssertEqual(model.handle(\.numbers).progress?.message, "connecting")
    XCTAssertNil(model.handle(\.numbers).progress?.fraction)
    gate.open()
    await task.value
    XCTAssertNil(model.handle(\.numbers).progress)

    @LoadableProcess var saving: SingleProcessState
    _ = $saving.progress
    let saveGate = Gate<Void>()
    let save: Task<Void, Never> = $saving.run {
      LoadingProgress.report(LoadingProgress(percent: 40))
      try await saveGate.pass()
    }
    await saveGate.arrival()
    XCTAssertEqual($saving.progress?.fraction, 0.4)
    saveGate.open()
    await save.value
    XCTAssertNil($saving.progress)
  }

  func testAReportOutsideALoadIsIgnored() {
    LoadingProgress.report(fraction: 0.5)  // must not crash or show anywhere
    @Loadable var numbers: LoadableState<[Int]>
    XCTAssertNil($numbers.progress)
  }

  func testPercentIsTheFractionTimesAHundred() {
    XCTAssertEqual(LoadingProgress(fraction: 0.25).percent, 25)
    XCTAssertNil(LoadingProgress(fraction: nil, message: "working").percent)
    XCTAssertEqual(LoadingProgress(percent: 100).fraction, 1)
  }
}

/// Reports from a nested function: no callback is threaded through.
@MainActor
private func reportHalfway() {
  LoadingProgress.report(fraction: 0.5, message: "halfway")
}

/// Reports from a child task off the main actor.
private func reportFromBackground(percent: Double) async {
  await withTaskGroup(of: Void.self) { group in
    group.addTask { @concurrent in
      LoadingProgress.report(LoadingProgress(percent: percent))
    }
  }
}

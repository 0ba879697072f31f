import Loadables
import LoadablesTesting
import Testing

/// Out-of-range input to a public entry point stops the program with a message naming the
/// parameter and the value. These are exit tests: each runs in a child process, and the
/// test checks how it ended and what it printed.
@Suite("Bad input")
struct BadInputTests {
  @Test("A negative interrupt delay is rejected with a message naming it")
  func negativeInterrupt() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        @Loadable var numbers: LoadableState<[Int]>
        $numbers.load(
          interrupts: [.seconds(1), .seconds(-2)], block: { [1] }, onInterrupt: { _ in })
      }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("Loadables: interrupts must not be negative, got -2.0 seconds"))
    }
  }
}

extension BadInputTests {
  @Test("A negative interrupt delay on a process is rejected the same way")
  func negativeProcessInterrupt() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        @LoadableProcess var saving: SingleProcessState
        $saving.run(interrupts: [.milliseconds(-1)], block: {}, onInterrupt: { _ in })
      }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("Loadables: interrupts must not be negative, got -0.001 seconds"))
    }
  }

  @Test("Advancing a manual clock by a negative duration is rejected with a message")
  func negativeClockAdvance() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      ManualClock().advance(by: .seconds(-1))
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains(
          "ManualClock.advance(by:): duration must not be negative, got -1.0 seconds"))
    }
  }
}

extension BadInputTests {
  @Test("A progress fraction outside 0...1 is rejected with a message naming it")
  func fractionOutOfRange() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = LoadingProgress(fraction: 1.5)
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("LoadingProgress: fraction must be in 0...1, got 1.5"))
    }
  }

  @Test("A progress percentage outside 0...100 is rejected with a message naming it")
  func percentOutOfRange() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = LoadingProgress(percent: -5)
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("LoadingProgress: percent must be in 0...100, got -5.0"))
    }
  }
}

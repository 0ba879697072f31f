// Testing Your Code's manual-clock test: the body of a method of a main-actor test class, with
// the `Poller` it tests, code "that waits" and "takes a clock": it waits ten seconds before
// each of two tries.
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

@MainActor
final class Poller {
  private let clock: any Clock<Duration>
  private(set) var tries = 0

  init(clock: any Clock<Duration>) { self.clock = clock }

  func pollTwice() async {
    for _ in 0..<2 {
      try? await clock.sleep(for: .seconds(10))
      tries += 1
    }
  }
}

@MainActor @Observable
final class DocModel {
  var unused = 0

  func block() async throws {
    // <block>
  }
}

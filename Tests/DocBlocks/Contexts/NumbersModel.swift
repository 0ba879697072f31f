// StateRecorder's example: the body of a method of a main-actor test class, with the model it
// tests, a `NumbersModel` made with a stub API (`.stub([1, 2, 3])` answers with those numbers).
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

protocol NumbersAPI: Sendable {
  func numbers() async throws -> [Int]
}

struct StubNumbersAPI: NumbersAPI {
  let answer: [Int]
  func numbers() async throws -> [Int] { answer }
}

extension NumbersAPI where Self == StubNumbersAPI {
  static func stub(_ numbers: [Int]) -> StubNumbersAPI { StubNumbersAPI(answer: numbers) }
}

@MainActor @Observable
final class NumbersModel {
  @ObservationIgnored @Loadable var numbers: LoadableState<[Int]>
  private let api: any NumbersAPI

  init(api: any NumbersAPI) { self.api = api }

  func refresh() {
    $numbers.load { [api] in try await api.numbers() }
  }
}

@MainActor @Observable
final class DocModel {
  var unused = 0

  func block() async throws {
    // <block>
  }
}

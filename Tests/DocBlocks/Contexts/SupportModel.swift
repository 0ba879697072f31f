// The context of the key-path forms' fragments (Sources/Loadables/Support): the body of a
// method of a main-actor model that adopts `LoadableSupport` and `ProcessSupport`, with the
// states the fragments name as stored properties and an `api`.
import DocSupport
import Foundation
import Loadables
import Observation

struct Draft: Sendable {}

nonisolated enum Action: Equatable, Sendable { case save, delete }

protocol SupportAPI: Sendable {
  func feed() async throws -> [Post]
  func save(_ draft: Draft) async throws
}

@MainActor @Observable
final class DocModel: LoadableSupport, ProcessSupport {
  var feed: LoadableState<[Post]> = .absent
  var saving: ProcessState<Action> = .idle

  func block(api: any SupportAPI, draft: Draft, model: DocModel) async throws {
    // <block>
  }
}

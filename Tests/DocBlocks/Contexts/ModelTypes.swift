// The context of the doc comments' blocks that declare an app's model or loader type
// (Wrappers, Support, Loaders): at the top level, with the `api` such a type calls and the
// types it loads.
import DocSupport
import Foundation
import Loadables
import Observation

struct User: Identifiable, Sendable {
  let id: Int
}

struct Profile: Sendable {}
struct Draft: Sendable {}

protocol ProfileAPI: Sendable {
  func profile(_ id: User.ID) async throws -> Profile
}

protocol ModelAPI: Sendable {
  func numbers() async throws -> [Int]
  func save(_ draft: Draft) async throws
  func save() async throws
}

/// The app's client and the draft being edited, as the models reach them (compiled, never
/// run).
nonisolated var api: any ModelAPI { fatalError() }
@MainActor var draft: Draft { Draft() }

// <block>

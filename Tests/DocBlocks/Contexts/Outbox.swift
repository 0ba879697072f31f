// The context of the outbox's doc comments (Sources/Loadables/Outbox, LoaderStore+Outbox):
// the body of a method of a main-actor model, with the edit types the comments send as
// OutboxEdit's example declares them, and the names the comments use (`store`, `api`, `post`,
// `rename`, `logger`) as parameters.
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

struct RenamePost: OutboxEdit {
  static let name = "RenamePost"
  let id: Post.ID
  let title: String

  var scope: LoadKey { ["posts", id] }
  var invalidates: [LoadKey] { [["posts", id]] }

  func applyOptimistically(to edit: inout SharedEdit, in store: LoaderStore) {
    edit.update(matching: ["posts", id], in: store, as: Post.self) { $0.title = title }
  }
}

struct LikePost: OutboxEdit {
  static let name = "LikePost"
  let id: Post.ID

  var scope: LoadKey { ["posts", id] }
}

struct APIError: Error {
  let status: Int
}

protocol OutboxAPI: Sendable {
  func rename(_ id: Post.ID, to title: String, idempotencyKey: String) async throws
}

/// Stands in for `os.Logger`, which Linux lacks.
struct DocLogger {
  func warning(_ message: String) {}
}

@MainActor @Observable
final class DocModel {
  @ObservationIgnored @Loadables.Process var saving: SingleProcessState

  func block(
    api: any OutboxAPI, store: LoaderStore, post: Post, title: String, rename: RenamePost,
    logger: DocLogger
  ) async throws {
    // <block>
  }
}

// The context of OutboxEdit.swift's fragments, whose first example declares `RenamePost`
// itself: the body of a method of a main-actor model, with `store`, `api` and `post` as
// parameters. The later examples, which use `RenamePost`, are compiled in Outbox.swift's
// context.
import DocSupport
import Foundation
import Loadables
import Observation

protocol OutboxAPI: Sendable {
  func rename(_ id: Post.ID, to title: String, idempotencyKey: String) async throws
}

@MainActor
final class DocModel {
  func block(api: any OutboxAPI, store: LoaderStore, post: Post) async throws {
    // <block>
  }
}

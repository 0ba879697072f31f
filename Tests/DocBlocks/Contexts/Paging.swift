// The context of the paging doc comments' fragments (Sources/Loadables/Paging): the body of a
// method of a main-actor model, with an `api` whose calls return pages as the fragments read
// them, and a `feed` loader and a page `response` as parameters.
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

struct FeedPage: Sendable {
  let posts: [Post]
  let nextCursor: String?
}

struct Message: Identifiable, Sendable {
  let id: Int
}

struct MessagesPage: Sendable {
  let messages: [Message]
  let older: String?
  let newer: String?
}

struct MessagesResponse: Sendable {
  let messages: [Message]
  let olderCursor: String?
  let newerCursor: String?
}

protocol PagingAPI: Sendable {
  func posts(page: Int, perPage: Int) async throws -> [Post]
  func posts(page: Int) async throws -> [Post]
  func posts(after cursor: String?) async throws -> FeedPage
  func messages(around cursor: String?) async throws -> MessagesPage
}

/// The app's client (compiled, never run).
nonisolated var api: any PagingAPI { fatalError() }

@MainActor
final class DocModel {
  func block(feed: PagedLoader<Post, Int>, response: MessagesResponse) async throws {
    // <block>
  }
}

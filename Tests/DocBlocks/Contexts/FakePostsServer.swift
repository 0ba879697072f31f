// Sharing State Across Screens's test: the body of a method of a main-actor test class, with
// `FakePostsServer`, "the test's fake: it answers from a list of posts and records each
// request" (an API and an editor of the page's PostsRepository).
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

@MainActor
final class FakePostsServer: PostsAPI, PostEditor {
  private var posts: [Post]
  private(set) var requests: [String] = []

  init(posts: [Post]) { self.posts = posts }

  func posts() async throws -> [Post] {
    requests.append("posts")
    return posts
  }
  func post(_ id: Post.ID) async throws -> Post {
    requests.append("post \(id)")
    guard let post = posts.first(where: { $0.id == id }) else { throw URLError(.badURL) }
    return post
  }
  func search(_ text: String) async throws -> [Post] { posts }
  func page(_ number: Int) async throws -> [Post] { posts }
  func rename(_ id: Post.ID, to title: String) async throws {
    requests.append("rename \(id)")
  }
}

@MainActor @Observable
final class DocModel {
  var unused = 0

  func block() async throws {
    // <block>
  }
}

// ScriptedFake's example: the app's `PostsAPI` with the two calls the fake answers, and the
// body of a method of a main-actor test class given the `model` under test, whose `search`
// calls the fake, and the posts the test answers with.
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

protocol PostsAPI: Sendable {
  func posts() async throws -> [Post]
  func search(_ text: String) async throws -> [Post]
}

@MainActor
final class SearchModel {
  func search(_ text: String) {}
}

@MainActor @Observable
final class DocModel {
  var unused = 0

  func block(model: SearchModel, api: FakePostsAPI, posts: [Post], newer: [Post]) async throws {
    // <block>
  }
}

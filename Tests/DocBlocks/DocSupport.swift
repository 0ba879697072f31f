// The declarations the documentation shows once and then uses in later blocks, compiled as
// the module DocSupport that every block of .ci/doc-blocks imports. Each is written as the
// page that shows it declares it (a block that declares one itself shadows this one).
import Foundation
public import Loadables

public struct Book: Identifiable, Hashable, Sendable, Codable {
  public let id: Int
  public var title: String
  public init(id: Int, title: String) {
    self.id = id
    self.title = title
  }
}

public protocol BookAPI: Sendable {
  func books() async throws -> [Book]
  func save(_ book: Book) async throws
  func delete(_ id: Book.ID) async throws
}

public struct Post: Identifiable, Hashable, Sendable, Codable {
  public let id: Int
  public var title: String
  public init(id: Int, title: String) {
    self.id = id
    self.title = title
  }
}

public protocol PostsAPI: Sendable {
  func posts() async throws -> [Post]
  func post(_ id: Post.ID) async throws -> Post
  func search(_ text: String) async throws -> [Post]
  func page(_ number: Int) async throws -> [Post]
}

public struct File: Hashable, Sendable {
  public let name: String
  public init(name: String) { self.name = name }
}

public protocol FileAPI: Sendable {
  func download(_ name: String) async throws -> File
}

/// An API that answers at once, for the contexts' members.
public struct DocPostsAPI: PostsAPI {
  public init() {}
  public func posts() async throws -> [Post] { [] }
  public func post(_ id: Post.ID) async throws -> Post { Post(id: id, title: "") }
  public func search(_ text: String) async throws -> [Post] { [] }
  public func page(_ number: Int) async throws -> [Post] { [] }
}

/// The model the Progress article's view reads.
@MainActor
public final class DocProgressModel {
  @Loadable public var posts: LoadableState<[Post]>
  public init() {}
  public func refresh() { $posts.load { [] } }
}

/// The API the doc comments' fragments call `api`: every call they make.
public protocol DocAPI: Sendable {
  func feed() async throws -> [Post]
  func posts() async throws -> [Post]
  func post(_ id: Post.ID) async throws -> Post
  func search(_ text: String) async throws -> [Post]
  func books() async throws -> [Book]
  func numbers() async throws -> [Int]
  func rename(_ id: Post.ID, to title: String, idempotencyKey: String) async throws
}

/// A row of a list that loads its post (Composing Policies).
@MainActor
public final class PostRow {
  public let id: Post.ID
  @Loadable public var post: LoadableState<Post>

  public init(id: Post.ID) { self.id = id }
}

/// The test stub of Testing Time-Based Code, which Loader Objects uses too.
@MainActor
public final class StubPostsAPI: PostsAPI {
  /// The outcome of each call, in order; the last one repeats.
  public var script: [Result<[Post], any Error>]
  /// How long each call takes on `clock`, as a server would; zero answers at once.
  public var latency: Duration = .zero
  /// Each call made, such as `"search swift"`.
  public private(set) var calls: [String] = []
  private let clock: any Clock<Duration>

  public init(_ script: [Result<[Post], any Error>], clock: any Clock<Duration>) {
    self.script = script
    self.clock = clock
  }

  public func posts() async throws -> [Post] { try await answer("posts") }
  public func post(_ id: Post.ID) async throws -> Post { try await answer("post \(id)")[0] }
  public func search(_ text: String) async throws -> [Post] { try await answer("search \(text)") }
  public func page(_ number: Int) async throws -> [Post] { try await answer("page \(number)") }

  private func answer(_ call: String) async throws -> [Post] {
    calls.append(call)
    let outcome = script[min(calls.count, script.count) - 1]
    if latency > .zero { try await clock.sleep(for: latency) }
    return try outcome.get()
  }
}

/// The definition of a post's entry (Sharing State Across Screens).
public struct PostQuery: LoadDefinition {
  public let id: Post.ID
  public let api: any PostsAPI
  public var key: LoadKey { ["posts", id] }
  public var staleTime: Duration? { .seconds(30) }
  public func fetch() async throws -> Post { try await api.post(id) }
  public init(id: Post.ID, api: any PostsAPI) {
    self.id = id
    self.api = api
  }
}

/// A story of Lists That Page's feed.
public struct Story: Identifiable, Equatable, Sendable {
  public let id: Int
  public var title: String
  public init(id: Int, title: String) {
    self.id = id
    self.title = title
  }
}

/// The API of Lists That Page's feed.
public protocol StoriesAPI: Sendable {
  func stories(after cursor: String?) async throws -> (stories: [Story], next: String?)
  func story(_ id: Story.ID) async throws -> Story
  func rename(_ id: Story.ID, to title: String) async throws
}

/// The first page has no cursor: "" stands for it (Lists That Page).
public func storiesSource(_ api: any StoriesAPI) -> PagedSource<Story, String> {
  PagedSource(first: "", policy: .retry(maxAttempts: 3)) { cursor in
    let response = try await api.stories(after: cursor.isEmpty ? nil : cursor)
    return Page(items: response.stories, next: response.next)
  }
}

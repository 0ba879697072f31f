// The context of the doc comments of the wrappers, policies, states, loaders, events and
// connectivity (Sources/Loadables/Wrappers, Policies, States, Loaders, Events, Network,
// Progress): the body of a method of a main-actor model, with the wrapped states the fragments
// load as members, an `api` with every call they make, and the other names they use as
// parameters.
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

struct User: Identifiable, Sendable {
  let id: Int
}

struct Profile: Sendable {}
struct Report: Sendable {}
struct Weather: Sendable {}
struct Draft: Sendable {}
struct Dashboard: Sendable {}

nonisolated enum Action: Equatable, Sendable { case save, delete }

protocol ModelAPI: Sendable {
  func numbers() async throws -> [Int]
  func numberStream() -> AsyncThrowingStream<Int, any Error>
  func numberUpdates() -> AsyncThrowingStream<[Int], any Error>
  func feed() async throws -> [Post]
  func posts() async throws -> [Post]
  func post(_ id: Post.ID) async throws -> Post
  func page(_ number: Int) async throws -> [Post]
  func search(_ text: String) async throws -> [Post]
  func profile() async throws -> Profile
  func profile(_ id: User.ID) async throws -> Profile
  func report() async throws -> Report
  func weather(_ city: String) async throws -> Weather
  func avatar(_ id: User.ID) async throws -> Data
  func thumbnail(_ id: Post.ID) async throws -> Data
  func download(_ name: String) async throws -> File
  func save(_ draft: Draft) async throws
  func save() async throws
  func delete(_ item: Post) async throws
}

/// The app's client (compiled, never run).
nonisolated var api: any ModelAPI { fatalError() }

/// A row that loads its own value, as the policies' examples show many of.
@MainActor
final class PostRow {
  let id: Post.ID
  @Loadable var post: LoadableState<Post>
  @Loadable var avatar: LoadableState<Data>
  @Loadable var thumbnail: LoadableState<Data>
  init(id: Post.ID) { self.id = id }
}

@MainActor
final class FileRow {
  let name: String
  @Loadable var data: LoadableState<File>
  init(name: String) { self.name = name }
}

/// The app's own queue and reachability, as the connectivity examples speak of them.
@MainActor
final class AppOutbox {
  func sendNext() async throws {}
}

/// Stands in for `os.Logger`, which Linux lacks.
struct DocLogger {
  func debug(_ message: String) {}
}

@MainActor
final class Reachability {
  var onChange: (Bool) -> Void = { _ in }
}

@MainActor
final class SearchModel {
  func refresh() {}
  func search(_ text: String) {}
}

@MainActor @Observable
final class DocModel {
  @ObservationIgnored @Loadable var numbers: LoadableState<[Int]>
  @ObservationIgnored @Loadable var feed: LoadableState<[Post]>
  @ObservationIgnored @Loadable var results: LoadableState<[Post]>
  @ObservationIgnored @Loadable var profile: LoadableState<Profile>
  @ObservationIgnored @Loadable var report: LoadableState<Report>
  @ObservationIgnored @Loadable var files: LoadableState<[File]>
  @ObservationIgnored @Loadables.Process var saving: SingleProcessState
  @ObservationIgnored @Loadables.Process var action: ProcessState<Action>
  var received = 0
  var expected = 1

  func block(
    store: LoaderStore, id: Post.ID, item: Post, draft: Draft, user: User, row: PostRow,
    next: PostRow, files: [FileRow], names: [String], downloads: ConcurrencyLimiter,
    images: ConcurrencyLimiter, model: SearchModel, policy: LoadPolicy<[Post]>,
    connectivity: Connectivity, reachability: Reachability, outbox: AppOutbox, name: String,
    isSignedIn: Bool, city: String, logger: DocLogger, profiles: LoadCache<User.ID, Profile>,
    download: AsyncThrowingStream<Data, any Error>
  ) async throws {
    // <block>
  }
}

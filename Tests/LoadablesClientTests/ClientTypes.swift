import Foundation
import Loadables
import Observation

// An app module as Xcode 26 makes it (this target's settings in Package.swift: default
// isolation MainActor, NonisolatedNonsendingByDefault, InferIsolatedConformances). Every
// type here is declared plainly, as a user writes it: each is main-actor isolated, and its
// Equatable, Hashable and Codable conformances are main-actor isolated too.

enum Action: Equatable, Sendable {
  case save
  case delete
}

enum Tab: Codable, Hashable, Sendable {
  case inbox
  case archive
}

/// A key part used in a definition's `key`: that requirement is nonisolated (a definition is
/// `Sendable`), so the part's `Hashable` must be nonisolated too. In main-actor code, `Tab`
/// above serves as a key part as written.
nonisolated enum Folder: Hashable, Sendable {
  case inbox
}

struct Post: Identifiable, Codable, Equatable, Sendable {
  let id: Int
  var title: String
}

/// A cursor of the module's own: a paged list's cursor is saved with the list and travels
/// with its pages through the store, so its `Equatable` must be nonisolated (an `Int` or a
/// `String` cursor needs nothing).
nonisolated struct PageToken: Equatable, Sendable {
  let offset: Int
}

enum ClientError: Error, Equatable {
  case offline
}

/// An edit as a value, saved before it is sent.
struct RenamePost: OutboxEdit {
  static let name = "RenamePost"
  let id: Int
  let title: String
  var scope: LoadKey { ["posts", id] }

  func applyOptimistically(to edit: inout SharedEdit, in store: LoaderStore) {
    edit.update(matching: ["posts"], in: store, as: [Post].self) { posts in
      if let index = posts.firstIndex(where: { $0.id == id }) { posts[index].title = title }
    }
  }
}

/// A paged list the store shares, described once.
struct PostPages: PagedLoadDefinition {
  let posts: [Post]
  var key: LoadKey { ["pages", Folder.inbox] }
  var source: PagedSource<Post, PageToken> {
    PagedSource(first: PageToken(offset: 0)) { [posts] token in
      let end = min(token.offset + 2, posts.count)
      return Page(
        items: Array(posts[token.offset..<end]),
        next: end < posts.count ? PageToken(offset: end) : nil)
    }
  }
}

/// The property-wrapper forms on a model.
@Observable
final class EditorModel {
  @ObservationIgnored @Loadable var post: LoadableState<Post>
  @ObservationIgnored @Loadables.Process var action: ProcessState<Action>
  @ObservationIgnored @Paged var feed: PagedState<Post, PageToken>
}

/// The key-path forms on a model.
@Observable
final class SupportModel: LoadableSupport, ProcessSupport {
  var post: LoadableState<Post> = .absent
  var action: ProcessState<Action> = .idle
  var feed: PagedState<Post, PageToken> = PagedState()
}

/// A loader object.
final class PostLoader: BaseLoader<[Post]> {
  let posts: [Post]

  init(posts: [Post]) {
    self.posts = posts
    super.init()
  }

  override func fetch() async throws -> [Post] { posts }
}

/// SwiftUI's `State` as its SDK declares it: a property wrapper that is not isolated (SwiftUI
/// is not built with default main-actor isolation), so a stored property's initial value is
/// evaluated outside the main actor.
@propertyWrapper
nonisolated struct ViewState<Value> {
  var wrappedValue: Value
}

/// A view's loader stored as LoadingView's Demo stores its `BlockLoadable`: `@State private var
/// loader = BlockLoader { ... }`, with a closure that awaits. Before `BlockLoader.init` was
/// nonisolated this failed with "default argument cannot be both main actor-isolated and
/// nonisolated".
struct GreetingScreen {
  @ViewState var loader = BlockLoader {
    await Task.yield()
    return "hello"
  }
}

// The context of the SwiftUI fragments of the shared entries' and loaders' doc comments
// (Sources/Loadables/Shared, Loaders, Handle): the body of a view (compiled against the
// stand-in SwiftUI module) with the entries and loaders the fragments read. The stand-in
// lacks a few SwiftUI declarations the fragments use (`Label`, `redacted(reason:)`, a date
// interpolated with a style); they are declared here with SwiftUI's spelling.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

struct Label: View {
  init(_ titleKey: LocalizedStringKey, systemImage name: String) {}
  var body: some View { EmptyView() }
}

struct RedactionReasons: OptionSet, Sendable {
  let rawValue: Int
  static let placeholder = RedactionReasons(rawValue: 1)
}

extension View {
  nonisolated func redacted(reason: RedactionReasons) -> some View { self }
}

/// The rows and screens the fragments show.
struct PostView: View {
  init(post: Post?) {}
  var body: some View { EmptyView() }
}

struct StoryRow: View {
  init(_ story: Post) {}
  var body: some View { EmptyView() }
}

struct MessageRow: View {
  init(_ message: Post) {}
  var body: some View { EmptyView() }
}

struct OfflineBanner: View {
  var body: some View { EmptyView() }
}

final class FeedLoader: BaseLoader<[Post]> {
  override func fetch() async throws -> [Post] { [] }
}

@MainActor @Observable
final class FeedModel: LoadableSupport, ProcessSupport {
  var feed: LoadableState<[Post]> = .absent
  var saving: ProcessState<Action> = .idle

  nonisolated enum Action: Equatable, Sendable { case save }
}

protocol StoreViewAPI: Sendable {
  func save() async throws
}

struct DocView: View {
  let store: LoaderStore
  let api: any StoreViewAPI
  let post: SharedLoader<Post>
  let entry: SharedLoader<Post>
  let feed: SharedPagedLoader<Post, String>
  let chat: SharedPagedLoader<Post, String>
  let loader: FeedLoader
  let model: FeedModel

  var body: some View {
    EmptyView()
    // <block>
  }
}

// The context of the outbox's SwiftUI fragments (Sources/Loadables/Outbox, LoaderStore+Outbox):
// the body of a view (compiled against the stand-in SwiftUI module) with `store`, `item`,
// `post` and `title`, and the edit type and row the fragments show. The stand-in lacks
// SwiftUI's date interpolated with a style; it is declared here with SwiftUI's spelling.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

struct RenamePost: OutboxEdit {
  static let name = "RenamePost"
  let id: Post.ID
  let title: String

  var scope: LoadKey { ["posts", id] }
}

struct APIError: Error {
  let status: Int
}

struct FailedRow: View {
  init(_ name: String, _ reason: String, retry: @escaping () -> Void) {}
  var body: some View { EmptyView() }
}

struct DocView: View {
  let store: LoaderStore
  let item: OutboxItem
  let post: Post
  let title: String

  var body: some View {
    EmptyView()
    // <block>
  }
}

// The context of the paging doc comments' blocks that declare a model or a view: at the top
// level (compiled against the stand-in SwiftUI module, for the views), with the `api` they
// call and the rows a view shows.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

protocol PagingAPI: Sendable {
  func posts(page: Int, perPage: Int) async throws -> [Post]
}

/// The app's client (compiled, never run).
nonisolated var api: any PagingAPI { fatalError() }

struct PostRow: View {
  init(_ post: Post) {}
  var body: some View { EmptyView() }
}

// <block>

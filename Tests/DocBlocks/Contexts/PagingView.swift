// The context of the paging doc comments' SwiftUI fragments: the body of a view (compiled
// against the stand-in SwiftUI module) with a `@Paged` feed, its source, and the rows the
// fragments show.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

struct PostRow: View {
  init(_ post: Post) {}
  var body: some View { EmptyView() }
}

struct MessageRow: View {
  init(_ message: Post) {}
  var body: some View { EmptyView() }
}

struct ErrorView: View {
  init(_ error: any Error) {}
  var body: some View { EmptyView() }
}

@MainActor @Observable
final class FeedModel: LoadableSupport {
  var feed = PagedState<Post, Int>()
}

struct DocView: View {
  @Paged var feed: PagedState<Post, Int>
  let source: PagedSource<Post, Int>
  let model: FeedModel

  var body: some View {
    EmptyView()
    // <block>
  }
}

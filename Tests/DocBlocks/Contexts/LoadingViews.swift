// LoadingView's examples: the body of a view that shows a loader of posts (`feed`) and a
// `@Loadable` property of books loaded through `api`, with the app's `PostList` and `BookList`
// rows (views the examples use and do not show); compiled against the stand-in SwiftUI module.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

struct PostList: View {
  let posts: [Post]
  init(_ posts: [Post]) { self.posts = posts }
  var body: some View { ForEach(posts) { post in Text(post.title) } }
}

struct BookList: View {
  let books: [Book]
  init(_ books: [Book]) { self.books = books }
  var body: some View { ForEach(books) { book in Text(book.title) } }
}

struct DocView: View {
  let feed: BlockLoader<[Post]>
  let api: any BookAPI
  @Loadable var books: LoadableState<[Book]>

  var body: some View {
    EmptyView()
    // <block>
  }
}

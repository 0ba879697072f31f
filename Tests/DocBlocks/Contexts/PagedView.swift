// A SwiftUI fragment inside a paged list's rows (the recipe of Tests/SwiftUIStandIn/Recipes.swift):
// `posts` are the loaded items of `@Paged var feed`, paged from `source`.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

struct DocView: View {
  @Paged var feed: PagedState<Post, Int>
  let source: PagedSource<Post, Int>

  var body: some View {
    List {
      if case .loaded(let posts) = feed.list {
        // <block>
      }
    }
  }
}

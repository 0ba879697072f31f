// Sharing State Across Screens's views, at the top level (compiled against the stand-in), with
// the app's `PostRows`, a view the page uses and does not show.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

struct PostRows: View {
  let posts: [Post]

  var body: some View {
    ForEach(posts) { post in Text(post.title) }
  }
}

// <block>

// `onLoadableError` and `onProcessFailed` (FailureWatcher.swift): the body of a book editor
// with a `@Loadable` list, a `@Process` for its save, and the messages the examples set;
// compiled against the stand-in SwiftUI module.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

enum EditorAction: Equatable, Sendable {
  case save
}

struct DocView: View {
  let api: any BookAPI
  let draft: Book
  @Loadable var books: LoadableState<[Book]>
  @Loadables.Process var action: ProcessState<EditorAction>
  @State private var alertMessage: String?
  @State private var failureMessage: String?

  var body: some View {
    EmptyView()
    // <block>
  }
}

// `refreshable(_:process:block:)` (View+Refreshable.swift): the body of a view whose books live
// in a store, with a `@Process` for the request, as Swift UI Recipes' "Data in the store";
// compiled against the stand-in SwiftUI module.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

@MainActor @Observable
final class BookStore {
  private(set) var books: [Book] = []
  private let api: any BookAPI

  init(api: any BookAPI) {
    self.api = api
  }

  func reload() async throws {
    books = try await api.books()
  }
}

enum StoreRequest: Equatable, Sendable {
  case load
  case refresh
}

struct DocView: View {
  let store: BookStore
  @Loadables.Process var loading: ProcessState<StoreRequest>

  var body: some View {
    EmptyView()
    // <block>
  }
}

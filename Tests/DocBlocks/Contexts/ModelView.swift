// The context of the SwiftUI fragments of the wrappers', policies' and states' doc comments:
// the body of a view (compiled against the stand-in SwiftUI module) with the wrapped states
// the fragments read and an `api`. The stand-in lacks SwiftUI's `Label`; it is declared here
// with SwiftUI's spelling.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

struct Label: View {
  init(_ titleKey: LocalizedStringKey, systemImage name: String) {}
  var body: some View { EmptyView() }
}

struct Profile: Sendable {}

struct NumbersList: View {
  init(_ numbers: [Int]) {}
  var body: some View { EmptyView() }
}

struct OfflineBanner: View {
  var body: some View { EmptyView() }
}

nonisolated enum Action: Equatable, Sendable { case save, delete }

protocol ModelViewAPI: Sendable {
  func feed() async throws -> [Post]
  func profile() async throws -> Profile
  func save() async throws
}

@MainActor @Observable
final class FeedModel: LoadableSupport {
  var feed: LoadableState<[Post]> = .absent
  @ObservationIgnored @Loadables.Process var action: ProcessState<Action>
}

struct DocView: View {
  @Loadable var feed: LoadableState<[Post]>
  @Loadable var profile: LoadableState<Profile>
  @Loadable var numbers: LoadableState<[Int]>
  @Loadable var files: LoadableState<[File]>
  @Loadables.Process var action: ProcessState<Action>
  let api: any ModelViewAPI
  let model: FeedModel

  var body: some View {
    EmptyView()
    // <block>
  }
}

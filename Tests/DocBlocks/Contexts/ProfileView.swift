// loadedBinding's example: the body of a view with a `@Loadable var profile` and the app's
// `ProfileEditor`, which edits a binding to the loaded profile; compiled against the stand-in
// SwiftUI module.
import DocSupport
import Foundation
import Loadables
import Observation
import SwiftUI

struct Profile: Equatable, Sendable {
  var name: String
}

struct ProfileEditor: View {
  let profile: Binding<Profile>
  var body: some View { Text(profile.wrappedValue.name) }
}

struct DocView: View {
  @Loadable var profile: LoadableState<Profile>

  var body: some View {
    EmptyView()
    // <block>
  }
}

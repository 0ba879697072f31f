// The context of Working Offline's fragments: the body of a method of a main-actor model, with
// the names the page's prose gives them (the profile as a wrapped state, the rest as
// parameters): the store, the app's API and logger, the folder and key of the encrypted
// backend, a connectivity source and a persistence saved before a relaunch.
import DocSupport
import Foundation
import Loadables
import LoadablesTesting
import Observation

struct Profile: Codable, Equatable, Sendable {
  var name: String
}

/// The calls the page makes of `api`.
protocol OfflineAPI: Sendable {
  func feed() async throws -> [Post]
  func profile() async throws -> Profile
  func rename(_ id: Post.ID, to title: String, idempotencyKey: String) async throws
}

/// The app's logger (the page does not say which; any with a `notice(_:)` taking a string).
struct AppLogger: Sendable {
  func notice(_ message: String) {}
}

@MainActor @Observable
final class DocModel {
  @ObservationIgnored @Loadable var profile: LoadableState<Profile>

  func block(
    api: any OfflineAPI, store: LoaderStore, logger: AppLogger, folder: URL, secret: UInt8,
    connectivity: Connectivity, saved: StorePersistence
  ) async throws {
    // <block>
  }
}

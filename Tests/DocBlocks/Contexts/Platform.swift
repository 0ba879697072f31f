// The context of the fragments that use the platform's API (UIKit's app notifications, the
// system's connectivity, os's Logger and OSSignposter): the body of a method of a main-actor
// model, compiled against the stand-in modules of .ci/swiftui-check, with `store` and `api`.
import DocSupport
import Foundation
import Loadables
import Network
import Observation
import SwiftUI
import UIKit
import os

protocol PlatformAPI: Sendable {
  func feed() async throws -> [Post]
}

@MainActor
final class DocModel {
  @Loadable var feed: LoadableState<[Post]>

  func block(api: any PlatformAPI, store: LoaderStore, logger: Logger) async throws {
    // <block>
  }
}

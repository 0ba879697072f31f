import Foundation
import XCTest

extension XCTestCase {
  /// A fresh directory path under the system's temporary directory (not created), removed
  /// when the test ends.
  func temporaryDirectory(_ label: String = "persistence") -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("loadables-\(label)-\(UUID().uuidString)", isDirectory: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    return url
  }
}

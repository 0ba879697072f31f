// swift-format-ignore-file
// (The template is completed by the fragment: `let backend = ` followed by it.)
//
// The context of a persistence fragment written as an argument is, starting with a static
// member (`.directory(url, protection: ...)`): the value of a backend.
import DocSupport
import Foundation
import Loadables

@MainActor
func block(url: URL) {
  let backend: DirectoryPersistence =
    // <block>
  _ = backend
}

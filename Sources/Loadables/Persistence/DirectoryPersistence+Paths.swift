// Names and paths: a key's file name, a file's path in the directory, and the directory's
// own path, standardized at a backend's making. Spelled by hand, in one pass where it is hot.

import Foundation

extension DirectoryPersistence {
  /// The name of `key`'s file.
  ///
  /// - Parameter key: A key.
  /// - Returns: A file name inside the directory.
  func fileName(for key: PersistentKey) -> String {
    Self.join(hash(key), UInt8(ascii: "."), Self.fileExtension)
  }

  /// The path of `url`, standardized (no `.` or `..` component, no trailing `/`).
  ///
  /// A path made in code is usually standard already: it is checked byte by byte, and only
  /// one that is not goes through Foundation's standardizing, which cost more than a launch's
  /// read of a record. The path is taken percent-encoded (a slice of the URL's string) when
  /// it holds no escape, since decoding it (`url.path`) costs several times more and reads
  /// the same.
  static func standardizedPath(_ url: URL) -> String {
    if url.baseURL == nil {
      var path = url.path(percentEncoded: true)
      if let length = path.withUTF8({ standardLength($0, escaped: false) }) {
        if length < path.utf8.count {
          path = String(decoding: path.utf8.prefix(length), as: UTF8.self)
        }
        return path
      }
    }
    var path = url.path
    if path.withUTF8({ standardLength($0, escaped: true) }) == path.utf8.count { return path }
    return url.standardizedFileURL.path
  }

  /// The length of `path` without its trailing `/` when it is absolute with no `.` or empty
  /// component (and, unless `escaped`, no percent escape); `nil` when it is not.
  private static func standardLength(_ path: UnsafeBufferPointer<UInt8>, escaped: Bool) -> Int? {
    guard path.first == UInt8(ascii: "/") else { return nil }
    var previous: UInt8 = 0
    for byte in path {
      if !escaped, byte == UInt8(ascii: "%") { return nil }
      // A `.` or an empty component starts after a `/`.
      if previous == UInt8(ascii: "/"), byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/") {
        return nil
      }
      previous = byte
    }
    return path.count > 1 && previous == UInt8(ascii: "/") ? path.count - 1 : path.count
  }

  /// The file name of `key` and its path, remembered for the keys written lately: naming a
  /// file digests its key, and spelling its path copies the directory's.
  func recentPath(for key: PersistentKey) -> (name: String, path: String) {
    if let known = recentPaths[key.identity] { return known }
    let name = fileName(for: key)
    let paths = (name: name, path: filePath(name))
    if recentPaths.count >= Self.recentPathLimit { recentPaths.removeAll(keepingCapacity: true) }
    recentPaths[key.identity] = paths
    return paths
  }

  /// The path of file `name` in the directory.
  func filePath(_ name: String) -> String { Self.join(path, UInt8(ascii: "/"), name) }

  /// `head`, `separator` and `tail` in one string, spelled in one pass over a buffer of its
  /// size: each `+` copies what it is given, and checks and grows the string.
  static func join(_ head: String, _ separator: UInt8, _ tail: String) -> String {
    var (head, tail) = (head, tail)
    return head.withUTF8 { head in
      tail.withUTF8 { tail in
        String(unsafeUninitializedCapacity: head.count + 1 + tail.count) { buffer in
          var end = buffer.baseAddress!
          if let start = head.baseAddress { end.initialize(from: start, count: head.count) }
          end += head.count
          end.initialize(to: separator)
          end += 1
          if let start = tail.baseAddress { end.initialize(from: start, count: tail.count) }
          return head.count + 1 + tail.count
        }
      }
    }
  }
}

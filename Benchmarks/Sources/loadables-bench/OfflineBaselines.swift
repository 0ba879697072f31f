import Foundation
import Observation

#if canImport(Glibc)
  import Glibc
#endif

// What the offline scenarios are measured against: what an engineer writes without the
// library to keep their own Codable values on disk — JSONEncoder and a careful atomic write
// (a temporary file, `fsync`, a rename, an `fsync` of the directory so the rename survives a
// power loss), JSONDecoder and `Data(contentsOf:)` at launch, and their own queued-edit
// files. Nothing of the library's is used here.

/// The small Codable value both sides save: one post.
struct BenchPost: Codable, Sendable, Equatable {
  let id: Int
  let title: String
  let likes: Int
}

/// The post the offline scenarios fetch and save for `id`.
func benchPost(_ id: Int) -> BenchPost {
  BenchPost(id: id, title: "Post \(id)", likes: 42)
}

/// The engineer's own state enum for a post.
enum HandPostState {
  case idle
  case loading
  case loaded(BenchPost)
  case failed(any Error)

  var value: BenchPost? {
    if case .loaded(let value) = self { return value }
    return nil
  }
}

/// One observed post: fetched by a task callers wait for, or made from a saved value.
@MainActor @Observable
final class HandPostBox {
  private(set) var state: HandPostState
  @ObservationIgnored private let fetch: @MainActor () async throws -> BenchPost

  init(
    restoring value: BenchPost? = nil, fetch: @escaping @MainActor () async throws -> BenchPost
  ) {
    state = value.map { .loaded($0) } ?? .idle
    self.fetch = fetch
  }

  /// Fetches again, keeping the value on screen meanwhile.
  @discardableResult
  func refresh() async -> HandPostState {
    if state.value == nil { state = .loading }
    let task = Task { [weak self] in
      guard let self else { return }
      do {
        self.state = .loaded(try await self.fetch())
      } catch {
        self.state = .failed(error)
      }
    }
    await task.value
    return state
  }
}

/// The engineer's file calls.
enum HandFiles {
  struct Failure: Error {
    let operation: String
    let code: Int32
  }

  /// Writes `data` to `path` atomically: a temporary file, written and synced, renamed over
  /// `path`, then the directory synced.
  static func writeAtomically(_ data: Data, to path: String, in directory: String) throws {
    let temporary = path + ".tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw Failure(operation: "open", code: errno) }
    var failure: Failure?
    data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = Failure(operation: "write", code: errno)
          return
        }
        offset += written
      }
    }
    if failure == nil, fsync(descriptor) != 0 { failure = Failure(operation: "fsync", code: errno) }
    close(descriptor)
    if let failure {
      unlink(temporary)
      throw failure
    }
    guard rename(temporary, path) == 0 else { throw Failure(operation: "rename", code: errno) }
    let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directoryDescriptor >= 0 {
      fsync(directoryDescriptor)
      close(directoryDescriptor)
    }
  }

  /// Reads and decodes the value saved at `path`, or `nil` when there is none or it cannot be
  /// decoded.
  static func read<Value: Decodable>(
    _ type: Value.Type, at path: String, decoder: JSONDecoder
  ) -> Value? {
    guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else { return nil }
    return try? decoder.decode(type, from: data)
  }

  /// The file the engineer keeps post `id` in.
  static func postPath(_ id: Int, in directory: String) -> String {
    directory + "/post-\(id).json"
  }
}

/// The engineer's own queued edit: a Codable value saved before it is sent.
struct HandRenameEdit: Codable, Sendable {
  let id: Int
  let title: String
}

/// The engineer's own outbox with the library's rule: each edit written durably, sent with
/// the handler, and its file rewritten durably as committed (the edit and the time it
/// committed), kept to be laid over values saved before the commit, in this launch and the
/// next. Two atomic, synced writes per edit, as the rule needs: one when it is queued, one
/// when it commits. `keepsCommitted: false` is the outbox without that rule, deleting the
/// sent edit's file (one synced write), measured for information.
@MainActor
final class HandOutbox {
  private let directory: String
  private let keepsCommitted: Bool
  private let handler: @MainActor (HandRenameEdit) async throws -> Void
  private let encoder = JSONEncoder()
  private var next = 0
  /// The committed edits, oldest first, with when they committed.
  private(set) var committed: [(edit: HandRenameEdit, path: String, at: Date)] = []

  init(
    directory: String, keepsCommitted: Bool = true,
    handler: @escaping @MainActor (HandRenameEdit) async throws -> Void
  ) {
    self.directory = directory
    self.keepsCommitted = keepsCommitted
    self.handler = handler
  }

  /// Saves `edit`, sends it, and rewrites its file as committed (or deletes it); a failed
  /// send keeps the file for a retry.
  func send(_ edit: HandRenameEdit) async throws {
    next += 1
    let path = directory + "/edit-\(next).json"
    try HandFiles.writeAtomically(try encoder.encode(edit), to: path, in: directory)
    try await handler(edit)
    guard keepsCommitted else {
      unlink(path)
      return
    }
    let committedAt = Date()
    try HandFiles.writeAtomically(
      try encoder.encode(HandCommittedEdit(edit: edit, committedAt: committedAt)), to: path,
      in: directory)
    committed.append((edit, path, committedAt))
  }
}

/// A committed edit's file: the edit and when it committed.
struct HandCommittedEdit: Codable, Sendable {
  let edit: HandRenameEdit
  let committedAt: Date
}

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive lock on a file, shared with other processes: `flock(2)` with
/// `LOCK_EX | LOCK_NB` on a file of its own.
///
/// The kernel releases it when the process dies (a `kill -9` too), so no lock outlives its
/// holder. It belongs to the open file description: two instances on one path conflict even
/// in one process, which is how two stores over one directory in one process (tests) meet
/// the same rule as two processes. Not thread-safe: its owner serializes its calls (the
/// outbox on the main actor, the directory backend under its lock).
final class FileLock {
  /// The lock file's path.
  let path: String
  /// The path as a C string, spelled once: each call given a `String` copies it into a new
  /// array first.
  private lazy var cPath = path.utf8CString
  /// The open lock file, kept open between holds (the outbox's sender takes and releases its
  /// lock at every edit): -1 until first opened, and after the file at `path` was found to be
  /// another. While held, the outbox's `SenderLock` keeps the holder's token in it.
  private(set) var descriptor: Int32 = -1
  /// Whether this instance holds the lock.
  private(set) var isHeld = false

  init(path: String) {
    self.path = path
  }

  deinit {
    unlock()
    if descriptor >= 0 { _ = close(descriptor) }
  }

  /// Takes the lock unless another holder has it; never waits. Creates the file (not its
  /// directory) when missing.
  ///
  /// - Returns: Whether this instance holds the lock now.
  @discardableResult
  func tryLock() -> Bool {
    guard !isHeld else { return true }
    // Another holder may remove the file once it finds its owner dead (see
    // `DirectoryPersistence`'s temporaries), or the folder may be removed by hand: a lock
    // taken on a file no longer at `path` protects nothing, so it is taken again on the new
    // file. Checked at every hold, since the descriptor stays open between holds.
    for _ in 0..<4 {
      if descriptor < 0 {
        guard let opened = openFile() else { return false }
        descriptor = opened
      }
      var locked: Int32
      repeat {
        locked = flock(descriptor, LOCK_EX | LOCK_NB)
      } while locked != 0 && errno == EINTR
      guard locked == 0 else { return false }
      var held = stat()
      var named = stat()
      let statted = cPath.withUnsafeBufferPointer { stat($0.baseAddress!, &named) }
      if fstat(descriptor, &held) == 0, statted == 0, held.st_ino == named.st_ino,
        held.st_dev == named.st_dev
      {
        isHeld = true
        return true
      }
      _ = flock(descriptor, LOCK_UN)
      _ = close(descriptor)
      descriptor = -1
    }
    return false
  }

  /// Opens (or creates) the lock file, and its directory when missing.
  private func openFile() -> Int32? {
    for attempt in 0..<2 {
      var opened: Int32
      repeat {
        opened = cPath.withUnsafeBufferPointer {
          open($0.baseAddress!, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        }
      } while opened < 0 && errno == EINTR
      if opened >= 0 { return opened }
      guard attempt == 0, errno == ENOENT else { return nil }
      try? FileCalls.createDirectories((path as NSString).deletingLastPathComponent)
    }
    return nil
  }

  /// Releases the lock, if held; the file stays open for the next hold.
  func unlock() {
    guard isHeld else { return }
    _ = flock(descriptor, LOCK_UN)
    isHeld = false
  }
}

import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The sender lock of an outbox's directory, and the two signs that tell its holder whether
/// another store over the directory (of this process or another) wrote since it last read.
///
/// Only the holder sends, so the folder changes behind its back in two ways only:
/// - **Another store held the lock** (it may have sent this store's edits, or died holding
///   edits it had queued). Each holder writes its token into the lock file when it takes the
///   lock; a store that finds another's token there reads the whole folder, its own records
///   included.
/// - **Another store saved a record while it did not hold the lock.** It then takes the lock
///   for a moment to write its token (when no one holds it), or, when another holds it,
///   creates the marker file after the record: the holder removes the marker first, then
///   reads the folder, so a record written before a marker is always read and a marker
///   created after the read stays for the next look.
///
/// So the holder reads the folder only when another may have written, not at every lane's
/// end: it looks for the marker (one `access`) instead. Not thread-safe: the outbox calls it
/// on the main actor.
final class SenderLock {
  private let lock: FileLock
  /// The marker's path, beside the lock file, as a C string (a `String` given to a call is
  /// copied into a new array at each call).
  /// Made on first use, as the token is: a store that never sends (an app's launch that
  /// only shows saved values) pays for neither.
  private lazy var markerPath: ContiguousArray<CChar> = {
    let path = lock.path
    guard let slash = path.lastIndex(of: "/") else { return Self.markerName.utf8CString }
    return (path[...slash] + Self.markerName).utf8CString
  }()
  /// This instance's token: unique per lock, so that two stores over one directory in one
  /// process tell each other's holding apart as two processes do.
  private lazy var token: (UInt64, UInt64) = {
    var generator = SystemRandomNumberGenerator()
    return (generator.next(), generator.next())
  }()
  /// Whether another store may have held the lock since this one last read the folder
  /// whole: true until the first read (the store's launch read the folder before any other
  /// could have sent).
  private var othersHeld = true

  /// The marker's name in the outbox's directory.
  static let markerName = ".loadables-outbox-changed"

  init(_ lock: FileLock) {
    self.lock = lock
  }

  /// Whether this store holds the lock.
  var isHeld: Bool { lock.isHeld }

  /// What the holder must read, now that it took the lock.
  enum Catch: Equatable {
    /// Nothing changed behind its back.
    case nothing
    /// Another store saved a record (the marker): the records it knows no key for.
    case newRecords
    /// Another store held the lock: every record, its own included.
    case everything
  }

  /// Takes the lock unless another store holds it; never waits.
  ///
  /// - Returns: `nil` when another store holds it; else what to read before sending (the
  ///   marker, if any, is removed already).
  func take() -> Catch? {
    guard lock.tryLock() else { return nil }
    stamp()
    let marked = removeMarker()
    if othersHeld {
      othersHeld = false
      return .everything
    }
    return marked ? .newRecords : .nothing
  }

  /// For the holder, at a lane's end or its periodic look: whether another store saved a
  /// record since the last look (the marker, removed now: read the folder after this).
  func takeMarker() -> Bool { removeMarker() }

  /// Tells the holder, whoever it is, that this store saved a record: after the record is
  /// written, never before. Nothing to do while this store holds the lock.
  func noteWrite() {
    guard !lock.isHeld else { return }
    if lock.tryLock() {
      stamp()
      lock.unlock()
      return
    }
    let descriptor = markerPath.withUnsafeBufferPointer {
      open($0.baseAddress!, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
    }
    if descriptor >= 0 { _ = close(descriptor) }
  }

  func unlock() { lock.unlock() }

  /// Reads the holder's token left in the lock file, notes whether it was another's, and
  /// writes this store's.
  private func stamp() {
    guard lock.isHeld else { return }
    let descriptor = lock.descriptor
    let size = MemoryLayout<(UInt64, UInt64)>.size
    var (mine, last) = (token, (UInt64(0), UInt64(0)))
    let read = withUnsafeMutableBytes(of: &last) { pread(descriptor, $0.baseAddress, size, 0) }
    if read != size || last != mine { othersHeld = true }
    let written = withUnsafeBytes(of: &mine) { pwrite(descriptor, $0.baseAddress, size, 0) }
    // Not written: no token is left, so whoever takes the lock next reads everything (an
    // older token left in place could be the next holder's own, and wrongly reassure it).
    if written != size { _ = ftruncate(descriptor, 0) }
  }

  /// Removes the marker. Returns whether there was one.
  private func removeMarker() -> Bool {
    markerPath.withUnsafeBufferPointer { path in
      guard access(path.baseAddress!, F_OK) == 0 else { return false }
      _ = unlink(path.baseAddress!)
      return true
    }
  }
}

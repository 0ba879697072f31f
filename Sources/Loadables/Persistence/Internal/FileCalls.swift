import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few POSIX calls the directory backend needs, each retried on `EINTR` and returning
/// `errno` on failure. The calls of a write take their paths through `withCString`: a
/// `String` passed as a C string is copied into a new array at each call. Foundation offers no `fsync` of a file or a directory, and
/// `Data.write(options: .atomic)` renames without syncing, so a crash of the system could
/// leave an empty file behind the new name.
enum FileCalls {
  /// Why a call failed: the call's name and `errno`.
  struct Failure: Error {
    let operation: String
    let code: Int32
  }

  /// Writes `bytes` to a new file at `path` (which must not exist), sets its modification
  /// time to `modified` (nanoseconds since 1970) when given, and syncs it to disk.
  static func createSynced(_ path: String, bytes: [UInt8], modified: Int64? = nil)
    throws(Failure)
  {
    let descriptor = try retrying("open") {
      path.withCString { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
    }
    defer { _ = close(descriptor) }
    var offset = 0
    while offset < bytes.count {
      let written = try retrying("write") {
        bytes.withUnsafeBytes { buffer in
          write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        }
      }
      offset += written
    }
    if let modified {
      _ = try retrying("futimens") {
        withTimes(modified) { futimens(descriptor, $0) }
      }
    }
    _ = try retrying("fsync") { fsync(descriptor) }
  }

  /// The whole content of the file at `path`, or `nil` when there is none.
  static func contents(_ path: String) throws(Failure) -> [UInt8]? {
    let descriptor: Int32
    do {
      descriptor = try retrying("open") { open(path, O_RDONLY | O_CLOEXEC) }
    } catch  where error.code == ENOENT || error.code == ENOTDIR {
      return nil
    }
    defer { _ = close(descriptor) }
    // Read straight into an array of the file's size (plus one byte, to see the end without
    // growing it): a record is small, and a fixed 64 KiB chunk, zeroed and copied at every
    // read, cost more than the rest of an entry's restore.
    var info = stat()
    let size = fstat(descriptor, &info) == 0 ? max(0, Int(info.st_size)) : 0
    var bytes = [UInt8](repeating: 0, count: size + 1)
    var filled = 0
    while true {
      if filled == bytes.count {
        bytes.append(contentsOf: repeatElement(0, count: Swift.max(bytes.count, 4096)))
      }
      let count = try retrying("read") {
        bytes.withUnsafeMutableBytes {
          read(descriptor, $0.baseAddress! + filled, $0.count - filled)
        }
      }
      if count == 0 { break }
      filled += count
    }
    bytes.removeLast(bytes.count - filled)
    return bytes
  }

  /// Renames `source` over `target` atomically.
  static func move(_ source: String, over target: String) throws(Failure) {
    _ = try retrying("rename") {
      source.withCString { source in target.withCString { rename(source, $0) } }
    }
  }

  /// Syncs the directory at `path`, so that a rename in it survives a crash of the system.
  static func syncDirectory(_ path: String) throws(Failure) {
    let descriptor = try retrying("open") {
      path.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    }
    defer { _ = close(descriptor) }
    _ = try retrying("fsync") { fsync(descriptor) }
  }

  /// Removes the file at `path`; a file already gone (or a directory never made) is no
  /// failure.
  static func remove(_ path: String) throws(Failure) {
    do {
      _ = try retrying("unlink") { unlink(path) }
    } catch  where error.code == ENOENT || error.code == ENOTDIR {}
  }

  /// Sets the file's modification time (the byte budget's record of a use), in nanoseconds
  /// since 1970.
  static func setModified(_ path: String, nanoseconds: Int64) {
    _ = withTimes(nanoseconds) { utimensat(AT_FDCWD, path, $0, 0) }
  }

  /// Calls `body` with the access and modification times both at `nanoseconds` since 1970,
  /// as `utimensat` and `futimens` take them.
  private static func withTimes<T>(
    _ nanoseconds: Int64, _ body: (UnsafePointer<timespec>) -> T
  ) -> T {
    let time = timespec(
      tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    return withUnsafePointer(to: (time, time)) { pair in
      pair.withMemoryRebound(to: timespec.self, capacity: 2, body)
    }
  }

  /// The wall-clock time in nanoseconds since 1970.
  static func now() -> Int64 {
    var time = timespec()
    _ = clock_gettime(CLOCK_REALTIME, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
  }

  /// The size and modification time (in nanoseconds since 1970) of the file at `path`.
  static func status(_ path: String) -> (bytes: Int, modified: Int64)? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    #if canImport(Darwin)
      let time = info.st_mtimespec
    #else
      let time = info.st_mtim
    #endif
    return (Int(info.st_size), Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
  }

  /// Creates the directory at `path` and any missing parents.
  static func createDirectories(_ path: String) throws(Failure) {
    var info = stat()
    if stat(path, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFDIR else {
        throw Failure(operation: "mkdir", code: ENOTDIR)
      }
      return
    }
    let parent = (path as NSString).deletingLastPathComponent
    if !parent.isEmpty, parent != path { try createDirectories(parent) }
    do {
      _ = try retrying("mkdir") { mkdir(path, 0o755) }
    } catch  where error.code == EEXIST {}
  }

  /// When every file in the directory at `path` is a lock file (its name ends with `suffix`;
  /// a live owner holds an exclusive `flock` on it), removes those nobody holds; touches
  /// nothing otherwise.
  ///
  /// Each is removed while this call holds its lock, and only while it is still the file at
  /// its name (as `FileLock` takes one): an owner opening it meanwhile finds it gone and
  /// makes a new one. One that a lock in this process holds stays (an `flock` conflicts
  /// across open files, in one process too). Done by the directory's descriptor, with no
  /// path spelled and no name made into a `String`: a store's launch calls it on the main
  /// actor.
  ///
  /// - Returns: Whether the directory holds nothing but lock files; `false` (nothing touched)
  ///   when it holds another file, or cannot be opened (missing, among others) or read.
  static func removeUnheldLockFiles(in path: String, endingWith suffix: String) -> Bool {
    var opened: Int32
    repeat {
      opened = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    } while opened < 0 && errno == EINTR
    guard opened >= 0 else { return false }
    guard let directory = fdopendir(opened) else {
      _ = close(opened)
      return false
    }
    defer { closedir(directory) }
    return suffix.withCString { suffix in
      // Every name first: a file of another kind leaves the whole sweep to the caller.
      var lockFiles = 0
      while true {
        errno = 0
        guard let name = nextName(directory) else {
          if errno != 0 { return false }
          break
        }
        guard name.ends(with: suffix) else { return false }
        lockFiles += 1
      }
      guard lockFiles > 0 else { return true }
      rewinddir(directory)
      // A file made since the first pass and not a lock file (a live owner's temporary) is
      // left alone.
      while let name = nextName(directory) {
        if name.ends(with: suffix) { removeIfUnheld(name, in: opened) }
      }
      return true
    }
  }

  /// The next name in `directory` other than `.` and `..`, in place (valid until the next
  /// read); `nil` at the end or on a failure (`errno`).
  private static func nextName(_ directory: DirectoryStream) -> UnsafePointer<CChar>? {
    let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
    while let entry = readdir(directory) {
      let name = UnsafePointer(
        (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
      if strcmp(name, ".") != 0, strcmp(name, "..") != 0 { return name }
    }
    return nil
  }

  /// Removes the file `name` in the directory open at `folder` when an exclusive `flock` on
  /// it can be taken, holding it while the file is still the one at that name.
  private static func removeIfUnheld(_ name: UnsafePointer<CChar>, in folder: Int32) {
    var opened: Int32
    repeat {
      opened = openat(folder, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    } while opened < 0 && errno == EINTR
    guard opened >= 0 else { return }  // removed already
    defer { _ = close(opened) }  // releases the lock too
    var locked: Int32
    repeat {
      locked = flock(opened, LOCK_EX | LOCK_NB)
    } while locked != 0 && errno == EINTR
    guard locked == 0 else { return }  // its owner lives
    var held = stat()
    var named = stat()
    guard fstat(opened, &held) == 0, fstatat(folder, name, &named, AT_SYMLINK_NOFOLLOW) == 0,
      held.st_ino == named.st_ino, held.st_dev == named.st_dev
    else { return }
    _ = unlinkat(folder, name, 0)
  }

  /// The names in the directory at `path` that start with `prefix`; none when it does not
  /// exist.
  ///
  /// A name is compared in place and made a `String` only when it matches: the launch's
  /// sweep for temporary files must not pay for every record in the directory.
  static func names(in path: String, startingWith prefix: String = "") throws(Failure)
    -> [String]
  {
    guard let directory = opendir(path) else {
      if errno == ENOENT { return [] }
      throw Failure(operation: "opendir", code: errno)
    }
    defer { closedir(directory) }
    let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
    let wanted = prefix.utf8.map { CChar(bitPattern: $0) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let raw = (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self)
      // `strncmp`, not `memcmp`: a record is only as long as its name, so the comparison must
      // stop at a shorter name's NUL rather than read past the record.
      if !wanted.isEmpty, strncmp(raw, wanted, wanted.count) != 0 { continue }
      let name = String(cString: raw)
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  private static func retrying<T: BinaryInteger>(
    _ operation: String, _ call: () -> T
  ) throws(Failure) -> T {
    while true {
      let result = call()
      if result >= 0 { return result }
      if errno != EINTR { throw Failure(operation: operation, code: errno) }
    }
  }
}

/// An open directory, as `opendir` returns it (an opaque type in Glibc).
#if canImport(Darwin)
  private typealias DirectoryStream = UnsafeMutablePointer<DIR>
#else
  private typealias DirectoryStream = OpaquePointer
#endif

extension UnsafePointer<CChar> {
  /// Whether this C string ends with the C string `suffix`.
  fileprivate func ends(with suffix: UnsafePointer<CChar>) -> Bool {
    let length = strlen(self)
    let count = strlen(suffix)
    return length >= count && memcmp(self + (length - count), suffix, count) == 0
  }
}

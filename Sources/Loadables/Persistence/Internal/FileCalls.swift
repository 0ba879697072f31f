import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few POSIX calls the directory backend needs, each retried on `EINTR` and returning
/// `errno` on failure. Foundation offers no `fsync` of a file or a directory, and
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
      open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
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
    _ = try retrying("rename") { rename(source, target) }
  }

  /// Syncs the directory at `path`, so that a rename in it survives a crash of the system.
  static func syncDirectory(_ path: String) throws(Failure) {
    let descriptor = try retrying("open") { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
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

  /// The names in the directory at `path` when every one ends with `suffix` (none when it is
  /// empty): one listing, a name made into a `String` only when it ends so.
  ///
  /// - Returns: `nil` when a name does not end with `suffix`, or when the directory cannot be
  ///   opened (missing, among others) or read.
  static func names(in path: String, allEndingWith suffix: String) -> [String]? {
    guard let directory = opendir(path) else { return nil }
    defer { closedir(directory) }
    let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
    var names: [String] = []
    while true {
      errno = 0
      guard let entry = readdir(directory) else { return errno == 0 ? names : nil }
      let name = (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self)
      if strcmp(name, ".") == 0 || strcmp(name, "..") == 0 { continue }
      let length = strlen(name)
      let ends = suffix.withCString { wanted in
        let count = strlen(wanted)
        return length >= count && memcmp(name + (length - count), wanted, count) == 0
      }
      guard ends else { return nil }
      names.append(String(cString: name))
    }
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
    let wanted = Array(prefix.utf8)
    var names: [String] = []
    while let entry = readdir(directory) {
      let raw = UnsafeRawPointer(entry) + offset
      // `d_name` holds 256 bytes: a name shorter than the prefix differs at its NUL.
      if !wanted.isEmpty, memcmp(raw, wanted, wanted.count) != 0 { continue }
      let name = String(cString: raw.assumingMemoryBound(to: CChar.self))
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

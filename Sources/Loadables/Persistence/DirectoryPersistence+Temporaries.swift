import Foundation

// The temporary files of `DirectoryPersistence`'s atomic writes: their names, and the cleanup
// that removes those no live writer owns. Call with the instance's lock held.
extension DirectoryPersistence {
  /// A new temporary file's path for the record file `name`, in `tmp`, named after this
  /// instance (`<token>~<name>~<count>`); takes this instance's owner lock first.
  func temporaryPath(for name: String) -> String {
    if ownerLock == nil {
      let lock = FileLock(path: temporaryFolderPath + "/" + token + Self.lockSuffix)
      // Not taken (the lock file cannot be made): the write goes on; its temporary is
      // unprotected, so a cleanup in another process may remove it and fail this write.
      if lock.tryLock() { ownerLock = lock }
    }
    // Unique with the token, which no other instance has: spelled from the stem made once,
    // in one pass over a buffer of its size (each `+` on a path copies it, and checks and
    // grows the string).
    temporaryCount &+= 1
    let count = temporaryCount
    let digits = count == 0 ? 1 : (UInt64.bitWidth - count.leadingZeroBitCount + 3) / 4
    var stem = temporaryStem
    var name = name
    return stem.withUTF8 { stem in
      name.withUTF8 { name in
        String(unsafeUninitializedCapacity: stem.count + name.count + 1 + digits) { buffer in
          var end = buffer.baseAddress!
          end.initialize(from: stem.baseAddress!, count: stem.count)
          end += stem.count
          if let start = name.baseAddress { end.initialize(from: start, count: name.count) }
          end += name.count
          end.initialize(to: UInt8(ascii: "~"))
          end += 1
          let hex: StaticString = "0123456789abcdef"
          hex.withUTF8Buffer { hex in
            for index in 0..<digits {
              let shift = UInt64(4 * (digits - 1 - index))
              (end + index).initialize(to: hex[Int((count >> shift) & 0x0f)])
            }
          }
          return stem.count + name.count + 1 + digits
        }
      }
    }
  }

  /// Removes the temporary files no live writer may still rename, reporting each: those of
  /// the layout before the `tmp` folder among `names` (the folder's listing, when the caller
  /// made one), and those in `tmp` whose owner's lock can be taken (its process died, or its
  /// instance went away) or that have no lock file. A live owner's temporaries stay.
  func removeDeadTemporaries(_ names: [String]?, into events: inout [PersistenceEvent]) {
    for name in (names ?? []).filter({ $0.hasPrefix(Self.temporaryPrefix) }).sorted() {
      removeFile(name, reporting: .removedTemporary(file: name), into: &events)
    }
    let folder = Self.temporaryFolder + "/"
    var temporaries: [String: [String]] = [:]
    var lockFiles: Set<String> = []
    for name in (try? FileCalls.names(in: filePath(Self.temporaryFolder))) ?? [] {
      if name.hasSuffix(Self.lockSuffix) {
        lockFiles.insert(String(name.dropLast(Self.lockSuffix.count)))
      } else {
        let owner = name.split(separator: "~", maxSplits: 1).first.map(String.init) ?? name
        temporaries[owner, default: []].append(name)
      }
    }
    for owner in lockFiles.union(temporaries.keys).sorted() where owner != token {
      let lock = FileLock(path: filePath(folder + owner + Self.lockSuffix))
      if lockFiles.contains(owner) {
        guard lock.tryLock() else { continue }  // its owner lives
      }
      for name in (temporaries[owner] ?? []).sorted() {
        removeFile(folder + name, reporting: .removedTemporary(file: folder + name), into: &events)
      }
      // Removed while held: an owner that opens it again finds it gone and makes a new one.
      if lockFiles.contains(owner) { try? FileCalls.remove(lock.path) }
      lock.unlock()
    }
  }
}

import Foundation

// `DirectoryPersistence`'s byte budget: the recency index, built from the files' sizes and
// modification times, each use stamped on its file, and the least recently used evicted.
// Call with the instance's lock held.
extension DirectoryPersistence {
  /// Builds the byte budget's index from the files' sizes and modification times, when no
  /// ``loadAll(_:now:)`` has: at the first write of a launch, not at the launch itself, so
  /// that a launch costs the same with ten records saved or ten thousand. The reads before it
  /// stamped their files' modification times, so the order of uses is the same.
  func scanIfNeeded() -> [PersistenceEvent] {
    guard index == nil else { return [] }
    var index = RecencyBook()
    let names = (try? FileCalls.names(in: path)) ?? []
    var events: [PersistenceEvent] = []
    for name in names.filter({ $0.hasPrefix(Self.temporaryPrefix) }).sorted() {
      removeFile(name, reporting: .removedTemporary(file: name), into: &events)
    }
    let files = names.filter { $0.hasSuffix("." + Self.fileExtension) }.compactMap { name in
      FileCalls.status(filePath(name)).map { (name: name, status: $0) }
    }
    lastStamp = max(lastStamp, files.map(\.status.modified).max() ?? 0)
    for file in files.sorted(by: { ($0.status.modified, $0.name) < ($1.status.modified, $1.name) })
    {
      index.use(file.name, bytes: file.status.bytes, key: nil)
    }
    self.index = index
    return events
  }

  /// Marks file `name` as used now: its modification time becomes later than any given
  /// before, so the order of uses survives a relaunch exactly.
  func stamp(_ name: String) {
    FileCalls.setModified(filePath(name), nanoseconds: nextStamp())
  }

  /// The modification time of a use now: later than any given before.
  func nextStamp() -> Int64 {
    lastStamp = max(FileCalls.now(), lastStamp + 1)
    return lastStamp
  }

  /// Evicts the least recently used records beyond the budget.
  func evict(_ rules: PersistenceRules) -> [PersistenceEvent] {
    guard let victims = index?.victims(budget: rules.byteBudget) else { return [] }
    var events: [PersistenceEvent] = []
    for name in victims {
      let entry = index?.entries[name]
      var key = entry?.key
      if key == nil, case .success(let (record, _))? = readFile(name) { key = record.key }
      removeFile(
        name, reporting: .evicted(key: key, bytes: entry?.bytes ?? 0), into: &events)
    }
    return events
  }
}

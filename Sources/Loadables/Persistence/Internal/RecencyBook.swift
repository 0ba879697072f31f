/// The byte budget's book: how many bytes each stored record takes and how recently it was
/// used, and which records to evict. A pure value (no files, no clock): both backends keep
/// one, and tests drive it directly.
///
/// Recency is a counter, not a time: every write or read moves a record to the front, so
/// the order is exact even when two uses fall in the same clock tick. The directory backend
/// seeds the order at launch from the files' modification times (it touches a file on every
/// read), so it survives a relaunch.
struct RecencyBook: Equatable, Sendable {
  struct Entry: Equatable, Sendable {
    /// The record's size as stored.
    var bytes: Int
    /// Higher is more recent.
    var lastUse: UInt64
    /// The record's key, once known (a file seen only by its name has none yet).
    var key: PersistentKey?
  }

  /// The entries by name (a file name, or the key's identity in memory).
  private(set) var entries: [String: Entry] = [:]
  /// The sum of the entries' sizes.
  private(set) var totalBytes = 0
  private var clock: UInt64 = 0

  /// Records a write or a read of `name` as its most recent use.
  ///
  /// - Returns: The key the entry held before, when it was another (a collision).
  @discardableResult
  mutating func use(_ name: String, bytes: Int, key: PersistentKey?) -> PersistentKey? {
    clock += 1
    // One look-up of the name (a file name is hashed whole) when the key is known, as at
    // every write.
    let previous = entries.updateValue(
      Entry(bytes: bytes, lastUse: clock, key: key), forKey: name)
    totalBytes += bytes - (previous?.bytes ?? 0)
    if key == nil, let known = previous?.key { entries[name]?.key = known }
    guard let old = previous?.key, let key, old != key else { return nil }
    return old
  }

  /// Forgets `name`.
  mutating func remove(_ name: String) {
    if let entry = entries.removeValue(forKey: name) { totalBytes -= entry.bytes }
  }

  /// Forgets everything.
  mutating func removeAll() {
    entries = [:]
    totalBytes = 0
  }

  /// The names to evict, least recently used first, so that at most `budget` bytes remain.
  /// The most recent record goes last, and only when it alone exceeds the budget.
  func victims(budget: Int?) -> [String] {
    guard let budget, totalBytes > budget else { return [] }
    var remaining = totalBytes
    var names: [String] = []
    for (name, entry) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
      guard remaining > budget else { break }
      names.append(name)
      remaining -= entry.bytes
    }
    return names
  }
}

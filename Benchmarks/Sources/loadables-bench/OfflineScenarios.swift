import Foundation
import Loadables
import MallocCounter

#if canImport(Glibc)
  import Glibc
#endif

// The offline scenarios: a persisted entry's write after a fetch, restoring at launch (the
// first value on screen, and all entries), and the outbox's cost per edit; each against the
// hand-written file code of OfflineBaselines.swift doing the same. Every variant keeps its
// files in a temporary directory of its own, removed when it ends.

/// How many saved entries the restore scenarios find on disk (`offline.restore.first.10000`
/// finds `manySavedEntryCount`).
let savedEntryCount = 1_000
let manySavedEntryCount = 10_000

/// The version both stores save under.
let benchVersion = "1"

/// The environment variable naming the directory `compare` prepared the saved entries in
/// (the runner's `prepare` command), so that callgrind measures launches, not the thousands
/// of saves an earlier launch made.
let savedEntriesVariable = "LOADABLES_BENCH_SAVED"

/// A temporary directory of the runner's, removed by `remove()`.
struct BenchDirectory {
  let url: URL
  var path: String { url.path }

  /// Makes a new directory under the system's temporary directory, or under `/dev/shm` when
  /// `inMemory` and it exists (a tmpfs: a restore scenario's 1,000 synced setup writes then
  /// take milliseconds, not seconds; the files are read from the page cache either way).
  init(inMemory: Bool = false) {
    let shm = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
    let base =
      inMemory && FileManager.default.fileExists(atPath: shm.path)
      ? shm : FileManager.default.temporaryDirectory
    url = base.appending(
      path: "loadables-bench-\(UUID().uuidString)", directoryHint: .isDirectory)
    do {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    } catch {
      fatalError("loadables-bench: cannot make the temporary directory \(url.path): \(error)")
    }
  }

  /// The directory at `url`, made before.
  init(existing url: URL) {
    self.url = url
  }

  func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}

/// A store saving its entries in `directory`.
@MainActor
func persistedStore(in directory: BenchDirectory) -> LoaderStore {
  LoaderStore(
    graceTime: benchmarkStaleTime,
    persistence: .directory(directory.url, version: benchVersion))
}

/// Saves `count` posts with the library, as an earlier launch did.
@MainActor
func saveLibraryEntries(_ count: Int = savedEntryCount, in directory: BenchDirectory) async {
  let store = persistedStore(in: directory)
  for id in 0..<count {
    await store.loader(for: ["posts", id]) { benchPost(id) }.load()
  }
  await store.flushPersistence()
}

/// Saves `count` posts by hand, as an earlier launch did.
func saveHandEntries(_ count: Int = savedEntryCount, in directory: BenchDirectory) {
  let encoder = JSONEncoder()
  for id in 0..<count {
    do {
      try HandFiles.writeAtomically(
        try encoder.encode(benchPost(id)), to: HandFiles.postPath(id, in: directory.path),
        in: directory.path)
    } catch {
      fatalError("loadables-bench: cannot save post \(id): \(error)")
    }
  }
}

/// The name of the prepared directory of `count` posts saved by the library or by hand.
func savedEntriesName(_ count: Int, byLibrary: Bool) -> String {
  "\(byLibrary ? "library" : "hand")-\(count)"
}

/// Saves, under `root`, the posts every restore scenario launches over (the runner's
/// `prepare` command; `compare` runs it natively, once, before measuring).
@MainActor
func prepareSavedEntries(in root: URL) async {
  for count in [savedEntryCount, manySavedEntryCount] {
    for byLibrary in [true, false] {
      let directory = BenchDirectory(
        existing: root.appending(
          path: savedEntriesName(count, byLibrary: byLibrary), directoryHint: .isDirectory))
      do {
        try FileManager.default.createDirectory(
          at: directory.url, withIntermediateDirectories: true)
      } catch {
        fatalError("loadables-bench: cannot make \(directory.path): \(error)")
      }
      if byLibrary {
        await saveLibraryEntries(count, in: directory)
      } else {
        saveHandEntries(count, in: directory)
      }
    }
  }
}

/// Runs `body` over a directory holding `count` posts saved by the library (`byLibrary`) or
/// by hand: the one `compare` prepared (`LOADABLES_BENCH_SAVED`), else one saved here and
/// removed after (`--smoke`, a run by hand).
@MainActor
func withSavedEntries(
  _ count: Int, byLibrary: Bool, _ body: @MainActor (BenchDirectory) async -> Void
) async {
  if let root = ProcessInfo.processInfo.environment[savedEntriesVariable] {
    let url = URL(fileURLWithPath: root).appending(
      path: savedEntriesName(count, byLibrary: byLibrary), directoryHint: .isDirectory)
    if FileManager.default.fileExists(atPath: url.path) {
      await body(BenchDirectory(existing: url))
      return
    }
  }
  let directory = BenchDirectory(inMemory: true)
  defer { directory.remove() }
  if byLibrary {
    await saveLibraryEntries(count, in: directory)
  } else {
    saveHandEntries(count, in: directory)
  }
  await body(directory)
}

/// A launch showing the first entry's saved value, with `count` entries saved: a new store,
/// one entry made, its value read back; against the hand-written launch reading and decoding
/// that one file (its decoder made per launch, as the store makes its own).
///
/// `afterAKilledWrite`: each launch follows one that wrote and was killed (as apps are),
/// which left a lock file in `tmp` that nobody holds (planted before each launch, on both
/// sides, by the same code): the library's launch removes it; the hand-written one removes
/// its own left file with one `unlink`, as an app that leaves files must.
@MainActor
func restoreFirstScenario(_ name: String, count: Int, afterAKilledWrite: Bool = false) -> Scenario {
  Scenario(
    name: name,
    unit: "launch: a new store, one entry made, its saved value shown (\(count) saved)"
      + (afterAKilledWrite ? ", after a killed launch that wrote" : ""),
    library: { iterations in
      await withSavedEntries(count, byLibrary: true) { directory in
        let left = afterAKilledWrite ? deadLockFile(in: directory) : nil
        for index in 0..<iterations {
          let id = index % count
          if let left { plant(left) }
          let store = persistedStore(in: directory)
          let entry = store.loader(for: ["posts", id]) { benchPost(id) }
          guard case .loaded(let post) = entry.state, post.id == id else {
            preconditionFailure("post \(id) not restored: \(entry.state)")
          }
        }
        // Removed by the launch itself, not later by its writer.
        if let left { precondition(access(left, F_OK) != 0, "the dead writer's lock file stayed") }
      }
    },
    baseline: { iterations in
      await withSavedEntries(count, byLibrary: false) { directory in
        let left = afterAKilledWrite ? deadLockFile(in: directory) : nil
        for index in 0..<iterations {
          let id = index % count
          if let left {
            plant(left)
            unlink(left)
          }
          let decoder = JSONDecoder()
          var boxes: [Int: HandPostBox] = [:]
          let saved = HandFiles.read(
            BenchPost.self, at: HandFiles.postPath(id, in: directory.path), decoder: decoder)
          let box = HandPostBox(restoring: saved) { benchPost(id) }
          boxes[id] = box
          precondition(boxes[id]?.state.value?.id == id, "post \(id) not restored")
        }
      }
    }
  )
}

/// The path of the lock file a killed launch that wrote leaves in `directory`'s `tmp` (the
/// folder made here, once): named as the library names its writers' (`<pid>-<hex>.lock`).
func deadLockFile(in directory: BenchDirectory) -> String {
  let tmp = directory.url.appending(path: "tmp", directoryHint: .isDirectory)
  do {
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
  } catch {
    fatalError("loadables-bench: cannot make \(tmp.path): \(error)")
  }
  return tmp.path + "/12345-0123456789abcdef.lock"
}

/// Makes the empty file at `path` (nobody holds a lock on it).
func plant(_ path: String) {
  let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
  precondition(descriptor >= 0, "cannot plant \(path): errno \(errno)")
  close(descriptor)
}

/// The edit the outbox scenario queues: a rename with no optimistic change, sent by a
/// handler that returns at once.
struct BenchRename: OutboxEdit {
  static let name = "BenchRename"
  let id: Int
  let title: String

  var scope: LoadKey { ["posts", id] }
}

@MainActor
let offlineScenarios: [Scenario] = [
  Scenario(
    name: "offline.persist.write", unit: "refresh of a saved entry, written to disk (flushed)",
    library: { iterations in
      let directory = BenchDirectory()
      defer { directory.remove() }
      let store = persistedStore(in: directory)
      let post = benchPost(1)
      let entry = store.loader(for: ["posts", 1]) { post }
      await entry.load()
      await store.flushPersistence()
      for _ in 0..<iterations {
        let state = await entry.refresh()
        await store.flushPersistence()
        precondition(state.isLoaded)
      }
      precondition(store.recentPersistenceEvents.isEmpty, "\(store.recentPersistenceEvents)")
    },
    baseline: { iterations in
      let directory = BenchDirectory()
      defer { directory.remove() }
      let post = benchPost(1)
      let box = HandPostBox { post }
      let encoder = JSONEncoder()
      let path = HandFiles.postPath(1, in: directory.path)
      for _ in 0..<iterations {
        guard let value = await box.refresh().value else { preconditionFailure("no value") }
        do {
          try HandFiles.writeAtomically(try encoder.encode(value), to: path, in: directory.path)
        } catch {
          preconditionFailure("\(error)")
        }
      }
    }
  ),
  restoreFirstScenario("offline.restore.first", count: savedEntryCount),
  restoreFirstScenario("offline.restore.first.10000", count: manySavedEntryCount),
  restoreFirstScenario(
    "offline.restore.first.killed", count: savedEntryCount, afterAKilledWrite: true),
  Scenario(
    name: "offline.restore.all",
    unit: "launch: a new store, all 1,000 saved entries made and shown",
    library: { iterations in
      await withSavedEntries(savedEntryCount, byLibrary: true) { directory in
        for _ in 0..<iterations {
          let store = persistedStore(in: directory)
          for id in 0..<savedEntryCount {
            let entry = store.loader(for: ["posts", id]) { benchPost(id) }
            guard case .loaded(let post) = entry.state, post.id == id else {
              preconditionFailure("post \(id) not restored: \(entry.state)")
            }
          }
        }
      }
    },
    baseline: { iterations in
      await withSavedEntries(savedEntryCount, byLibrary: false) { directory in
        for _ in 0..<iterations {
          let decoder = JSONDecoder()
          var boxes: [Int: HandPostBox] = [:]
          for id in 0..<savedEntryCount {
            let saved = HandFiles.read(
              BenchPost.self, at: HandFiles.postPath(id, in: directory.path), decoder: decoder)
            let box = HandPostBox(restoring: saved) { benchPost(id) }
            boxes[id] = box
            precondition(box.state.value?.id == id, "post \(id) not restored")
          }
        }
      }
    }
  ),
  Scenario(
    name: "offline.outbox.edit",
    unit: "edit enqueued (written durably), sent by a handler returning at once, committed",
    library: { iterations in
      let directory = BenchDirectory()
      defer { directory.remove() }
      let store = persistedStore(in: directory)
      store.register(BenchRename.self) { _, _ in }
      let edit = BenchRename(id: 1, title: "Renamed")
      for _ in 0..<iterations {
        store.edit(edit)
        await store.outbox.untilIdle()
      }
      precondition(store.outbox.items.isEmpty && store.outbox.issues.isEmpty)
    },
    baseline: { iterations in await handOutboxEdits(iterations, keepsCommitted: true) },
    extras: [
      ("delete", { iterations in await handOutboxEdits(iterations, keepsCommitted: false) })
    ]
  ),
]

/// Sends `iterations` edits through the hand-written outbox, each handled at once.
@MainActor
func handOutboxEdits(_ iterations: Int, keepsCommitted: Bool) async {
  let directory = BenchDirectory()
  defer { directory.remove() }
  let outbox = HandOutbox(directory: directory.path, keepsCommitted: keepsCommitted) { _ in }
  let edit = HandRenameEdit(id: 1, title: "Renamed")
  for _ in 0..<iterations {
    do {
      try await outbox.send(edit)
    } catch {
      preconditionFailure("\(error)")
    }
  }
}

/// Bytes per entry restored at launch (1,000 saved), library and hand-written: printed by
/// the runner's `memory-restored` command.
@MainActor
func restoredMemory() async -> (library: Int, values: Int, boxes: Int) {
  let count = savedEntryCount
  let libraryDirectory = BenchDirectory(inMemory: true)
  defer { libraryDirectory.remove() }
  await saveLibraryEntries(in: libraryDirectory)
  var before = heapBytesInUse()
  let store = persistedStore(in: libraryDirectory)
  var entries: [SharedLoader<BenchPost>] = []
  entries.reserveCapacity(count)
  for id in 0..<count {
    entries.append(store.loader(for: ["posts", id]) { benchPost(id) })
  }
  let library = (heapBytesInUse() - before) / count
  precondition(entries.allSatisfy(\.state.isLoaded), "an entry was not restored")

  let handDirectory = BenchDirectory(inMemory: true)
  defer { handDirectory.remove() }
  saveHandEntries(in: handDirectory)
  let decoder = JSONDecoder()
  before = heapBytesInUse()
  var values: [Int: BenchPost] = [:]
  for id in 0..<count {
    values[id] = HandFiles.read(
      BenchPost.self, at: HandFiles.postPath(id, in: handDirectory.path), decoder: decoder)
  }
  let valueBytes = (heapBytesInUse() - before) / count
  precondition(values.count == count, "a post was not read")

  before = heapBytesInUse()
  var boxes: [Int: HandPostBox] = [:]
  for id in 0..<count {
    let saved = HandFiles.read(
      BenchPost.self, at: HandFiles.postPath(id, in: handDirectory.path), decoder: decoder)
    boxes[id] = HandPostBox(restoring: saved) { benchPost(id) }
  }
  let boxBytes = (heapBytesInUse() - before) / count
  withExtendedLifetime((store, entries, values, boxes)) {}
  return (library, valueBytes, boxBytes)
}

/// Bytes of heap in use, from glibc's count.
func heapBytesInUse() -> Int { Int(loadables_heap_bytes_in_use()) }

// Model-based randomized test of the shared store (DESIGN.md, "Shared state and pages").
//
// Each sequence is 30 random operations on one key of a `LoaderStore` on a manual clock:
// the server's value changes, loads and refreshes, invalidations, optimistic edits (a `set`
// or an `update`, whose jobs succeed or fail in any order, some invalidating on success),
// observers coming and going, trims, and clock advances past stale and grace times. After
// every step the store is checked against `SharedStoreModel`, written from the rules in
// the Sharing State article: what the entry shows (its last fetched value with the pending
// edits laid over it), whether it is stale, how many observe it, and whether it is held.
//
// Environment: LOADABLES_STORE_MODEL_SEQUENCES (default 300), LOADABLES_STORE_MODEL_SEED.

import Foundation
import LoadablesTesting
import XCTest

@testable import Loadables

@MainActor
final class SharedStoreModelTests: XCTestCase {
  func testTheStoreFollowsTheModel() async {
    let environment = ProcessInfo.processInfo.environment
    let sequences = environment["LOADABLES_STORE_MODEL_SEQUENCES"].flatMap { Int($0) } ?? 300
    let base = environment["LOADABLES_STORE_MODEL_SEED"].flatMap { UInt64($0) } ?? 0x5354_4F52_45
    for index in 0..<sequences {
      let seed = SplitMix64.mix(base &+ UInt64(index))
      if let failure = await runSequence(seed: seed) {
        XCTFail(
          """
          \(failure)
          Replay: LOADABLES_STORE_MODEL_SEQUENCES=1 LOADABLES_STORE_MODEL_SEED=\(seed) \
          swift test --filter SharedStoreModelTests
          """)
        return
      }
    }
  }

  /// An edit whose job waits at its gate.
  private struct OpenEdit {
    let id: Int
    let gate: Gate<Void>
    let task: Task<Void, any Error>
    let invalidates: Bool
  }

  /// Runs one sequence; returns a description of the first mismatch, or `nil`.
  private func runSequence(seed: UInt64) async -> String? {
    var random = SplitMix64(seed: seed)
    let clock = ManualClock()
    let store = LoaderStore(graceTime: .seconds(SharedStoreModel.grace), clock: clock)
    let server = ServerValue()
    var model = SharedStoreModel()
    var entry: SharedLoader<Int>?
    var tokens: [SharedObservation] = []
    var edits: [OpenEdit] = []
    var nextEditID = 0
    var log: [String] = []

    func current() -> SharedLoader<Int> {
      model.ensurePresent()
      if let entry, store.existingLoader(for: ["k"], as: Int.self) === entry { return entry }
      let made = store.loader(for: ["k"], staleTime: .seconds(SharedStoreModel.staleTime)) {
        () async -> Int in
        await Task.yield()
        return server.value
      }
      entry = made
      return made
    }

    func settle() async {
      if let entry { await yieldUntil { !entry.isRunning } }
    }

    for step in 0..<30 {
      switch random.below(10) {
      case 0:
        server.value += 1 + random.below(9)
        log.append("server -> \(server.value)")
      case 1:
        log.append("load")
        await current().load()
        model.load(server: server.value)
      case 2:
        log.append("refresh")
        await current().refresh()
        model.fetch(server: server.value)
      case 3:
        log.append("invalidate")
        store.invalidate(["k"])
        model.invalidate(server: server.value)
        await settle()
      case 4 where edits.count < 3:
        nextEditID += 1
        let id = nextEditID
        let target = current()
        let operation: SharedStoreModel.Operation =
          random.percent(50) ? .set(100 * id) : .add(1 + random.below(9))
        let invalidates = random.percent(50)
        log.append("edit \(id) \(operation)\(invalidates ? " invalidating" : "")")
        let gate = Gate<Void>()
        let task = Task {
          try await store.edit(invalidating: invalidates ? [["k"]] : []) {
            switch operation {
            case .set(let value): $0.set(target, to: value)
            case .add(let amount): $0.update(target) { $0 += amount }
            }
          } perform: {
            try await gate.pass()
          }
        }
        await gate.arrival()
        model.edit(id, operation)
        edits.append(OpenEdit(id: id, gate: gate, task: task, invalidates: invalidates))
      case 5 where !edits.isEmpty:
        let edit = edits.remove(at: random.below(edits.count))
        let succeeds = random.percent(50)
        log.append("edit \(edit.id) \(succeeds ? "succeeds" : "fails")")
        if succeeds { edit.gate.open() } else { edit.gate.fail(TestError(code: edit.id)) }
        _ = try? await edit.task.value
        if succeeds {
          model.commit(edit.id, invalidating: edit.invalidates, server: server.value)
        } else {
          model.rollBack(edit.id)
        }
        await settle()
      case 6:
        log.append("observe")
        tokens.append(current().observe())
        model.observe(server: server.value)
        await settle()
      case 7 where !tokens.isEmpty:
        log.append("end an observation")
        tokens.removeLast().end()
        model.unobserve()
      case 8:
        let seconds = random.below(45)
        log.append("advance \(seconds) s")
        if let due = model.sweepDue {
          // The sweeper registers its sleep off the main actor: on a busy machine it may not
          // have yet, and an advance before it does would not wake it.
          do {
            try await waitUntil(
              "the sweeper sleeps until \(due) s or sooner",
              seen: "sleepers \(clock.sleeperDeadlines)"
            ) { clock.sleeperDeadlines.contains { $0 <= .seconds(due) } }
          } catch {
            return "Sequence \(seed), step \(step): \(error)"
          }
        }
        clock.advance(by: .seconds(seconds))
        model.advance(seconds)
        if model.isPresent {
          for _ in 0..<20 { await Task.yield() }
        } else {
          do {
            try await waitUntil("the sweeper drops the entry", seen: "\(store.count) entries") {
              store.count == 0
            }
          } catch {
            return "Sequence \(seed), step \(step): \(error)"
          }
        }
      case 9:
        log.append("trim")
        store.trim()
        model.trim()
      default:
        continue
      }
      if let mismatch = check(store: store, entry: entry, model: model) {
        return """
          Sequence \(seed), step \(step): \(mismatch)
          Operations: \(log.joined(separator: "; "))
          """
      }
    }
    for token in tokens { token.end() }
    for edit in edits {
      edit.gate.fail(CancellationError())
      _ = try? await edit.task.value
    }
    return nil
  }

  private func check(
    store: LoaderStore, entry: SharedLoader<Int>?, model: SharedStoreModel
  ) -> String? {
    guard model.isPresent else {
      return store.count == 0 ? nil : "the store kept an entry the model dropped"
    }
    guard let entry, store.count == 1, store.existingLoader(for: ["k"], as: Int.self) === entry
    else { return "the store dropped an entry the model keeps" }
    let expected: LoadableState<Int> = model.shown.map { .loaded($0) } ?? .absent
    if entry.state != expected { return "state \(entry.state), expected \(expected)" }
    if entry.observerCount != model.observers {
      return "observerCount \(entry.observerCount), expected \(model.observers)"
    }
    if entry.isStale != model.isStale {
      return "isStale \(entry.isStale), expected \(model.isStale)"
    }
    return nil
  }
}

/// The server's current value.
@MainActor
private final class ServerValue {
  var value = 1
}

/// The rules of one shared entry, written out plainly: a base (what the last fetch brought),
/// the edits laid over it in order, freshness, observers and the grace time.
struct SharedStoreModel {
  static let staleTime = 10
  static let grace = 30

  enum Operation: CustomStringConvertible {
    case set(Int)
    case add(Int)

    var description: String {
      switch self {
      case .set(let value): "set \(value)"
      case .add(let amount): "add \(amount)"
      }
    }
  }

  struct Edit {
    let id: Int
    let operation: Operation
    /// The number of fetches started before the commit; `nil` while the job runs.
    var committedAfter: Int?
  }

  private(set) var isPresent = false
  private var now = 0
  private var base: Int?
  private var edits: [Edit] = []
  private var fetches = 0
  private var updatedAt: Int?
  private var invalidated = false
  private(set) var observers = 0
  private var unobservedSince = 0

  /// What the entry shows: the base with every edit applied in order (the committed ones
  /// first, in the order they succeeded).
  var shown: Int? {
    edits.reduce(base) { value, edit in
      switch edit.operation {
      case .set(let new): new
      case .add(let amount): value.map { $0 + amount }
      }
    }
  }

  /// When the store's sweeper is due to drop the entry, in seconds on the clock: while the
  /// entry is held and nobody observes it; `nil` otherwise.
  var sweepDue: Int? {
    isPresent && observers == 0 ? unobservedSince + Self.grace : nil
  }

  var isStale: Bool {
    guard !invalidated, let updatedAt else { return true }
    return now - updatedAt >= Self.staleTime
  }

  /// Asking the store for the key makes a new, empty entry when it holds none.
  mutating func ensurePresent() {
    guard !isPresent else { return }
    let now = self.now
    self = SharedStoreModel()
    self.now = now
    isPresent = true
    unobservedSince = now
  }

  /// A value came from the server: it is fresh again. (Edits and their roll-backs change
  /// what is on screen but not its freshness.)
  private mutating func wrote() {
    guard shown != nil else { return }
    updatedAt = now
    invalidated = false
  }

  mutating func fetch(server: Int) {
    fetches += 1
    base = server
    // A fetch that started after a commit carries that edit.
    edits.removeAll { edit in edit.committedAfter.map { $0 < fetches } ?? false }
    wrote()
  }

  mutating func load(server: Int) {
    if shown != nil, !isStale { return }
    fetch(server: server)
  }

  mutating func invalidate(server: Int) {
    guard isPresent else { return }
    invalidated = true
    if observers > 0 { fetch(server: server) }
  }

  mutating func edit(_ id: Int, _ operation: Operation) {
    if case .add = operation, shown == nil { return }
    edits.append(Edit(id: id, operation: operation))
  }

  mutating func commit(_ id: Int, invalidating: Bool, server: Int) {
    // The committed edits are laid first, in the order they succeeded, then the pending ones.
    if let index = edits.firstIndex(where: { $0.id == id }) {
      var edit = edits.remove(at: index)
      edit.committedAfter = fetches
      let firstPending = edits.firstIndex { $0.committedAfter == nil } ?? edits.count
      edits.insert(edit, at: min(firstPending, index))
    }
    if invalidating { invalidate(server: server) }
  }

  mutating func rollBack(_ id: Int) {
    guard let index = edits.firstIndex(where: { $0.id == id }) else { return }
    edits.remove(at: index)
  }

  mutating func observe(server: Int) {
    observers += 1
    guard observers == 1 else { return }
    if isStale, shown != nil { fetch(server: server) }
  }

  mutating func unobserve() {
    observers -= 1
    if observers == 0 { unobservedSince = now }
  }

  mutating func advance(_ seconds: Int) {
    now += seconds
    if isPresent, observers == 0, now - unobservedSince >= Self.grace { drop() }
  }

  mutating func trim() {
    if isPresent, observers == 0 { drop() }
  }

  private mutating func drop() {
    let now = self.now
    self = SharedStoreModel()
    self.now = now
  }
}

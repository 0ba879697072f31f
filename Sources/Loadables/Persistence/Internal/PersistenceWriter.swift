import Foundation

/// Runs a store's saves and removals on one serial queue, in the order they were asked for,
/// so the main actor never waits for a file to be synced; gathers the events they cause for
/// the store to report on the main actor.
final class PersistenceWriter: @unchecked Sendable {
  // Safe to share: `events`, `madeQueue`, `queued`, `done` and `flushes` are read and
  // written only while holding `lock`; the queue is a serial dispatch queue and `backend`
  // and `rules` are immutable and `Sendable`.
  let backend: any PersistenceBackend
  private let rules: PersistenceRules
  /// The serial queue, made at the first save or removal: a launch that only shows saved
  /// values hands it nothing.
  private var madeQueue: DispatchQueue?
  private let lock = NSLock()
  private var events: [PersistenceEvent] = []
  /// How many operations were queued, and how many have run (they run in order).
  private var queued: UInt64 = 0
  private var done: UInt64 = 0
  /// The flushes waiting, each until `done` reaches the count queued when it was asked for.
  private var flushes: [(upTo: UInt64, continuation: UnsafeContinuation<Void, Never>)] = []

  init(_ backend: any PersistenceBackend, rules: PersistenceRules) {
    self.backend = backend
    self.rules = rules
  }

  /// Saves `record` after everything queued before it.
  func write(_ record: PersistedRecord, store: LoaderStore) {
    run(store, .write(record))
  }

  /// Removes the record of `key` after everything queued before it.
  func remove(_ key: PersistentKey, store: LoaderStore) {
    let backend = backend
    run(store) {
      do throws(PersistenceError) {
        try backend.remove(key)
        return []
      } catch {
        return [.removeFailed(key: key, error: error)]
      }
    }
  }

  /// Removes the temporary files interrupted writes left, after everything queued before.
  func removeTemporaries(store: LoaderStore) {
    let backend = backend
    run(store) { backend.removeTemporaries() }
  }

  /// Removes every record after everything queued before it.
  func removeAll(store: LoaderStore) {
    let backend = backend
    run(store) {
      do throws(PersistenceError) {
        try backend.removeAll()
        return []
      } catch {
        return [.removeAllFailed(error)]
      }
    }
  }

  /// Removes, after everything queued before it, every record whose key's identity starts
  /// with `prefix` (the identity of a key prefix: parts are length-prefixed, so a string
  /// prefix is a key prefix). Reading the keys goes through ``PersistenceBackend/loadAll(_:now:)``,
  /// which also drops what the rules no longer accept, as a launch would.
  func removeAll(under prefix: String, now: Date, store: LoaderStore) {
    let (backend, rules) = (backend, rules)
    run(store) {
      let load = backend.loadAll(rules, now: now)
      var events = load.events
      for record in load.records where record.key.identity.hasPrefix(prefix) {
        do throws(PersistenceError) {
          try backend.remove(record.key)
        } catch {
          events.append(.removeFailed(key: record.key, error: error))
        }
      }
      return events
    }
  }

  /// What the queue runs: a save (the one at every persisted write, held as its record
  /// rather than in a closure of its own), or any other operation.
  private enum Operation: Sendable {
    case write(PersistedRecord)
    case other(@Sendable () -> [PersistenceEvent])
  }

  /// Runs `operation` on the queue; the events it returns are gathered and reported on the
  /// main actor.
  private func run(
    _ store: LoaderStore, _ operation: @escaping @Sendable () -> [PersistenceEvent]
  ) {
    run(store, .other(operation))
  }

  /// Runs `operation` on the queue; the events it returns are gathered and reported on the
  /// main actor.
  private func run(_ store: LoaderStore, _ operation: Operation) {
    // Numbered and handed to the queue under one lock, so the numbers follow the queue's
    // order even when two threads ask at once.
    lock.lock()
    defer { lock.unlock() }
    queued += 1
    let number = queued
    queue().async { [self, weak store] in
      let produced: [PersistenceEvent]
      switch operation {
      case .write(let record):
        do throws(PersistenceError) {
          produced = try backend.write(record, rules: rules)
        } catch {
          produced = [.writeFailed(key: record.key, error: error)]
        }
      case .other(let operation):
        produced = operation()
      }
      // The flushes this operation completes are resumed by it, with its events gathered
      // first: a flush queues no work of its own.
      for flush in ran(number, producing: produced) { flush.resume() }
      guard !produced.isEmpty else { return }
      Task { @MainActor in store?.deliverPersistenceEvents() }
    }
  }

  /// Operation `number` ran and produced `produced`: gathers them; returns the flushes it
  /// completes, taken from the waiting ones.
  private func ran(_ number: UInt64, producing produced: [PersistenceEvent])
    -> [UnsafeContinuation<Void, Never>]
  {
    lock.lock()
    defer { lock.unlock() }
    if !produced.isEmpty { events.append(contentsOf: produced) }
    done = number
    guard !flushes.isEmpty else { return [] }
    var completed: [UnsafeContinuation<Void, Never>] = []
    flushes.removeAll { flush in
      guard flush.upTo <= number else { return false }
      completed.append(flush.continuation)
      return true
    }
    return completed
  }

  /// Whether everything queued has run; otherwise `continuation` waits for it.
  private func resumesAtOnce(_ continuation: UnsafeContinuation<Void, Never>) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    if done == queued { return true }
    flushes.append((queued, continuation))
    return false
  }

  /// Whether anything was ever handed to the queue (it is made then): a launch that only
  /// shows saved values hands it nothing.
  var hasQueue: Bool { lock.withLock { madeQueue != nil } }

  /// The events gathered since the last call.
  func takeEvents() -> [PersistenceEvent] {
    lock.lock()
    defer { lock.unlock() }
    let taken = events
    events = []
    return taken
  }

  /// Returns once everything queued before the call has run; on the caller's actor, with no
  /// hop off it.
  func flush(isolation: isolated (any Actor)? = #isolation) async {
    // Unsafe, not checked: each continuation is resumed exactly once, here or by the
    // operation that completes it, which takes it out of `flushes` under the lock.
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      if resumesAtOnce(continuation) { continuation.resume() }
    }
  }

  /// The serial queue, made on first use. Call with `lock` held.
  private func queue() -> DispatchQueue {
    if let madeQueue { return madeQueue }
    let queue = DispatchQueue(label: "Loadables.PersistenceWriter")
    madeQueue = queue
    return queue
  }

}

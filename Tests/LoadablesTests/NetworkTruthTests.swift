import Foundation
import Loadables
import LoadablesTesting
import XCTest

@testable import Loadables

/// One network truth: a store's connectivity is what every wait, trigger and the inspector
/// follow. `RefreshTrigger.networkReconnected` listens to it (no monitor of its own per
/// entry), and an inspector's simulated offline is kept there, so it reaches waits,
/// triggers, the outbox and the snapshot alike.
@MainActor
final class NetworkTruthTests: XCTestCase {
  // MARK: - The reconnect trigger follows the store's connectivity

  func testAReconnectRefreshesEachObservedEntryOnce() async throws {
    let connectivity = Connectivity(isOnline: true)
    let store = LoaderStore(connectivity: connectivity)
    let server = KeyedCounter()
    let entries = (1...3).map { id in
      store.loader(
        for: ["posts", id], staleTime: .seconds(3600), refreshing: [.networkReconnected]
      ) {
        server.fetched("\(id)")
      }
    }
    let unobserved = store.loader(
      for: ["unobserved"], staleTime: .seconds(3600), refreshing: [.networkReconnected]
    ) { server.fetched("unobserved") }
    for entry in entries { await entry.load() }
    await unobserved.load()
    let tokens = entries.map { $0.observe() }
    defer { for token in tokens { token.end() } }

    connectivity.goOffline()
    XCTAssertFalse(entries.contains(where: \.isRunning), "going offline refreshed")
    connectivity.goOnline()
    // The refresh starts as the source says online: no task to wait for.
    XCTAssertEqual(
      entries.map(\.isRunning), [true, true, true], "a reconnect did not refresh every entry")
    XCTAssertFalse(unobserved.isRunning, "a reconnect refreshed an entry nobody observes")
    for entry in entries { await entry.load() }  // joins the running refresh
    XCTAssertEqual(
      server.counts, ["1": 2, "2": 2, "3": 2, "unobserved": 1],
      "each observed entry should refresh once, the unobserved one never")
    XCTAssertEqual(entries.map(\.state), [.loaded("1 #2"), .loaded("2 #2"), .loaded("3 #2")])
  }

  func testOnlyAChangeFromOfflineToOnlineRefreshes() async throws {
    let connectivity = Connectivity(isOnline: true)
    let store = LoaderStore(connectivity: connectivity)
    let server = KeyedCounter()
    let feed = store.loader(
      for: ["feed"], staleTime: .seconds(3600), refreshing: [.networkReconnected]
    ) { server.fetched("feed") }
    await feed.load()
    let token = feed.observe()
    defer { token.end() }
    connectivity.goOnline()  // already online: not a change
    XCTAssertFalse(feed.isRunning, "the state the source is in counted as a reconnect")
    connectivity.goOffline()
    connectivity.goOffline()
    XCTAssertFalse(feed.isRunning, "going or staying offline refreshed")
    connectivity.goOnline()
    XCTAssertTrue(feed.isRunning, "coming back did not refresh")
    await feed.load()
    connectivity.goOnline()
    XCTAssertFalse(feed.isRunning, "staying online refreshed again")
    XCTAssertEqual(server.counts["feed"], 2)
  }

  func testObservingWhileOfflineThenConnectingRefreshes() async throws {
    let connectivity = Connectivity(isOnline: false)
    let store = LoaderStore(connectivity: connectivity)
    let server = KeyedCounter()
    let feed = store.loader(
      for: ["feed"], staleTime: .seconds(3600), waitsForNetwork: false,
      refreshing: [.networkReconnected]
    ) { server.fetched("feed") }
    await feed.load()
    let token = feed.observe()
    defer { token.end() }
    XCTAssertFalse(feed.isRunning, "observing while offline refreshed")
    connectivity.goOnline()
    XCTAssertTrue(feed.isRunning, "connecting after an offline start did not refresh")
    await feed.load()
    XCTAssertEqual(server.counts["feed"], 2)
  }

  func testAFetchWaitingForTheNetworkIsNotFetchedTwiceOnReconnect() async throws {
    let connectivity = Connectivity(isOnline: false)
    let store = LoaderStore(connectivity: connectivity)
    let server = KeyedCounter()
    let feed = store.loader(
      for: ["feed"], staleTime: .seconds(3600), refreshing: [.networkReconnected]
    ) { server.fetched("feed") }
    let token = feed.observe()
    defer { token.end() }
    let load = Task { await feed.load() }
    try await connectivity.waiters(count: 1)
    connectivity.goOnline()
    let state = await load.value
    XCTAssertEqual(state, .loaded("feed #1"))
    XCTAssertFalse(feed.isRunning)
    XCTAssertEqual(server.counts["feed"], 1, "the reconnect fetched beside the waiting fetch")
  }

  func testTheTriggerListensToTheOneSourceOncePerObservedEntryAndStopsWithObservation()
    async throws
  {
    let connectivity = Connectivity(isOnline: true)
    let store = LoaderStore(connectivity: connectivity)
    let entries = (1...5).map { id in
      store.loader(for: ["posts", id], refreshing: [.networkReconnected]) { id }
    }
    XCTAssertEqual(connectivity.reconnectActionCount, 0, "an unobserved entry listens")
    let tokens = entries.map { $0.observe() }
    let again = entries[0].observe()  // a second observer of one entry adds nothing
    XCTAssertEqual(
      connectivity.reconnectActionCount, 5, "one listener per observed entry on the one source")
    for token in tokens { token.end() }
    XCTAssertEqual(connectivity.reconnectActionCount, 1, "observation ended, the listener stays")
    again.end()
    XCTAssertEqual(connectivity.reconnectActionCount, 0)
  }

  func testARemovedEntryStopsListening() async throws {
    let connectivity = Connectivity(isOnline: true)
    let store = LoaderStore(connectivity: connectivity)
    let feed = store.loader(for: ["feed"], refreshing: [.networkReconnected]) { 1 }
    let token = feed.observe()
    defer { token.end() }
    XCTAssertEqual(connectivity.reconnectActionCount, 1)
    store.remove(["feed"])
    XCTAssertEqual(connectivity.reconnectActionCount, 0, "a removed entry still listens")
  }

  // MARK: - Simulated offline reaches waits, triggers and the inspector alike

  func testSimulatedOfflineReachesWaitsTriggersAndTheSnapshot() async throws {
    let clock = ManualClock()
    let connectivity = Connectivity(isOnline: true)
    let store = LoaderStore(graceTime: .seconds(3600), clock: clock, connectivity: connectivity)
    let server = KeyedCounter()
    let polled = store.loader(
      for: ["polled"], staleTime: .seconds(3600), refreshing: [.every(.seconds(10))]
    ) { server.fetched("polled") }
    let reconnecting = store.loader(
      for: ["reconnecting"], staleTime: .seconds(3600), refreshing: [.networkReconnected]
    ) { server.fetched("reconnecting") }
    let waiting = store.loader(for: ["waiting"]) { server.fetched("waiting") }
    await polled.load()
    await reconnecting.load()
    let tokens = [polled.observe(), reconnecting.observe()]
    defer { for token in tokens { token.end() } }
    // Sleepers: the grace sweeper, two stale timers and the poll.
    try await clock.sleepers(count: 4)

    store.isSimulatingOffline = true
    XCTAssertEqual(store.snapshot().isOnline, false, "the inspector's snapshot says online")
    XCTAssertTrue(store.snapshot().isSimulatingOffline)
    let load = Task { await waiting.load() }
    try await connectivity.waiters(count: 1)  // a wait sees it
    XCTAssertTrue(waiting.isWaitingForNetwork)
    clock.advance(by: .seconds(10))
    try await clock.sleepers(count: 4)
    XCTAssertFalse(polled.isRunning, "polling refreshed while simulating offline")

    store.isSimulatingOffline = false
    XCTAssertTrue(reconnecting.isRunning, "ending the simulation was no reconnect")
    let state = await load.value
    XCTAssertEqual(state, .loaded("waiting #1"), "the waiting fetch did not go on")
    await reconnecting.load()
    XCTAssertEqual(
      server.counts, ["polled": 1, "reconnecting": 2, "waiting": 1],
      "simulated offline did not reach every wait and trigger")
  }

  func testAStoreWithoutConnectivitySimulatesOfflineInOnePlace() async throws {
    let clock = ManualClock()
    let store = LoaderStore(graceTime: .seconds(3600), clock: clock)
    let server = KeyedCounter()
    let polled = store.loader(
      for: ["polled"], staleTime: .seconds(3600), refreshing: [.every(.seconds(10))]
    ) { server.fetched("polled") }
    let reconnecting = store.loader(
      for: ["reconnecting"], staleTime: .seconds(3600), refreshing: [.networkReconnected]
    ) { server.fetched("reconnecting") }
    let fetched = store.loader(for: ["fetched"]) { server.fetched("fetched") }
    await polled.load()
    await reconnecting.load()
    let tokens = [polled.observe(), reconnecting.observe()]
    defer { for token in tokens { token.end() } }
    try await clock.sleepers(count: 4)

    store.isSimulatingOffline = true
    XCTAssertTrue(store.snapshot().isSimulatingOffline)
    XCTAssertNil(store.snapshot().isOnline, "a store without a connectivity reports none")
    let failed = await fetched.load()
    XCTAssertEqual(failed.error as? SimulatedFailure, .offline, "a fetch went through")
    clock.advance(by: .seconds(10))
    try await clock.sleepers(count: 4)
    XCTAssertFalse(polled.isRunning, "polling refreshed while simulating offline")

    store.isSimulatingOffline = false
    XCTAssertTrue(reconnecting.isRunning, "ending the simulation was no reconnect")
    await reconnecting.load()
    let refreshed = await fetched.refresh()
    XCTAssertEqual(refreshed, .loaded("fetched #1"))
    XCTAssertEqual(server.counts, ["polled": 1, "reconnecting": 2, "fetched": 1])
  }

  func testTheOutboxOfAStoreWithoutConnectivityWaitsWhileSimulatingOffline() async throws {
    let store = LoaderStore()
    var sent: [String] = []
    store.register(Note.self) { note, _ in sent.append(note.text) }
    store.isSimulatingOffline = true
    store.edit(Note(text: "hello"))
    try await waitUntil("the edit waits for the network", seen: "\(store.outbox.items)") {
      store.outbox.items.map(\.status) == [.waitingForNetwork]
    }
    XCTAssertEqual(sent, [], "the outbox sent while simulating offline")
    store.isSimulatingOffline = false
    await store.outbox.untilIdle()
    XCTAssertEqual(sent, ["hello"], "the outbox did not send once the simulation ended")
  }
}

/// Counts fetches by name; each fetch returns the name and its count ("feed #2").
@MainActor
private final class KeyedCounter {
  private(set) var counts: [String: Int] = [:]

  func fetched(_ name: String) -> String {
    counts[name, default: 0] += 1
    return "\(name) #\(counts[name]!)"
  }
}

/// An outbox edit that changes nothing on screen.
private struct Note: OutboxEdit {
  static let name = "NetworkTruthTests.Note"
  let text: String
  var scope: LoadKey { ["notes"] }
  func applyOptimistically(to edit: inout SharedEdit, in store: LoaderStore) {}
}

import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// An outbox edit made while an entry's first load is in flight (held at a gate, or waiting
/// for the network on a cold start offline) follows the closure form's rules: the load goes
/// on, and the edit's `update` is laid over the value once it lands. Pins what Working
/// Offline and Sharing State promise ("an update of an entry holding no value changes
/// nothing" now, and an outbox edit's runs over the value the entry loads).
@MainActor
final class OutboxEditOverFirstLoadTests: XCTestCase {
  struct Cart: Codable, Equatable, Sendable {
    var lines: [String]
  }

  /// Adds a line to the cart, once: the edit a shop enqueues offline.
  struct AddToCart: OutboxEdit {
    static let name = "AddToCart"
    var line: String

    var scope: LoadKey { ["cart"] }
    var invalidates: [LoadKey] { [["cart"]] }

    func applyOptimistically(to edit: inout SharedEdit, in store: LoaderStore) {
      edit.update(matching: ["cart"], in: store, as: Cart.self) { cart in
        if !cart.lines.contains(line) { cart.lines.append(line) }
      }
    }
  }

  func testAnOutboxEditOverAFirstLoadHeldAtAGateLetsItLandWithTheEditLaidOver() async throws {
    // Offline: the edit is held in the outbox; the fetch does not wait for the network.
    let store = LoaderStore(connectivity: Loadables.Connectivity(isOnline: false))
    store.register(AddToCart.self) { _, _ in }
    let fetch = Gate<Cart>()
    let cart = store.loader(for: ["cart"], waitsForNetwork: false) { try await fetch.pass() }
    let loading = Task { await cart.load() }
    await fetch.arrival()

    store.edit(AddToCart(line: "pear"))
    XCTAssertTrue(cart.isRunning, "the outbox edit stopped the first load")
    XCTAssertEqual(cart.state, .loading, "the outbox edit took the first load's .loading away")

    fetch.open(Cart(lines: ["apple"]))
    let loaded = try await withDeadline { await loading.value }
    XCTAssertEqual(loaded, .loaded(Cart(lines: ["apple", "pear"])), "the awaited load saw")
    XCTAssertEqual(cart.state, .loaded(Cart(lines: ["apple", "pear"])))
    XCTAssertEqual(store.outbox.pendingCount, 1)
  }

  func testALineAddedOfflineBeforeTheCartFirstLoadsShowsOnceItLoads() async throws {
    // A cold start offline: the cart's first load waits for the network.
    let network = Loadables.Connectivity(isOnline: false)
    let store = LoaderStore(connectivity: network)
    var serverLines = ["apple"]
    store.register(AddToCart.self) { edit, _ in
      if !serverLines.contains(edit.line) { serverLines.append(edit.line) }
    }
    var fetches = 0
    let cart = store.loader(for: ["cart"]) {
      fetches += 1
      return Cart(lines: serverLines)
    }
    let token = cart.observe()
    defer { token.end() }
    let loading = Task { await cart.load() }
    try await waitUntil("the first load waits for the network", seen: "\(cart.state)") {
      cart.isWaitingForNetwork
    }

    let ticket = store.edit(AddToCart(line: "pear"))
    XCTAssertTrue(cart.isRunning, "the outbox edit stopped the load waiting for the network")

    network.update(isOnline: true)
    let loaded = try await withDeadline { await loading.value }
    XCTAssertEqual(loaded.data?.lines, ["apple", "pear"], "the line added offline is not shown")
    let outcome = try await withDeadline { await ticket.outcome() }
    XCTAssertTrue(outcome.isCommitted, "saw \(outcome)")
    // Committed (its invalidation refreshes the observed cart): the line shows once.
    try await waitUntil("the cart settles after the commit", seen: "\(cart.state)") {
      !cart.isRunning
    }
    XCTAssertEqual(cart.state, .loaded(Cart(lines: ["apple", "pear"])))
    XCTAssertGreaterThan(fetches, 0)
  }

  func testAnOutboxEditOverAShownValueStillSupersedesARefreshInFlight() async throws {
    // The rule that stays: an edit that changes what shows now cancels the older fetch.
    let store = LoaderStore(connectivity: Loadables.Connectivity(isOnline: false))
    store.register(AddToCart.self) { _, _ in }
    let fetch = Gate<Cart>()
    var first = true
    let cart = store.loader(for: ["cart"], waitsForNetwork: false) {
      if first {
        first = false
        return Cart(lines: ["apple"])
      }
      return try await fetch.passIgnoringCancellation()
    }
    await cart.load()
    let refreshing = Task { await cart.refresh() }
    await fetch.arrival()
    store.edit(AddToCart(line: "pear"))
    XCTAssertFalse(cart.isRunning, "an edit over a shown value let the older refresh run")
    fetch.open(Cart(lines: ["stale"]))
    _ = await refreshing.value
    XCTAssertEqual(cart.state, .loaded(Cart(lines: ["apple", "pear"])))
  }
}

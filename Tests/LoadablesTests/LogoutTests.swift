import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// Logging out: nothing of one user shows for the next, in memory or after a relaunch, even
/// when an edit of the first is being sent; and Sharing State's recipe ("Logging out")
/// finishes offline, at once, reporting the edits it discards.
@MainActor
final class LogoutTests: XCTestCase {
  struct Cart: Codable, Equatable, Sendable {
    var lines: [String]
  }

  /// Adds a line to the signed-in user's cart, once.
  struct AddToCart: OutboxEdit, Equatable {
    static let name = "LogoutTests.AddToCart"
    var line: String

    var scope: LoadKey { ["user", "cart"] }

    func applyOptimistically(to edit: inout SharedEdit, in store: LoaderStore) {
      edit.update(matching: ["user", "cart"], in: store, as: Cart.self) { cart in
        if !cart.lines.contains(line) { cart.lines.append(line) }
      }
    }
  }

  /// A shop's server: one cart per user, for the user signed in when a call starts.
  @MainActor
  final class Shop {
    var user = "ann"
    var carts = ["ann": ["ann's apple"], "bob": ["bob's bread"]]
    /// The line whose send waits at ``gate``.
    var heldLine: String?
    let gate = Gate<Void>()

    func cart(in store: LoaderStore) -> SharedLoader<Cart> {
      store.loader(for: ["user", "cart"], waitsForNetwork: false) {
        Cart(lines: self.carts[self.user] ?? [])
      }
    }

    func add(_ edit: AddToCart) async throws {
      let user = self.user
      if edit.line == heldLine { try await gate.pass() }
      if carts[user]?.contains(edit.line) == false { carts[user]?.append(edit.line) }
    }
  }

  let launch = Date(timeIntervalSince1970: 1_800_000_000)

  /// The recipe of Sharing State's "Logging out", as written there.
  func logOut(_ store: LoaderStore) async -> [OutboxItem] {
    let removal = store.remove(["user"], pendingEdits: .discard)
    await store.flushPersistence()
    return removal.discardedEdits
  }

  func testAnEditDiscardedByALogoutWhileItIsSentNeverShowsForTheNextUser() async throws {
    let directory = temporaryDirectory("logout-sending")
    let store = LoaderStore(
      clock: ManualClock(), persistence: .directory(directory, version: "1"), startDate: launch)
    let shop = Shop()
    shop.heldLine = "ann's pear"
    store.register(AddToCart.self) { edit, _ in try await shop.add(edit) }
    let cart = shop.cart(in: store)
    await cart.load()
    let pear = store.edit(AddToCart(line: "ann's pear"))
    await shop.gate.arrival()
    XCTAssertEqual(cart.state.data?.lines, ["ann's apple", "ann's pear"])

    let removal = store.remove(["user"], pendingEdits: .discard)
    XCTAssertEqual(removal.keptEdits, [], "the edit being sent was kept")
    XCTAssertEqual(removal.discardedEdits.map(\.id), [pear.id])
    XCTAssertEqual(
      removal.discardedEdits.first?.status, .sending,
      "the report does not say the discarded edit was being sent (it may reach the server)")
    XCTAssertEqual(store.outbox.items, [], "the discarded edit is still in the outbox")
    let outcome = try await withDeadline { await pear.outcome() }
    XCTAssertEqual("\(outcome)", "\(EditOutcome.discarded)")

    // Bob signs in and loads his cart under the same key, while Ann's send still runs.
    shop.user = "bob"
    let bobs = shop.cart(in: store)
    await bobs.load()
    XCTAssertEqual(bobs.state.data?.lines, ["bob's bread"], "Ann's edit shows in Bob's cart")
    // Bob's own edit waits behind Ann's send in the scope's line: once it commits, Ann's send
    // has ended (the server applied it).
    let jam = store.edit(AddToCart(line: "bob's jam"))
    shop.gate.open()
    let jamOutcome = try await withDeadline { await jam.outcome() }
    XCTAssertTrue(jamOutcome.isCommitted, "saw \(jamOutcome)")
    XCTAssertEqual(
      bobs.state.data?.lines, ["bob's bread", "bob's jam"],
      "Ann's edit showed again once its send ended")
    await bobs.refresh()
    XCTAssertEqual(bobs.state.data?.lines, ["bob's bread", "bob's jam"])
    await store.flushPersistence()

    // After a relaunch, Ann's edit is neither sent again nor laid over Bob's saved cart.
    let relaunched = LoaderStore(
      clock: ManualClock(), persistence: .directory(directory, version: "1"),
      connectivity: Loadables.Connectivity(isOnline: false), startDate: launch)
    relaunched.register(AddToCart.self) { edit, _ in try await shop.add(edit) }
    XCTAssertEqual(relaunched.outbox.items, [], "a discarded edit was restored")
    XCTAssertEqual(
      shop.cart(in: relaunched).state.data?.lines, ["bob's bread", "bob's jam"],
      "Ann's edit was laid over Bob's restored cart")
  }

  /// An edit of another scope, which gives a store a lane (and so the sender lock).
  struct Ping: OutboxEdit {
    static let name = "LogoutTests.Ping"
    var scope: LoadKey { ["ping"] }
    func applyOptimistically(to edit: inout SharedEdit, in store: LoaderStore) {}
  }

  func testAnEditTheOtherProcessSendsWhenThisOneDiscardsItNeverShowsForTheNextUser()
    async throws
  {
    let directory = temporaryDirectory("logout-other-sender")
    let appNetwork = Loadables.Connectivity(isOnline: false)
    let app = LoaderStore(
      clock: ManualClock(), persistence: .directory(directory, version: "1"),
      connectivity: appNetwork, startDate: launch)
    let widget = LoaderStore(
      clock: ManualClock(), persistence: .directory(directory, version: "1"), startDate: launch)
    let shop = Shop()
    shop.heldLine = "ann's pear"
    for store in [app, widget] {
      store.register(AddToCart.self) { edit, _ in try await shop.add(edit) }
      store.register(Ping.self) { _, _ in }
    }
    let cart = shop.cart(in: app)
    await cart.load()
    // The app, offline, queues Ann's pear; the widget takes the sender lock, reads the pear's
    // record and sends it (held at the gate).
    let pear = app.edit(AddToCart(line: "ann's pear"))
    widget.edit(Ping())
    try await withDeadline { await shop.gate.arrival() }

    // The app logs Ann out, offline, at once.
    let discarded = try await withDeadline { await self.logOut(app) }
    XCTAssertEqual(discarded.map(\.id), [pear.id], "the discarded edit is not reported")
    XCTAssertEqual(app.outbox.items, [])

    // Bob signs in; Ann's send ends in the widget (the server applied it).
    shop.user = "bob"
    let bobs = shop.cart(in: app)
    await bobs.load()
    shop.gate.open()
    try await withDeadline { await widget.outbox.untilIdle() }
    // The app sends Bob's jam: it takes the sender lock and reads what the widget wrote.
    appNetwork.goOnline()
    let jam = try await withDeadline { await app.edit(AddToCart(line: "bob's jam")).outcome() }
    XCTAssertTrue(jam.isCommitted, "saw \(jam)")
    XCTAssertEqual(
      bobs.state.data?.lines, ["bob's bread", "bob's jam"],
      "Ann's edit, sent by the widget, shows in Bob's cart")
    let widgetCart = shop.cart(in: widget)
    await widgetCart.load()
    XCTAssertEqual(
      widgetCart.state.data?.lines, ["bob's bread", "bob's jam"],
      "Ann's edit shows in Bob's cart in the widget")
    await app.flushPersistence()
    await widget.flushPersistence()

    // After a relaunch of both, Ann's edit is laid over neither's cart.
    for _ in 0..<2 {
      let relaunched = LoaderStore(
        clock: ManualClock(), persistence: .directory(directory, version: "1"),
        connectivity: Loadables.Connectivity(isOnline: false), startDate: launch)
      relaunched.register(AddToCart.self) { edit, _ in try await shop.add(edit) }
      relaunched.register(Ping.self) { _, _ in }
      XCTAssertEqual(relaunched.outbox.items, [], "a discarded edit was restored")
      XCTAssertEqual(
        shop.cart(in: relaunched).state.data?.lines, ["bob's bread", "bob's jam"],
        "Ann's edit, sent by the widget, was laid over Bob's restored cart")
    }
  }

  func testTheLogoutRecipeFinishesOfflineLeavesNothingOfTheUserAndReportsWhatItDiscards()
    async throws
  {
    let directory = temporaryDirectory("logout-offline")
    let network = Loadables.Connectivity(isOnline: true)
    let store = LoaderStore(
      clock: ManualClock(), persistence: .directory(directory, version: "1"),
      connectivity: network, startDate: launch)
    let shop = Shop()
    store.register(AddToCart.self) { edit, _ in try await shop.add(edit) }
    let cart = shop.cart(in: store)
    await cart.load()
    // One edit is sent (committed), then the network goes, and the next one waits for it.
    let sent = try await withDeadline { await store.edit(AddToCart(line: "ann's pear")).outcome() }
    XCTAssertTrue(sent.isCommitted, "saw \(sent)")
    network.update(isOnline: false)
    let plum = store.edit(AddToCart(line: "ann's plum"))
    XCTAssertEqual(store.outbox.items.map(\.status), [.waitingForNetwork])
    await store.flushPersistence()

    // Offline, the recipe returns at once: it never waits for the network.
    let discarded = try await withDeadline { await self.logOut(store) }
    XCTAssertFalse(network.isOnline)
    XCTAssertEqual(discarded.map(\.id), [plum.id], "the discarded edit is not reported")
    XCTAssertEqual(discarded.first?.edit(as: AddToCart.self)?.line, "ann's plum")
    XCTAssertEqual(cart.state, .absent, "Ann's cart still shows")
    XCTAssertEqual(store.keys, [])
    XCTAssertEqual(store.outbox.items, [])

    // Nothing of Ann's is saved: no file in the folder holds her cart or her edits.
    // Files with bytes only: `Data(contentsOf:)` of an empty file (the sender's lock) gives
    // back empty data without freeing the buffer it read into, which LeakSanitizer reports.
    let keys: Set<URLResourceKey> = [.isRegularFileKey, .fileSizeKey]
    let files = FileManager.default.enumerator(
      at: directory, includingPropertiesForKeys: Array(keys))
    var saved: [String] = []
    while let file = files?.nextObject() as? URL {
      let values = try? file.resourceValues(forKeys: keys)
      guard values?.isRegularFile == true, (values?.fileSize ?? 0) > 0 else { continue }
      if let bytes = try? Data(contentsOf: file), bytes.range(of: Data("ann's".utf8)) != nil {
        saved.append(file.lastPathComponent)
      }
    }
    XCTAssertEqual(saved, [], "files still hold Ann's data")

    // Bob signs in: his cart holds his lines only, in this launch and the next.
    shop.user = "bob"
    let bobs = shop.cart(in: store)
    await bobs.load()
    XCTAssertEqual(bobs.state.data?.lines, ["bob's bread"])
    await store.flushPersistence()
    let relaunched = LoaderStore(
      clock: ManualClock(), persistence: .directory(directory, version: "1"),
      connectivity: Loadables.Connectivity(isOnline: false), startDate: launch)
    relaunched.register(AddToCart.self) { edit, _ in try await shop.add(edit) }
    XCTAssertEqual(relaunched.outbox.items, [])
    XCTAssertEqual(
      shop.cart(in: relaunched).state.data?.lines, ["bob's bread"],
      "Ann's committed edit was laid over Bob's restored cart")
  }
}

import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// Two stores over one folder (an app and its extension) send each other's edits of a scope
/// and lay them over their entries: every value they show as committed, and save, is one the
/// server had, its edits in the order the server applied them.
@MainActor
final class OutboxSharedFolderOrderTests: XCTestCase {
  struct Tally: Codable, Equatable, Sendable {
    var applied: [Int] = []
  }

  /// Appends its number to the tally, unless it is there.
  struct Append: OutboxEdit {
    static let name = "Append"
    let number: Int

    var scope: LoadKey { ["tally"] }

    func applyOptimistically(to edit: inout SharedEdit, in store: LoaderStore) {
      let number = number
      edit.update(matching: ["tally"], in: store, as: Tally.self) { tally in
        if !tally.applied.contains(number) { tally.applied.append(number) }
      }
    }
  }

  /// The server: the numbers it applied, in order.
  final class Server {
    var tally = Tally()
  }

  private func folder() -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("outbox-folder-order-\(UUID().uuidString)")
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    return folder
  }

  private func store(
    _ folder: URL, _ server: Server, connectivity: Connectivity? = nil
  ) -> (LoaderStore, SharedLoader<Tally>) {
    let store = LoaderStore(
      persistence: .directory(folder, version: "1"), connectivity: connectivity)
    store.register(Append.self) { edit, _ in server.tally.applied.append(edit.number) }
    return (store, store.loader(for: ["tally"], waitsForNetwork: false) { server.tally })
  }

  /// Waits until what `stores` saved so far is on storage. Each store writes its records
  /// through a writer of its own, so a save one store queued earlier could otherwise land
  /// after another store's later one, and a check of what the folder restores would read the
  /// older value (one the server had, but not the one the check names).
  private func settle(_ stores: LoaderStore...) async {
    for store in stores { await store.flushPersistence() }
  }

  /// What a store made later over the folder restores, before any edit is laid over it.
  private func restored(_ folder: URL) -> Tally? {
    let relaunched = LoaderStore(persistence: .directory(folder, version: "1"))
    return relaunched.loader(for: ["tally"]) { Tally() }.state.data
  }

  func testAnEditTheOtherStoreQueuedFirstIsCommittedAheadOfThisStoresOwn() async throws {
    let (folder, server) = (folder(), Server())
    let (app, appTally) = store(folder, server)
    let (widget, widgetTally) = store(folder, server, connectivity: Connectivity(isOnline: false))
    await appTally.load()
    await widgetTally.load()
    await settle(app, widget)

    // The widget, offline, queues 1; the app queues 2 later, then takes the sender lock and
    // reads the widget's edit: it joins the line ahead of 2, and is laid behind it.
    widget.edit(Append(number: 1))
    let own = app.edit(Append(number: 2))
    let outcome = await own.outcome()
    guard case .committed = outcome else { return XCTFail("the app's edit ended \(outcome)") }
    await app.outbox.untilIdle()
    XCTAssertEqual(server.tally.applied, [1, 2], "the server applied them out of line")

    XCTAssertEqual(
      appTally.state.data?.applied, [1, 2],
      "the app shows its edits in another order than the server's")
    await app.flushPersistence()
    XCTAssertEqual(
      restored(folder)?.applied, [1, 2], "the app saved a value the server never had")
  }

  func testAnEditTheOtherStoreSentIsLaidOverThisStoresEntriesAheadOfItsOwn() async throws {
    let (folder, server) = (folder(), Server())
    let connectivity = Connectivity(isOnline: false)
    let (app, appTally) = store(folder, server)
    let (widget, widgetTally) = store(folder, server, connectivity: connectivity)
    await appTally.load()
    await widgetTally.load()
    await settle(app, widget)

    // The app sends 1 while the widget is offline; the widget's tally never saw it.
    _ = await app.edit(Append(number: 1)).outcome()
    await app.outbox.untilIdle()
    await settle(app)
    // The widget queues 2, then goes online: it takes the sender lock and reads the app's
    // commit before it sends.
    let own = widget.edit(Append(number: 2))
    connectivity.goOnline()
    let outcome = await own.outcome()
    guard case .committed = outcome else { return XCTFail("the widget's edit ended \(outcome)") }
    XCTAssertEqual(server.tally.applied, [1, 2])

    XCTAssertEqual(
      widgetTally.state.data?.applied, [1, 2],
      "the widget shows as committed a value the server never had")
    await widget.flushPersistence()
    XCTAssertEqual(
      restored(folder)?.applied, [1, 2], "the widget saved a value the server never had")
  }

  func testTheSenderSendsAnEditTheOtherStoreQueuedEarlierBeforeItsOwnLaterOne() async throws {
    let folder = folder()
    let (appClock, widgetClock) = (ManualClock(), ManualClock())
    let app = LoaderStore(clock: appClock, persistence: .directory(folder, version: "1"))
    let widget = LoaderStore(clock: widgetClock, persistence: .directory(folder, version: "1"))
    let first = Gate<Void>()
    var sent: [Int] = []
    app.register(Append.self) { edit, _ in
      sent.append(edit.number)
      if edit.number == 1 { try await first.pass() }
    }
    widget.register(Append.self) { edit, _ in sent.append(edit.number) }

    app.edit(Append(number: 1))
    await first.arrival()  // the app holds the sender lock
    widget.edit(Append(number: 2))
    try await widgetClock.sleepers(count: 1)  // the widget waits for its turn
    app.edit(Append(number: 3))
    first.open()
    await app.outbox.untilIdle()
    // Sent in the order they were queued: had the app sent 3 first and died after the
    // server applied it, the next sender would have sent 2 before 3 again, committing them in
    // another order than the server applied them.
    XCTAssertEqual(sent, [1, 2, 3], "the sender sent its own later edit ahead of the other's")
  }
}

import Foundation
import Loadables
import LoadablesTesting
import XCTest

/// An edit the server refused (its handler threw ``OutboxFailure/permanent(_:)``) fails with
/// an error the app matches by type: the handler's own in the process that sent it (in its
/// ticket and in its outbox item), its type name after a relaunch and in the other process
/// over a shared folder.
@MainActor
final class OutboxEditFailureTests: XCTestCase {
  struct Refused: Error, Equatable {
    let status: Int
  }

  struct Rename: OutboxEdit {
    static let name = "Rename"
    let id: Int
    let title: String

    var scope: LoadKey { ["posts", id] }
  }

  private func folder() -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("outbox-edit-failure-\(UUID().uuidString)")
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    return folder
  }

  private func refusing(_ store: LoaderStore) {
    store.register(Rename.self) { _, _ in throw OutboxFailure.permanent(Refused(status: 422)) }
  }

  func testARefusedEditShowsTheHandlersErrorInItsItem() async throws {
    let store = LoaderStore()
    refusing(store)
    let ticket = store.edit(Rename(id: 1, title: "mine"))
    do {
      try await ticket.wait()
      XCTFail("the refused edit committed")
    } catch let refusal as Refused {
      XCTAssertEqual(refusal.status, 422)
    }
    let failure = try XCTUnwrap(store.outbox.items.first?.failure, "\(store.outbox.items)")
    XCTAssertEqual((failure.error as? Refused)?.status, 422, "saw \(failure)")
    XCTAssertEqual(failure.typeName, String(reflecting: Refused.self))
    XCTAssertTrue(failure.hasType(Refused.self))
    XCTAssertFalse(failure.hasType(CancellationError.self))
    XCTAssertEqual(store.outbox.items.first?.status, .failed(failure.reason))
    XCTAssertTrue(store.outbox.retry(ticket.id))
    XCTAssertNil(store.outbox.items.first?.failure, "a retried edit kept its failure")
  }

  func testARestoredRefusalKeepsItsTypeName() async throws {
    let folder = folder()
    let store = LoaderStore(persistence: .directory(folder, version: "1"))
    refusing(store)
    _ = await store.edit(Rename(id: 1, title: "mine")).outcome()

    let relaunched = LoaderStore(persistence: .directory(folder, version: "1"))
    let failure = try XCTUnwrap(
      relaunched.outbox.items.first?.failure, "\(relaunched.outbox.items)")
    XCTAssertNil(failure.error, "a restored failure kept an error value it cannot have")
    XCTAssertEqual(failure.typeName, String(reflecting: Refused.self))
    XCTAssertTrue(failure.hasType(Refused.self))
    XCTAssertEqual(failure.reason, "\(Refused(status: 422))")
    XCTAssertEqual(relaunched.outbox.items.first?.status, .failed(failure.reason))
  }

  func testAnEditTheOtherStoreRefusedFailsItsTicketWithTheErrorsTypeName() async throws {
    let folder = folder()
    let connectivity = Connectivity(isOnline: false)
    let app = LoaderStore(
      persistence: .directory(folder, version: "1"), connectivity: connectivity)
    app.register(Rename.self) { _, _ in }
    let widget = LoaderStore(persistence: .directory(folder, version: "1"))
    refusing(widget)

    // The app, offline, queues an edit; the widget sends it (with one of its own) and the
    // server refuses both.
    let ticket = app.edit(Rename(id: 1, title: "mine"))
    _ = await widget.edit(Rename(id: 2, title: "theirs")).outcome()
    await widget.outbox.untilIdle()
    XCTAssertEqual(widget.outbox.failedCount, 2, "\(widget.outbox.items)")

    // Online, the app takes the sender lock and reads that its edit failed there.
    connectivity.goOnline()
    do {
      try await ticket.wait()
      XCTFail("the refused edit committed")
    } catch let failure as EditFailure {
      XCTAssertTrue(failure.hasType(Refused.self), "saw \(failure.typeName)")
      XCTAssertEqual(failure.reason, "\(Refused(status: 422))")
    }
    XCTAssertEqual(
      app.outbox.items.first?.failure?.typeName, String(reflecting: Refused.self),
      "\(app.outbox.items)")
  }
}
